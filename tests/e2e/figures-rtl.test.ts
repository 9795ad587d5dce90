/**
 * Figures in Arabic, by where they land on screen, in Chromium at 320 and 380 px: each figure with
 * its unit or currency is one unit (the currency beside its amount, not beside the points after
 * it, "US$" not "$US"), and the figures of a line come in the right-to-left order they are read:
 * the reward rows' value and points, the header's next step, the goal, Confirm, the outcome, and
 * the options page's history. The brand picker's options and notifications are text without
 * markup: their isolates are checked in tests/unit/qty.test.ts and background-notifications.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bare, figureFaults, glyphsOf, readAcross, type Glyph } from './glyphs';
import { launchExtension, type ExtensionSession } from './harness';
import { seedBalanceHistory } from './balance-samples';
import { catalogueOf, connectBy, sayIn } from './words';
import { popupSettled } from './popup-ready';

const messages = catalogueOf('ar');
const say = sayIn(messages);
const COFFEE = 'Bluefin Coffee $5 Gift Card';
const GOAL = 'Greenleaf Markt 30 € Einkaufsgutschein'; // 3,300 points: 800 to go from the seed's 2,500
const LINDNER = 'Kaufhaus Lindner 15 € Geschenkkarte'; // 1,650 points: redeemable
/** A name as a reader sees it written left to right, spaces left out (glyphs.ts readAcross). */
const asRead = (name: string) => name.replace(/\s/g, '');
const DAY_MS = 86_400_000;
/** Rows of one value each, by the sandbox's ids: a value in each currency the seed has. */
const ROWS = [
  { id: 101, cost: 5, currency: 'USD', points: 500 },
  { id: 102, cost: 10, currency: 'USD', points: 1000 },
  { id: 104, cost: 15, currency: 'EUR', points: 1650 },
  { id: 105, cost: 20, currency: 'GBP', points: 2300 },
];

let ext: ExtensionSession;

/** How the page itself writes figures (its ICU): money, and a count with the word after `$1` in `key`'s form for it. */
const inPage = (page: Page) => ({
  money: (amount: number, currency: string) =>
    page.evaluate(({ a, c }) => new Intl.NumberFormat('ar', { style: 'currency', currency: c }).format(a), {
      a: amount,
      c: currency,
    }),
  count: async (n: number, key = 'points') => {
    const form = messages[`${key}_${new Intl.PluralRules('ar').select(n)}`]!.message;
    const unit = /\$1 (\S+)/.exec(form)![1]!;
    return `${await page.evaluate((x) => new Intl.NumberFormat('ar').format(x), n)} ${unit}`;
  },
});

const lines = (page: Page, selector: string): Promise<Glyph[][]> => page.evaluate(glyphsOf, selector);

async function openAt(path: 'popup.html' | 'options.html', width: number): Promise<Page> {
  const page = await ext.context.newPage();
  await page.setViewportSize({ width, height: path === 'popup.html' ? 600 : 900 });
  await page.goto(`chrome-extension://${ext.extensionId}/${path}`);
  return page;
}

beforeAll(async () => {
  ext = await launchExtension({ locale: 'ar' });
  const options = await ext.openPage('options.html');
  await connectBy(options, say, ext.sandbox);
  await options.close();
  const now = Date.now();
  await (
    await ext.worker()
  ).evaluate(
    seedBalanceHistory,
    [
      [35, 1250],
      [16, 1810],
      [0.05, 2500],
    ].map(([days, points]) => ({ at: Math.round(now - days! * DAY_MS), points })),
  );
  const popup = await openAt('popup.html', 380);
  await popup.getByRole('button', { name: say('setGoal', GOAL), exact: true }).click();
  await popup.getByRole('button', { name: say('isGoal', GOAL), exact: true, pressed: true }).waitFor();
  await popup.close();
});
afterAll(async () => {
  await ext?.close();
});

