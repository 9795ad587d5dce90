/**
 * A panelist with only a phone, in Firefox ESR (headless, WebDriver BiDi) with `identity` absent as
 * on Firefox for Android (no-identity-build.ts), at 412×915, every action a tap (BiDi touch pointer
 * actions): the tab sign-in is chosen, then Redeem → Confirm and Answer now → Save & next.
 *
 * Firefox over BiDi has no device emulation: `emulation.setTouchOverride` is not there in this
 * Firefox, so the pages would report a fine pointer that can hover. Firefox's own pointer
 * preferences make the only pointer a coarse one without hover, as Firefox for Android reports;
 * the viewport is set on each page. Desktop Firefox keeps its classic scrollbar, which takes its
 * width from the page: "fills the width" is measured against the page's client width.
 */
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { OAUTH_PATHS, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { seedBalanceHistory } from './balance-samples';
import { E2E_SANDBOX_PORT } from './config';
import { byLabel, fillField, launchFirefox, waitForTexts, type FirefoxSession } from './firefox-harness';
import { goalPaceIn, historyReadIn } from './goal-pace';
import { noIdentityBuild } from './no-identity-build';
import { measureTargets, rewardRowEdges, rowsInView, targetFailures } from './phone-targets';
import { popupSettledIn } from './popup-ready';

const PHONE = { width: 412, height: 915 };
const COFFEE = 'Bluefin Coffee $5 Gift Card';
/** Firefox's pointer capability bits (LookAndFeel): 1 coarse, 2 fine, 4 hover. */
const COARSE_ONLY = 1;

let sandbox: Sandbox;
let ff: FirefoxSession;
let popup: Page;

beforeAll(async () => {
  const extensionDir = noIdentityBuild('firefox');
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  ff = await launchFirefox({
    extensionDir,
    prefs: { 'ui.primaryPointerCapabilities': COARSE_ONLY, 'ui.allPointerCapabilities': COARSE_ONLY },
  });
}, 240_000);

afterAll(async () => {
  await ff?.close();
  await sandbox?.close();
});

async function tap(page: Page, selector: string): Promise<void> {
  const handle = (await page.waitForSelector(selector)) as ElementHandle<Element>;
  await handle.tap();
}

test('first run at phone size: a touch screen as Firefox for Android reports it, no identity API, and Sign in offered', async () => {
  popup = await ff.openPage('popup.html');
  await popup.setViewport(PHONE);
  const seen = await popup.evaluate(() => ({
    touchOnly: matchMedia('(hover: none) and (pointer: coarse)').matches,
    identity: typeof (globalThis as unknown as { browser: { identity?: unknown } }).browser.identity,
    width: innerWidth,
  }));
  expect(seen).toEqual({ touchOnly: true, identity: 'undefined', width: PHONE.width });
  await popup.waitForSelector(byLabel('Sign in', 'button'));
  expect(targetFailures(await popup.evaluate(measureTargets))).toEqual([]);
});

test('Sign in by taps goes through a tab; the extension reads the panel’s page, closes the tab, and the popup shows the balance', async () => {
  // The app's own Sign in, not its first frame's: a tap while Preact takes the page over may meet a
  // button it replaces, and the held click is then dropped (early-clicks.ts), so no tab opens.
  await popupSettledIn(popup);
  const opened = ff.browser.waitForTarget((t) => t.url().includes(OAUTH_PATHS.authorize));
  await tap(popup, byLabel('Sign in', 'button'));
  const tab = (await (await opened).page())!;
  await fillField(tab, 'E-mail', SANDBOX_EMAIL);
  await fillField(tab, 'Password', SANDBOX_PASSWORD);
  await tap(tab, byLabel('Sign in', 'button'));
  await tap(tab, byLabel('Allow', 'button'));
  await waitForTexts(popup, ['2,500 points']);
  expect(sandbox.requests.some((r) => r.path === OAUTH_PATHS.done)).toBe(true);
  const exchange = new URLSearchParams(String(sandbox.requests.find((r) => r.path === OAUTH_PATHS.token)?.body ?? ''));
  expect(exchange.get('redirect_uri')).toBe(`http://127.0.0.1:${E2E_SANDBOX_PORT}${OAUTH_PATHS.done}`);
  await expect
    .poll(async () => (await ff.browser.pages()).map((p) => p.url()))
    .not.toContainEqual(expect.stringContaining(OAUTH_PATHS.done));
});

test('Redeem → Confirm by taps: the outcome is the redemption the panel made', async () => {
  await popup.close();
  popup = await ff.openPage('popup.html');
  await popup.setViewport(PHONE);
  await waitForTexts(popup, ['2,500 points', COFFEE]);
  const width = await popup.evaluate(() => ({
    client: document.documentElement.clientWidth,
    body: document.body.getBoundingClientRect().width,
    scroll: document.documentElement.scrollWidth,
  }));
  expect(width.client).toBeGreaterThan(PHONE.width - 20);
  expect(width).toEqual({ client: width.client, body: width.client, scroll: width.client });
  expect(targetFailures(await popup.evaluate(measureTargets))).toEqual([]);
  // Taps on the app once its refresh is done: a tap works out its point before it touches, and
  // a render in between (the first frame taken over, rows moved) leaves it on another button.
  await popupSettledIn(popup);
  await tap(popup, byLabel(`Redeem ${COFFEE}`, 'button'));
  await tap(popup, byLabel(`Confirm redeeming ${COFFEE}`, 'button'));
  await waitForTexts(popup, ['Your balance is now 2,000 points.']);
  const coffee = sandbox.state.rewards.find((r) => r.name === COFFEE)!;
  expect(new Set(sandbox.made.map((m) => m.rewardId))).toEqual(new Set([coffee.id]));
  expect(new Set(sandbox.made.map((m) => m.id)).size).toBe(1);
  expect(sandbox.state.balance).toBe(2000);
});

test('Answer now → fill → Save & next by taps saves the answer', async () => {
  // The tab a target="_blank" link opens is out of the driver's reach here (its document never
  // answers over BiDi), so the link's address is checked and opened as the tap would open it; the
  // Chromium run taps it.
  const link = (await popup.waitForSelector(byLabel('Answer now'))) as ElementHandle<HTMLAnchorElement>;
  expect(await link.evaluate((a) => [a.getAttribute('href'), a.target])).toEqual([
    'options.html#answer-POSTAL_CODE',
    '_blank',
  ]);
  const options = await ff.openPage('options.html#answer-POSTAL_CODE');
  await options.setViewport(PHONE);
  await waitForTexts(options, ['Question 1 of']);
  expect(targetFailures(await options.evaluate(measureTargets))).toEqual([]);
  await fillField(options, 'Postal code', '10115');
  await tap(options, byLabel('Save & next', 'button'));
  await waitForTexts(options, ['Question 2 of']);
  expect(sandbox.state.values).toMatchObject({ POSTAL_CODE: '10115' });
});

test('at 360×740 three rewards are in view under a goal, the earn link and open questions', async () => {
  const GOAL = 'Greenleaf Markt 30 € Einkaufsgutschein';
  const phone = await ff.openPage('popup.html');
  await phone.setViewport({ width: 360, height: 740 });
  // Its own refresh done first: a rewards read landing as the samples go in is the worker's turn beside theirs.
  await popupSettledIn(phone);
  // No pace before the history is read (a rise could be a refund): waited for, and named if it fails.
  await historyReadIn(phone);
  const now = Date.now();
  // Weeks of balance changes, so the goal has its pace line, as a panelist's would.
  await phone.evaluate(
    seedBalanceHistory,
    [35, 16, 0.05].map((days, i) => ({ at: Math.round(now - days * 86_400_000), points: [1250, 1810, 2000][i]! })),
  );
  // The samples add the earning line above the rows: tapped before it shows, the rows move under
  // the tap between the point being worked out and the touch. (1,810 − 1,250) + (2,000 − 1,810).
  await waitForTexts(phone, ['750 points earned in the last 30 days']);
  await tap(phone, byLabel(`Set as goal: ${GOAL}`, 'button'));
  await goalPaceIn(phone);
  await phone.waitForSelector(byLabel('Earn more points', 'link'));
  await phone.waitForSelector(byLabel('Answer now', 'link'));
  await phone.evaluate(() => document.documentElement.scrollTo(0, 0));
  const { whole, said } = rowsInView('Firefox, 360×740', await phone.evaluate(rewardRowEdges), 740);
  console.log(said);
  expect(whole).toBeGreaterThanOrEqual(3);
  expect(targetFailures(await phone.evaluate(measureTargets))).toEqual([]);
  await phone.close();
});
