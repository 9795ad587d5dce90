/**
 * The popup in Arabic in Firefox ESR (headless, WebDriver BiDi), at 320 and 380 px: the same
 * positions on screen as figures-rtl.test.ts checks in Chromium, through Gecko's own
 * bidirectional layout: each row's value with its currency in one piece and before its points,
 * the header's next step, and a reward's name read as its row shows it in the header and Confirm. Firefox takes its language from a language pack: Debian's
 * `firefox-esr-l10n-ar` (installed by .ci/run); without it Firefox stays in English and this test
 * says so rather than pass.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { byLabel, fillField, launchFirefox, type FirefoxSession } from './firefox-harness';
import { bare, figureFaults, glyphsOf, readAcross, type Glyph } from './glyphs';
import { catalogueOf, sayIn } from './words';
import { popupSettledIn } from './popup-ready';

const messages = catalogueOf('ar');
const say = sayIn(messages);
const GOAL = 'Greenleaf Markt 30 € Einkaufsgutschein';
const LINDNER = 'Kaufhaus Lindner 15 € Geschenkkarte';
/** A name as a reader sees it written left to right, spaces left out (glyphs.ts readAcross). */
const asRead = (name: string) => name.replace(/\s/g, '');
const ROWS = [
  { id: 101, cost: 5, currency: 'USD', points: 500 },
  { id: 102, cost: 10, currency: 'USD', points: 1000 },
  { id: 104, cost: 15, currency: 'EUR', points: 1650 },
  { id: 105, cost: 20, currency: 'GBP', points: 2300 },
];

let sandbox: Sandbox;
let ff: FirefoxSession;

beforeAll(async () => {
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  ff = await launchFirefox({ prefs: { 'intl.locale.requested': 'ar' } });
});
afterAll(async () => {
  await ff?.close();
  await sandbox?.close();
});

/** A count with its unit as the page writes it (its ICU), in `points`' form for `n`. */
async function count(page: Page, n: number, key = 'points'): Promise<string> {
  const form = messages[`${key}_${new Intl.PluralRules('ar').select(n)}`]!.message;
  const unit = /\$1 (\S+)/.exec(form)![1]!;
  return `${await page.evaluate((x) => new Intl.NumberFormat('ar').format(x), n)} ${unit}`;
}

const money = (page: Page, amount: number, currency: string) =>
  page.evaluate((a, c) => new Intl.NumberFormat('ar', { style: 'currency', currency: c }).format(a), amount, currency);

test('Firefox speaks Arabic to the extension: the pages are right to left', async () => {
  const options = await ff.openPage('options.html');
  const seen = await options.evaluate(() => [
    (globalThis as unknown as { browser: { i18n: { getUILanguage(): string } } }).browser.i18n.getUILanguage(),
    document.documentElement.dir,
  ]);
  expect(seen, 'Firefox needs its Arabic language pack (Debian: firefox-esr-l10n-ar)').toEqual(['ar', 'rtl']);
  await options.waitForSelector('details.advanced > summary');
  if (!(await options.$eval('details.advanced', (d) => d.open))) await options.click('details.advanced > summary');
  await fillField(options, say('apiBaseUrl'), sandbox.url);
  await fillField(options, say('accessToken'), sandbox.token);
  await options.locator(byLabel(say('connect'), 'button')).click();
  await options.locator(byLabel(say('disconnect'), 'button')).wait();
  await options.close();
});

test('the popup at 320 and 380 px: each row’s value and points, and the next step, each figure whole and in reading order', async () => {
  const popup = await ff.openPage('popup.html');
  for (const width of [320, 380]) {
    await popup.setViewport({ width, height: 600 });
    await popup.waitForSelector('li.reward .reward-meta');
    await popupSettledIn(popup);
    const lines = (selector: string): Promise<Glyph[][]> => popup.evaluate(glyphsOf, selector);
    const faults: string[] = [];
    for (const row of ROWS) {
      const [line] = await lines(`li.reward:has([aria-controls="reward-${row.id}-details"]) .reward-meta`);
      expect(line, `row ${row.id}`).toBeDefined();
      const figures = [bare(await money(popup, row.cost, row.currency)), await count(popup, row.points)];
      faults.push(...figureFaults(line!, figures, true, `${width} px, row ${row.id}`));
    }
    // 3,300 points to Greenleaf Markt 30 € Einkaufsgutschein, the nearest reward: 800 to go.
    const [next] = await lines('header .hdr-next');
    faults.push(...figureFaults(next!, [await count(popup, 800, 'pointsToReward')], true, `${width} px, next`));
    expect(faults).toEqual([]);
    // The name is one unit: "30 €" as in its row, never "€ 30".
    const [row] = await lines(`li.reward:has([aria-controls="reward-107-details"]) .reward-name`);
    expect([readAcross(row!, GOAL), readAcross(next!, GOAL)], `${width} px`).toEqual([asRead(GOAL), asRead(GOAL)]);
  }
  await popup.close();
});

test('Confirm at 320 px names the reward as its row does, “15 €” and all', async () => {
  const popup = await ff.openPage('popup.html');
  await popup.setViewport({ width: 320, height: 600 });
  await popup.locator(byLabel(say('redeemReward', LINDNER), 'button')).click();
  await popup.waitForSelector('#confirm-text');
  const [row] = await popup.evaluate(glyphsOf, `li.reward:has([aria-controls="reward-104-details"]) .reward-name`);
  const [question] = await popup.evaluate(glyphsOf, '#confirm-text');
  expect([readAcross(row!, LINDNER), readAcross(question!, LINDNER)]).toEqual([asRead(LINDNER), asRead(LINDNER)]);
  await popup.close();
});