describe('Arabic, right to left, in Chromium', () => {
  test('the popup at 320 and 380 px: each row’s value and points, the next step and the goal, each figure whole and in reading order', async () => {
    for (const width of [320, 380]) {
      const popup = await openAt('popup.html', width);
      await popup.locator('.goal .goal-pace').waitFor();
      await popupSettled(popup);
      const { money, count } = inPage(popup);
      const faults: string[] = [];
      for (const row of ROWS) {
        const [line] = await lines(popup, `li.reward:has([aria-controls="reward-${row.id}-details"]) .reward-meta`);
        expect(line, `row ${row.id}`).toBeDefined();
        // Read first: the value, then the points ("5.00 US$ · 500 نقطة"), never "نقطة US$ · 500 5.00".
        const figures = [bare(await money(row.cost, row.currency)), await count(row.points)];
        faults.push(...figureFaults(line!, figures, true, `${width} px, row ${row.id}`));
      }
      const [next] = await lines(popup, 'header .hdr-next');
      // The points to the goal; its name is the card's (the test below reads it).
      faults.push(...figureFaults(next!, [await count(800, 'pointsToGoal')], true, `${width} px, next step`));
      const [pace] = await lines(popup, '.goal .goal-pace');
      const paceFigures = await popup.locator('.goal .goal-pace .qty').allTextContents();
      expect(paceFigures.length).toBeGreaterThan(0);
      faults.push(...figureFaults(pace!, paceFigures.map(bare), true, `${width} px, goal`));
      expect(faults).toEqual([]);
      await popup.close();
    }
  });

  test('a reward’s name reads as its row shows it, figure and all, in the rows, the goal, the header and Confirm, at 320 and 380 px', async () => {
    const seen: Record<string, string> = {};
    for (const width of [320, 380]) {
      const popup = await openAt('popup.html', width);
      await popup.locator('.goal .goal-name').waitFor();
      await popupSettled(popup);
      for (const [id, name] of [
        [104, LINDNER],
        [107, GOAL],
      ] as const) {
        const [row] = await lines(popup, `li.reward:has([aria-controls="reward-${id}-details"]) .reward-name`);
        seen[`${width} px, row ${id}`] = readAcross(row!, name);
      }
      const [card] = await lines(popup, '.goal .goal-name');
      seen[`${width} px, goal`] = readAcross(card!, GOAL);
      await popup.getByRole('button', { name: say('redeemReward', LINDNER), exact: true }).click();
      await popup.getByRole('alertdialog').waitFor();
      const [question] = await lines(popup, '#confirm-text');
      seen[`${width} px, confirm`] = readAcross(question!, LINDNER);
      await popup.close();
    }
    // Without a goal the header names the nearest reward: "800 نقطة تفصلك عن Greenleaf Markt 30 € Einkaufsgutschein".
    const popup = await openAt('popup.html', 320);
    await popup.getByRole('button', { name: say('isGoal', GOAL), exact: true }).click();
    await popup.getByRole('button', { name: say('setGoal', GOAL), exact: true, pressed: false }).waitFor();
    await popup.locator('header .hdr-next', { hasText: GOAL }).waitFor();
    const [next] = await lines(popup, 'header .hdr-next');
    seen.header = readAcross(next!, GOAL);
    await popup.close();
    const expected = Object.fromEntries(
      Object.keys(seen).map((where) => [
        where,
        asRead(where.includes('104') || where.includes('confirm') ? LINDNER : GOAL),
      ]),
    );
    expect(seen).toEqual(expected);
  });

  test('Confirm and the outcome: the cost, the balance after and the card’s value, each whole', async () => {
    const popup = await openAt('popup.html', 320);
    const { money, count } = inPage(popup);
    await popup.getByRole('button', { name: say('redeemReward', COFFEE), exact: true }).click();
    const dialog = popup.getByRole('alertdialog');
    await dialog.waitFor();
    const [question] = await lines(popup, '#confirm-text');
    const asked = (await popup.locator('#confirm-text .qty').allTextContents()).map(bare);
    expect(asked).toContain(await count(500));
    expect(figureFaults(question!, asked, true, 'Confirm')).toEqual([]);

    await dialog.getByRole('button', { name: say('confirmRedeeming', COFFEE), exact: true }).click();
    const outcome = popup.getByRole('region', { name: say('outcomeDone', COFFEE) });
    await outcome.waitFor();
    const value = bare(await money(5, 'USD'));
    // The value comes with the card's words for how the reward arrives.
    await expect.poll(async () => bare((await outcome.textContent()) ?? '')).toContain(value);
    const said = (await lines(popup, '#redeem-outcome p')).filter((line) =>
      line
        .map((g) => g.c)
        .join('')
        .includes(value),
    );
    expect(said).toHaveLength(1);
    expect(figureFaults(said[0]!, [value], true, 'outcome')).toEqual([]);
    await popup.close();
  });

  test('the options page at 320 and 380 px: each redemption’s value reads “10.00 US$”, never “$US 10.00”', async () => {
    for (const width of [320, 380]) {
      const options = await openAt('options.html', width);
      await options.locator('.history-row').nth(4).waitFor();
      const { money } = inPage(options);
      const amounts = await lines(options, '.history-row .history-amounts .muted');
      const shown = ext.sandbox.state.redemptions
        .toSorted((a, b) => b.created_at.localeCompare(a.created_at))
        .slice(0, 5);
      const faults: string[] = [];
      for (const [i, r] of shown.entries()) {
        // The sandbox records every redemption's value; a null would be the test's own mistake.
        if (r.cost === null) throw new Error(`the sandbox recorded no value for redemption ${r.id}`);
        faults.push(
          ...figureFaults(amounts[i]!, [bare(await money(r.cost, r.currency))], true, `${width} px, history ${r.id}`),
        );
      }
      expect(faults).toEqual([]);
      await options.close();
    }
  });
});
