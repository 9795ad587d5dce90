/**
 * The popup and the options page on a phone, in Chromium with mobile and touch emulation: at
 * 360×740 and 412×915 the popup fills the width, nothing crosses the right edge, the actions a
 * panelist comes for (Redeem, Confirm, Sign in, Answer now) are at least 44×44 CSS px and every
 * other control at least 24×24 (WCAG 2.5.8), and no :hover rule reveals anything. Prints the
 * smallest targets of each screen.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { launchExtension, type ExtensionSession } from './harness';
import { seedBalanceHistory } from './balance-samples';
import { measureTargets, PHONE_SIZES, rewardRowEdges, rowsInView, smallest, targetFailures } from './phone-targets';
import { setLedger } from './control';
import { actionFaults } from './row-actions';
import { separatorFaults } from './separators';
import { signInBuild } from './sign-in-build';
import { catalogueOf, sayIn, type Say } from './words';
import { popupSettled } from './popup-ready';

let extensionDir: string;
const COFFEE = 'Bluefin Coffee $5 Gift Card';
const GOAL = 'Greenleaf Markt 30 € Einkaufsgutschein'; // 3,300 points: 800 to go from the seed's 2,500
const DAY_MS = 86_400_000;
const sessions: ExtensionSession[] = [];
const table: Array<Record<string, string | number>> = [];

beforeAll(() => {
  // The sign-in build: its first run offers "Sign in", one of the primary actions.
  extensionDir = signInBuild('chrome');
}, 240_000);

afterAll(() => {
  console.table(table);
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

async function check(page: Page, where: string): Promise<void> {
  const measured = await page.evaluate(measureTargets);
  table.push(...smallest(where, measured, 3));
  expect(measured.targets.length, `${where}: no controls found`).toBeGreaterThan(0);
  expect.soft(targetFailures(measured), where).toEqual([]);
}

/** Connects with the personal key, behind its own link in a build that offers sign-in. */
async function connectWithKey(ext: ExtensionSession, say: Say = sayIn(catalogueOf('en'))): Promise<void> {
  const page = await ext.openPage('options.html#personal-key');
  const address = page.getByLabel(say('apiBaseUrl'));
  await page.getByLabel(say('accessToken')).waitFor();
  if (!(await address.isVisible())) await page.getByText(say('connectAdvanced'), { exact: true }).tap();
  await address.fill(ext.sandbox.url);
  await page.getByLabel(say('accessToken')).fill(ext.sandbox.token);
  await page.getByRole('button', { name: say('connect'), exact: true }).tap();
  await page.getByRole('button', { name: say('disconnect') }).waitFor();
  await page.close();
}

for (const size of PHONE_SIZES) {
  test(`at ${size.width}×${size.height}: the popup fills the width and every target is large enough, connected or not; so is the options page`, async () => {
    const ext = await launchExtension({ extensionDir, phone: size });
    sessions.push(ext);
    const at = `${size.width}`;

    const firstRun = await ext.openPage('popup.html');
    // The emulation holds: what a phone's browser reports, and what the layout is keyed on.
    expect(
      await firstRun.evaluate(() => [
        matchMedia('(hover: none) and (pointer: coarse)').matches,
        navigator.maxTouchPoints > 0,
      ]),
    ).toEqual([true, true]);
    await firstRun.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // The popup is the whole screen on a phone, not a 380 px column in it.
    expect(await firstRun.evaluate(() => document.body.getBoundingClientRect().width)).toBe(size.width);
    await check(firstRun, `${at} popup, first run`);
    await firstRun.close();

    const signIn = await ext.openPage('options.html');
    await signIn.getByRole('button', { name: 'Sign in to Panel Rewards', exact: true }).waitFor();
    await check(signIn, `${at} options, not connected`);
    await signIn.close();

    await connectWithKey(ext);
    const popup = await ext.openPage('popup.html');
    await popup.locator('.reward').first().waitFor();
    await popup.getByRole('link', { name: 'Answer now' }).waitFor();
    await popup.getByRole('region', { name: 'Latest redemption' }).waitFor();
    await popupSettled(popup);
    expect(await popup.evaluate(() => document.body.getBoundingClientRect().width)).toBe(size.width);
    await check(popup, `${at} popup, rewards`);
    await popup
      .getByRole('button', { name: /^Redeem / })
      .first()
      .tap();
    await popup
      .getByRole('alertdialog')
      .getByRole('button', { name: /^Confirm/ })
      .waitFor();
    await check(popup, `${at} popup, confirm`);
    await popup.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).tap();
    await popup.close();

    // Every Redeem is a full-size target, not only the brand-coloured ones: "Redeem again" after
    // a redemption the history never showed.
    await setLedger(ext, COFFEE, 'not_found');
    const notFound = await ext.openPage('popup.html');
    await notFound.getByRole('button', { name: `Redeem again: ${COFFEE}` }).waitFor();
    await check(notFound, `${at} popup, not found: redeem again`);
    await notFound.close();
    await setLedger(ext, COFFEE, null);

    const options = await ext.openPage('options.html');
    await options.locator('.history-row').first().waitFor();
    await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await check(options, `${at} options, connected`);
    await options.close();

    const answering = await ext.openPage('options.html#answer');
    await answering.getByRole('button', { name: 'Save & next' }).waitFor();
    await check(answering, `${at} options, answering`);
    await answering.close();
  });
}

/**
 * How many rewards a phone shows under the fullest header a panelist meets: a goal with its name,
 * figures and pace, the operator's "Earn more points", open profile questions and the freshness
 * line; at least three, whole, in English, the longer German and Polish, whose kind labels take a
 * line of their own. In each, every row's Redeem beside its goal toggle at the row's end
 * (row-actions.ts), and no "·" starting or ending a line (separators.ts).
 */
for (const locale of ['en', 'de', 'pl']) {
  test(`${locale}: at 360×740 the rewards under the fullest header, each Redeem in its place, no “·” starting or ending a line`, async () => {
    const say = sayIn(catalogueOf(locale));
    const ext = await launchExtension({ extensionDir, locale, phone: { width: 360, height: 740 } });
    sessions.push(ext);
    await connectWithKey(ext, say);
    const now = Date.now();
    await (
      await ext.worker()
    ).evaluate(
      seedBalanceHistory,
      [35, 24, 16, 8, 0.05].map((days, i) => ({
        at: Math.round(now - days * DAY_MS),
        points: [1250, 1190, 1810, 2120, 2500][i]!,
      })),
    );
    const setUp = await ext.openPage('popup.html');
    await setUp.getByRole('button', { name: say('setGoal', GOAL), exact: true }).tap();
    await setUp.getByRole('button', { name: say('isGoal', GOAL), exact: true, pressed: true }).waitFor();
    await setUp.close();

    const popup = await ext.openPage('popup.html');
    await popup.getByRole('link', { name: say('earnMorePoints') }).waitFor();
    await popup.getByRole('link', { name: say('answerNow') }).waitFor();
    await popup.locator('.goal .goal-name').waitFor();
    await popup.locator('.goal .goal-pace').waitFor();
    await popup.locator('.reward').nth(2).waitFor();
    await popupSettled(popup);
    const { whole, said } = rowsInView(`${locale}, 360×740`, await popup.evaluate(rewardRowEdges), 740);
    console.log(said);
    await popup.screenshot({ path: `.output/e2e-phone-header-${locale}-360x740.png` });
    expect(whole, locale).toBeGreaterThanOrEqual(3);
    expect(await popup.evaluate(actionFaults), locale).toEqual([]);

    const dangling = await popup.evaluate(separatorFaults);
    expect(dangling, locale).toEqual([]);
  });
}
