/**
 * Renders the extension icon (one SVG, below) into public/icon/<size>.png for every size the
 * stores and browsers ask for: 16/32 toolbar, 48 extensions page, 64/96 Firefox add-ons manager
 * and AMO, 128 Chrome Web Store and install dialog. WXT lists public/icon/<size>.png in the
 * manifest by itself. Run by hand after changing the design: `npx tsx tests/tools/make-icons.ts`
 * (needs Chromium, as the browser tests do; CHROMIUM_PATH to point elsewhere).
 */
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const ICON_SIZES = [16, 32, 48, 64, 96, 128] as const;

const BRAND = '#2458d6';
const BRAND_DARK = '#173c99';

/** A points coin with a star, on the brand colour; drawn on a 128 grid, scaled exactly. */
function iconSvg(size: number): string {
  // Small sizes lose the coin's rim: a plain star on the tile stays legible at 16 px.
  const small = size <= 32;
  const star = starPath(64, 66, small ? 44 : 34, small ? 19 : 14.5);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 128 128">
  <defs>
    <linearGradient id="tile" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${BRAND}"/>
      <stop offset="1" stop-color="${BRAND_DARK}"/>
    </linearGradient>
  </defs>
  <rect x="4" y="4" width="120" height="120" rx="${small ? 22 : 26}" fill="url(#tile)"/>
  ${small ? '' : '<circle cx="64" cy="64" r="45" fill="none" stroke="#ffffff" stroke-width="8"/>'}
  <path d="${star}" fill="#ffffff" stroke="#ffffff" stroke-width="${small ? 6 : 4}" stroke-linejoin="round"/>
</svg>`;
}

function starPath(cx: number, cy: number, outer: number, inner: number): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + r * Math.cos(angle)).toFixed(2)},${(cy + r * Math.sin(angle)).toFixed(2)}`);
  }
  return `M${points.join('L')}Z`;
}

async function main(): Promise<void> {
  await mkdir('public/icon', { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const size of ICON_SIZES) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(
        `<style>html,body{margin:0;background:transparent}svg{display:block}</style>${iconSvg(size)}`,
      );
      await page.locator('svg').screenshot({ path: `public/icon/${size}.png`, omitBackground: true });
      console.log(`public/icon/${size}.png`);
    }
  } finally {
    await browser.close();
  }
}

await main();
