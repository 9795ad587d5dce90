/** Legible text on the operator's colour: used by the pages (brand.ts) and the store images (npm run store). */

/** `#000` or `#fff`, whichever has the higher WCAG contrast on `color` (`#rgb` or `#rrggbb`; white otherwise). */
export function textOn(color: string): '#000' | '#fff' {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return '#fff';
  const sixDigits = hex.length === 3 ? hex.replace(/./g, '$&$&') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(sixDigits.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#fff' : '#000';
}
