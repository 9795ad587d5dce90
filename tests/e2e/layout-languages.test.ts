/**
 * Layout in Chromium, in Japanese, German and Arabic, at 300, 320 and 380 px:
 * a number and its unit are never broken apart, nor is the unit itself ("500 ポイン / ト" on every
 * row, "11,000 ポイン / ト" on the goal card); the panel's name is never cut ("Panel Re…" beside
 * "Verlauf" and "Einstellungen"); nothing scrolls sideways or clips its words; and on the options
 * page every history row has its tile before it is scrolled into view. Each popup at 320 px is kept
 * as `.output/e2e-layout/<language>-popup-320.png`.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchExtension, type ExtensionSession } from './harness';
import { seedBalanceHistory } from './balance-samples';
import { actionFaults } from './row-actions';
import { separatorFaults } from './separators';
import { signInBuild } from './sign-in-build';
import { catalogueOf, connectBy, sayIn } from './words';
import { popupSettled } from './popup-ready';

const SHOTS = '.output/e2e-layout';
const GOAL = 'Atlas Travel £100 Gift Card'; // 11,000 points: the goal card says so, the seed balance is 2,500
const DAY_MS = 86_400_000;

/** Five weeks of balance changes ending at the seed's 2,500, so the goal card has its pace line. */
const history = (now: number) =>
  [
    [35, 1250],
    [24, 1190],
    [16, 1810],
    [8, 2120],
    [0.05, 2500],
  ].map(([days, points]) => ({ at: Math.round(now - days! * DAY_MS), points }));

/**
 * What breaks apart as laid out now: a `.qty` pair on more than one line, a number and the unit
 * word after it (`unit`, in the language's words) split between lines within a text, or a unit
 * word split itself; and the panel's name cut or clipped.
 */
function broken(units: string[]): string[] {
  const found: string[] = [];
  const lines = (range: Range | Element) =>
    new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  for (const el of document.querySelectorAll('.qty')) {
    if (el.getClientRects().length && lines(el) > 1) found.push(`“${el.textContent}” is on ${lines(el)} lines`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const pair = new RegExp(
    `\\p{Nd}[\\p{Nd},.\\u00a0\\u202f\\u066b\\u066c]*[ \\u00a0\\u202f]?(?:${units.join('|')})`,
    'gu',
  );
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    for (const match of text.matchAll(pair)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if (lines(range) > 1) found.push(`“${match[0]}” breaks in “${text.slice(0, 60)}”`);
    }
  }
  const name = document.querySelector('h1');
  if (name) {
    const style = getComputedStyle(name);
    if (name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1)
      found.push(`the name “${name.textContent}” is clipped`);
    if (style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap')
      found.push(`the name “${name.textContent}” can be cut with “…”`);
  }
  return found;
}

/** Anything reaching past the page's edges, or a control whose words do not fit it. */
function misfits(): string[] {
  const found: string[] = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width)
    found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  for (const el of document.querySelectorAll<HTMLElement>('button, a, select, input, summary, progress, h1')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || el.closest('.visually-hidden')) continue;
    const name = `${el.tagName} “${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)}”`;
    if (r.left < -0.5 || r.right > width + 0.5)
      found.push(`${name} at ${Math.round(r.left)}–${Math.round(r.right)} of ${width}`);
    else if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1)
      found.push(`${name} clips its words (${el.scrollWidth} > ${el.clientWidth})`);
  }
  return found;
}

async function openAt(ext: ExtensionSession, path: 'popup.html' | 'options.html', width: number): Promise<Page> {
  const page = await ext.context.newPage();
  await page.setViewportSize({ width, height: path === 'popup.html' ? 600 : 800 });
  await page.goto(`chrome-extension://${ext.extensionId}/${path}`);
  return page;
}

