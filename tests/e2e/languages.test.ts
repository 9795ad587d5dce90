/**
 * The built extension in a browser set to Polish: Chrome picks `_locales/pl`, finds the plural
 * forms only Polish has (`points_few`, `points_many`), describes the extension in Polish, and a
 * panelist connects by the Polish labels and reads the balance in the Polish form for its number.
 * Then Arabic (right to left) and Japanese: connect → popup → redeem by the translated labels and
 * roles, the pages mirrored in Arabic, and axe-core clean on both pages.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAxe } from './axe';
import { stored } from './control';
import { launchExtension, type ExtensionSession } from './harness';
import { catalogueOf, connectBy, sayIn } from './words';

const say = sayIn(catalogueOf('pl'));

describe('a Polish browser', () => {
  let ext: ExtensionSession;
  beforeAll(async () => {
    ext = await launchExtension({ locale: 'pl' });
  });
  afterAll(async () => {
    await ext?.close();
  });

  test('chrome.i18n answers from pl, including the forms English does not have; the manifest is described in Polish', async () => {
    const worker = await ext.worker();
    const found = await worker.evaluate(async () => ({
      lang: chrome.i18n.getMessage('lang'),
      few: chrome.i18n.getMessage('points_few', ['3']),
      many: chrome.i18n.getMessage('points_many', ['5']),
      one: chrome.i18n.getMessage('points_one', ['1']),
      description: (await chrome.management.getSelf()).description,
    }));
    expect(found).toEqual({
      lang: 'pl',
      few: '3 punkty',
      many: '5 punktów',
      one: '1 punkt',
      description: `Panel Rewards: ${say('extDescription')}`,
    });
  });

  test('connect by the Polish labels, then the popup reads Polish, the balance in the form for its number', async () => {
    const options = await ext.openPage('options.html');
    expect(await options.evaluate(() => document.documentElement.lang)).toBe('pl');
    await connectBy(options, say, ext.sandbox);
    await options.close();

    const popup = await ext.openPage('popup.html');
    const balance = popup.locator('.hdr-balance');
    await balance.waitFor();
    const text = (await balance.textContent())!;
    const count = Number(text.replace(/\D/g, ''));
    const form = new Intl.PluralRules('pl').select(count);
    expect(text).toBe(say(`balancePoints_${form}`, new Intl.NumberFormat('pl').format(count)));
    await popup.getByRole('heading', { name: say('rewardsHeading') }).waitFor();
    expect(await popup.getByRole('button', { name: new RegExp(`^${say('redeemButton')} `) }).count()).toBeGreaterThan(
      0,
    );
  });
});

const COFFEE = 'Bluefin Coffee $5 Gift Card'; // 500 points; the seed balance is 2,500
const FIRST_NAME = 'What is your first name?';
/** Where the Arabic and Japanese pages are kept as screenshots, to be looked at. */
const SHOTS = '.output/e2e-languages';

