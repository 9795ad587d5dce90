import { describe, expect, it } from 'vitest';
import { textOn } from '../../utils/brand';

/** Text on the operator's brand colour stays legible whatever colour the build sets. */
describe('textOn', () => {
  function contrast(a: string, b: string): number {
    const lum = (hex: string) => {
      const [r, g, b2] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
    };
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  }
  const full = (c: '#000' | '#fff') => (c === '#000' ? '#000000' : '#ffffff');

  it.each(['#2458d6', '#b3261e', '#176b35', '#000000', '#5b2a86'])('white on the dark colour %s', (color) => {
    expect(textOn(color)).toBe('#fff');
  });

  it.each(['#ffd400', '#8fd3ff', '#ffffff', '#f0b45a', '#7fff00'])('black on the light colour %s', (color) => {
    expect(textOn(color)).toBe('#000');
  });

  it('always reaches WCAG AA for normal text (4.5:1) on any grey, red, green or blue', () => {
    for (let v = 0; v < 256; v += 5) {
      const h = v.toString(16).padStart(2, '0');
      for (const color of [`#${h}${h}${h}`, `#${h}0000`, `#00${h}00`, `#0000${h}`]) {
        expect(contrast(color, full(textOn(color))), color).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('accepts #rgb and falls back to white for anything it cannot read', () => {
    expect(textOn('#fd0')).toBe('#000');
    expect(textOn('rebeccapurple')).toBe('#fff');
  });
});