describe.each(['ja', 'de', 'ar'])('in %s', (locale) => {
  const messages = catalogueOf(locale);
  const say = sayIn(messages);
  /** The language's words for "points", every plural form, without the number. */
  const units = [
    ...new Set(
      Object.entries(messages)
        .filter(([key]) => key.startsWith('points_'))
        .map(([, m]) => m.message.replace('$1', '').trim()),
    ),
  ].filter((unit) => !/\p{Nd}/u.test(unit) && unit.split(/\s+/).length === 1);
  let ext: ExtensionSession;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ext = await launchExtension({ locale });
    const options = await ext.openPage('options.html');
    await connectBy(options, say, ext.sandbox);
    await options.close();
    const worker = await ext.worker();
    await worker.evaluate(seedBalanceHistory, history(Date.now()));
    const popup = await openAt(ext, 'popup.html', 380);
    const toggle = popup.getByRole('button', { name: say('setGoal', GOAL), exact: true });
    await toggle.click();
    await popup.getByRole('button', { name: say('isGoal', GOAL), exact: true, pressed: true }).waitFor();
    await popup.close();
  });
  afterAll(async () => {
    await ext?.close();
  });

  test('the popup at 300, 320 and 380 px: every number with its unit on one line, the panel’s name whole, nothing cut', async () => {
    for (const width of [300, 320, 380]) {
      const popup = await openAt(ext, 'popup.html', width);
      await popup.locator('.goal .goal-pace').waitFor();
      await popup.locator('.reward').nth(3).waitFor();
      await popupSettled(popup);
      // The pairs once seen broken are there to be checked: the rows' costs and the goal's.
      expect(await popup.locator('.reward .qty').count()).toBeGreaterThan(3);
      // The points to the goal are the header's next step ("Noch 8.500 Punkte bis zu Ihrem Ziel").
      const nextStep = await popup.locator('.hdr-next .qty').allTextContents();
      expect(
        nextStep.some((figure) => units.some((unit) => figure.includes(unit))),
        nextStep.join(' | '),
      ).toBe(true);
      expect(await popup.evaluate(broken, units), `${locale}, popup, ${width} px`).toEqual([]);
      expect(await popup.evaluate(misfits), `${locale}, popup, ${width} px`).toEqual([]);
      expect(await popup.evaluate(actionFaults), `${locale}, popup, ${width} px`).toEqual([]);
      expect(await popup.evaluate(separatorFaults), `${locale}, popup, ${width} px`).toEqual([]);
      // The name is the build's, whole: on one line or wrapped, never cut with "…".
      expect(await popup.locator('h1').textContent()).toBe('Panel Rewards');
      if (width === 320) await popup.screenshot({ path: `${SHOTS}/${locale}-popup-320.png` });
      await popup.close();
    }
  });

  test('the options page at 320 and 380 px: the same pairs whole, and every history row with its tile before it is scrolled to', async () => {
    for (const width of [320, 380]) {
      const options = await openAt(ext, 'options.html', width);
      await options.locator('.history-row').nth(8).waitFor();
      await options.locator('.balance-summary').waitFor();
      expect(await options.evaluate(broken, units), `${locale}, options, ${width} px`).toEqual([]);
      // Rows below the fold: not scrolled to, so their lazy images were never asked for; each shows its tile.
      const below = await options.locator('.history-row').evaluateAll((rows) =>
        rows
          .filter((row) => row.getBoundingClientRect().top > window.innerHeight)
          .map((row) => {
            const tile = row.querySelector('.reward-tile')?.getBoundingClientRect();
            const img = row.querySelector('img');
            return {
              tile: tile ? Math.round(tile.width) : 0,
              covered: img ? getComputedStyle(img).opacity !== '0' : false,
            };
          }),
      );
      expect(below.length).toBeGreaterThan(0);
      expect(
        below.every((row) => row.tile >= 40 && !row.covered),
        JSON.stringify(below),
      ).toBe(true);
      if (width === 320) await options.screenshot({ path: `${SHOTS}/${locale}-options-320.png`, fullPage: true });
      await options.close();
    }
  });
});

describe('in ja, with the operator’s page to earn points', () => {
  const say = sayIn(catalogueOf('ja'));
  let ext: ExtensionSession;
  beforeAll(async () => {
    // The sign-in build names an earn page, as an operator's does: its link shares the next step's line.
    ext = await launchExtension({ locale: 'ja', extensionDir: signInBuild('chrome') });
    const options = await ext.openPage('options.html#personal-key');
    await connectBy(options, say, ext.sandbox);
    await options.close();
  }, 240_000);
  afterAll(async () => {
    await ext?.close();
  });

  test('“ポイントをためる” is never broken, nor left behind its “·”, at 300, 320 and 380 px', async () => {
    for (const width of [300, 320, 380]) {
      const popup = await openAt(ext, 'popup.html', width);
      const earn = popup.getByRole('link', { name: say('earnMorePoints'), exact: true });
      await earn.waitFor();
      const lines = await popup
        .locator('header .joined-then')
        .filter({ has: earn })
        .evaluate((el) => {
          const tops = new Set([...el.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          return tops.size;
        });
      expect(lines, `${width} px`).toBe(1);
      await popup.close();
    }
  });
});