describe.each(['ar', 'ja'])('a browser in %s', (locale) => {
  const messages = catalogueOf(locale);
  const say = sayIn(messages);
  const lang = messages.lang!.message;
  const rtl = locale === 'ar';
  let ext: ExtensionSession;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ext = await launchExtension({ locale });
  });
  afterAll(async () => {
    await ext?.close();
  });

  /** `count` in its plural form, the number formatted by the page's own Intl. */
  const plural = async (page: Page, base: string, count: number): Promise<string> =>
    say(
      `${base}_${new Intl.PluralRules(lang).select(count)}`,
      await page.evaluate((n) => new Intl.NumberFormat(document.documentElement.lang).format(n), count),
    );

  const expectClean = async (page: Page, where: string) => expect((await runAxe(page)).violations, where).toEqual([]);

  /** Room left and right of the text of `selector`'s first element within its ancestor `within`. */
  const sides = (page: Page, selector: string, within: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el, within) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const r = range.getBoundingClientRect();
        const box = el.closest(within)!.getBoundingClientRect();
        return { left: r.left - box.left, right: box.right - r.right };
      }, within);

  /** Presses Refresh until the balance history (agreed reads only) is `points`. */
  const readUntil = (popup: Page, points: string[]) =>
    expect
      .poll(
        async () => {
          await popup
            .getByRole('button', {
              name: say('namedAction', say('popupRefresh'), say('pointsAndRewards')),
              exact: true,
            })
            .click();
          const samples = (await stored<Array<{ points: number; tentative?: true }>>(ext, 'balance:history')) ?? [];
          return samples.filter((s) => !s.tentative).map((s) => String(s.points));
        },
        { interval: 1_500 },
      )
      .toEqual(points);

  test('connect → popup → redeem by the translated labels; lang, dir and axe on both pages', async () => {
    const options = await ext.openPage('options.html');
    await options.setViewportSize({ width: 900, height: 1200 });
    expect(await options.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      lang,
      rtl ? 'rtl' : 'ltr',
    ]);
    await connectBy(options, say, ext.sandbox);
    await options.locator('.history-row').first().waitFor();
    await options.getByLabel(FIRST_NAME).waitFor();
    await expectClean(options, `${locale} options, connected`);
    await options.screenshot({ path: `${SHOTS}/${locale}-options.png`, fullPage: true });
    // The page's heading starts at the right edge in Arabic; the panel's English question keeps
    // its own direction there: its question mark at its right end, not before "What".
    const heading = await sides(options, 'h1', 'main');
    expect(rtl ? heading.right < heading.left : heading.left < heading.right).toBe(true);
    const mark = await options.locator(`label[for]:text-is("${FIRST_NAME}")`).evaluate((label) => {
      const text = label.firstChild!;
      const whole = document.createRange();
      whole.selectNodeContents(text);
      const last = document.createRange();
      last.setStart(text, text.textContent!.length - 1);
      last.setEnd(text, text.textContent!.length);
      return { mark: last.getBoundingClientRect().right, text: whole.getBoundingClientRect().right };
    });
    expect(mark.mark).toBeCloseTo(mark.text, 0);
    await options.close();

    const popup = await ext.openPage('popup.html');
    await popup.setViewportSize({ width: 380, height: 600 });
    expect(await popup.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      lang,
      rtl ? 'rtl' : 'ltr',
    ]);
    await expect
      .poll(() => popup.locator('.hdr-balance').textContent())
      .toBe(await plural(popup, 'balancePoints', 2500));
    await popup.getByRole('heading', { name: say('rewardsHeading') }).waitFor();
    // The panel's name starts the header row: at the right edge in Arabic, the left one in Japanese.
    const name = await sides(popup, '.hdr-name', 'body');
    expect(rtl ? name.right < name.left : name.left < name.right).toBe(true);
    await expectClean(popup, `${locale} popup, loaded`);
    await popup.screenshot({ path: `${SHOTS}/${locale}-popup.png` });

    // A balance enters the history once a second read agrees: the chart below
    // needs the one before the redemption as well as the one after it.
    await readUntil(popup, ['2500']);
    await popup
      .getByRole('button', { name: say('redeemReward', COFFEE), exact: true })
      .first()
      .click();
    const dialog = popup.getByRole('alertdialog', { name: say('confirmTitle') });
    await dialog.waitFor();
    await expectClean(popup, `${locale} popup, confirmation`);
    await dialog.getByRole('button', { name: say('confirmRedeeming', COFFEE), exact: true }).click();
    const outcome = popup.getByRole('region', { name: say('outcomeDone', COFFEE) });
    await outcome.waitFor();
    await expect.poll(() => outcome.textContent()).toContain(await plural(popup, 'balanceNow', 2000));
    await expect
      .poll(() => popup.locator('.hdr-balance').textContent())
      .toBe(await plural(popup, 'balancePoints', 2000));
    await expectClean(popup, `${locale} popup, redeemed`);
    await popup.screenshot({ path: `${SHOTS}/${locale}-popup-redeemed.png` });
    // Exactly once: the seed's nine redemptions and this one.
    expect(ext.sandbox.state.redemptions).toHaveLength(10);
    expect(ext.sandbox.state.redemptions.at(-1)?.reward.name).toBe(COFFEE);

    // The redeemed balance enters the history once a second read agrees: Refresh reads it again.
    await readUntil(popup, ['2500', '2000']);

    // The balance changed, and a sample three days old gives the chart more than a day to draw
    // (before that it says one line): in Arabic mirrored, today on the left, where its x axis says
    // so; in Japanese as drawn.
    await (
      await ext.worker()
    ).evaluate(
      async (at) => {
        const { 'balance:history': samples } = await chrome.storage.local.get('balance:history');
        await chrome.storage.local.set({ 'balance:history': [{ at, points: 2500 }, ...(samples as unknown[])] });
      },
      Date.now() - 3 * 86_400_000,
    );
    const later = await ext.openPage('options.html');
    const chart = later.locator('svg.balance-chart');
    await chart.waitFor();
    expect(await chart.evaluate((svg) => getComputedStyle(svg).transform)).toBe(
      rtl ? 'matrix(-1, 0, 0, 1, 0, 0)' : 'none',
    );
    const today = await sides(later, `.chart-x span:text-is("${say('chartToday')}")`, '.chart-x');
    expect(rtl ? today.left < today.right : today.right < today.left).toBe(true);
    await later.locator('figure.chart').screenshot({ path: `${SHOTS}/${locale}-options-chart.png` });
  });
});
