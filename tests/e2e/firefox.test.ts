/**
 * The Firefox build in Debian's firefox-esr: installed as a temporary add-on, connected
 * through its options page, the popup shows balance and rewards, and a redemption goes through
 * exactly once; another API origin is granted through optional_permissions. The popup is opened as
 * a tab: WebDriver BiDi has no way to click the toolbar button.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'puppeteer-core';
import type Browser from 'webextension-polyfill';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { byLabel, fillField, launchFirefox, waitForTexts, type FirefoxSession } from './firefox-harness';

const REDEEM_PATH = '/v1/panel/redemption';
const COFFEE = 'Bluefin Coffee $5 Gift Card'; // 500 points; the seed balance is 2,500

let sandbox: Sandbox;
let ff: FirefoxSession;
let popup: Page;

beforeAll(async () => {
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  ff = await launchFirefox();
  const { launchMs, installMs } = ff.timings;
  console.log(`firefox-esr: launched in ${Math.round(launchMs)} ms, add-on installed in ${Math.round(installMs)} ms`);
});

afterAll(async () => {
  await ff?.close();
  await sandbox?.close();
});

/** Firefox's own `browser` inside an extension page (the global is typed as Chrome's here). */
type InPage = { browser: Browser.Browser };

/** Opens "Advanced", where the options page keeps the build's panel address, unless it is open. */
async function showAddress(page: Page): Promise<void> {
  await page.waitForSelector('details.advanced > summary');
  if (!(await page.$eval('details.advanced', (d) => d.open))) await page.click('details.advanced > summary');
}

/** What the toolbar badge says; MV2 has browserAction where MV3 has action. */
const badgeText = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as InPage).browser.browserAction.getBadgeText({}));

test('the add-on has its fixed UUID, and the build-time API origin was granted at install', async () => {
  const options = await ff.openPage('options.html');
  const seen = await options.evaluate(async () => {
    const { browser } = globalThis as unknown as InPage;
    return {
      url: browser.runtime.getURL('/'),
      permissions: await browser.permissions.getAll(),
      background: browser.runtime.getManifest().background,
    };
  });
  expect(seen.url).toBe(`${ff.origin}/`);
  // MV2 lists host permissions in `permissions`, which Firefox grants at install; nothing optional
  // is granted until asked for.
  expect(seen.permissions.origins).toEqual(['http://127.0.0.1/*']);
  expect(seen.permissions.permissions?.toSorted()).toEqual(['alarms', 'idle', 'storage']);
  expect(seen.background).toMatchObject({ persistent: false });
  await options.close();
});

test('a panelist connects on the options page and sees the balance and every reward in the popup', async () => {
  const options = await ff.openPage('options.html');
  await showAddress(options);
  await fillField(options, 'Panel address', sandbox.url);
  await fillField(options, 'Personal key', sandbox.token);
  await options.locator(byLabel('Connect', 'button')).click();
  await options.locator(byLabel('Disconnect', 'button')).wait();
  await options.close();

  popup = await ff.openPage('popup.html');
  // One row a brand: the two PayWave transfers share one.
  const brands = sandbox.state.rewards.filter((r) => !r.name.startsWith('PayWave ')).map((r) => r.name);
  await waitForTexts(popup, ['2,500 points', ...brands, 'PayWave Transfer']);
  await expect.poll(() => badgeText(popup)).toBe('2.5k');
});

test('a redemption goes through exactly once and the new balance shows', async () => {
  await popup.locator(byLabel(`Redeem ${COFFEE}`, 'button')).click();
  await popup.locator(byLabel(`Confirm redeeming ${COFFEE}`, 'button')).click();
  await waitForTexts(popup, [`Redeemed ${COFFEE}`, 'Your balance is now 2,000 points.']);
  // The header follows the worker's balance read, not the card's render: awaited, not read once.
  await expect.poll(() => popup.$eval('.hdr-balance', (el) => el.textContent)).toBe('2,000 points');

  const redeems = sandbox.requests.filter((r) => r.path === REDEEM_PATH && r.method !== 'OPTIONS');
  expect(redeems).toHaveLength(1);
  expect(sandbox.state.balance).toBe(2000);
  expect(sandbox.state.redemptions.at(-1)?.reward.name).toBe(COFFEE);
  await expect.poll(() => badgeText(popup)).toBe('2k');
});

test('the popup says how many profile questions are open; "Answer now" answers them one at a time', async () => {
  // The seed leaves two open: the postal code, then the education.
  // Each part of the line on its own: the "·" between them is drawn apart (Joined.tsx), so the
  // visible text breaks there.
  await waitForTexts(popup, ['2 profile questions open', 'Answer now']);
  const href = await popup.$eval('header a[href^="options.html#answer"]', (a) => a.getAttribute('href')!);
  expect(href).toBe('options.html#answer-POSTAL_CODE');
  // BiDi cannot follow a link into a new tab of an extension page: the same address is opened as one.
  const options = await ff.openPage(href as `options.html#${string}`);
  await waitForTexts(options, ['Question 1 of 2']);
  await options.waitForFunction(
    () => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent === 'Postal code',
  );
  await options.keyboard.type('10115');
  await options.keyboard.press('Enter');
  await waitForTexts(options, ['Question 2 of 2', 'Saved your answer to “Postal code”.']);
  await options.locator(byLabel('Skip: What is the highest level of education you have completed?', 'button')).click();
  await waitForTexts(options, ['Thank you!', 'You answered 1 question. 1 skipped question is still open.']);
  expect(sandbox.state.values.POSTAL_CODE).toBe('10115');
  await options.locator(byLabel('Back to your profile', 'button')).click();
  await waitForTexts(options, ['5 of 6 answered']);
  await waitForTexts(popup, ['1 profile question open', 'Answer now']);
  await options.close();
});

test('an API origin the build does not name is asked for on Connect (optional_permissions) and then used', async () => {
  const options = await ff.openPage('options.html');
  await options.locator(byLabel('Disconnect', 'button')).click();
  await options.locator(byLabel('Yes, disconnect', 'button')).click();
  // Same sandbox, another origin: http://localhost is one of the manifest's optional permissions.
  const viaLocalhost = sandbox.url.replace('127.0.0.1', 'localhost');
  await showAddress(options);
  await fillField(options, 'Panel address', viaLocalhost);
  await fillField(options, 'Personal key', sandbox.token);
  const before = sandbox.requests.length;
  await options.locator(byLabel('Connect', 'button')).click();
  await options.locator(byLabel('Disconnect', 'button')).wait();
  const origins = await options.evaluate(
    async () => (await (globalThis as unknown as InPage).browser.permissions.getAll()).origins,
  );
  expect(origins?.toSorted()).toEqual(['http://127.0.0.1/*', 'http://localhost/*']);
  expect(sandbox.requests.length).toBeGreaterThan(before);
  await options.close();
});

test('turning notifications on grants the optional permission, and a redemption moved to complete is told once', async () => {
  const options = await ff.openPage('options.html');
  await options.locator(byLabel('Notify me of changes')).click();
  await waitForTexts(options, ['Your choice was saved.', 'Notify me when']);
  const granted = await options.evaluate(
    async () => (await (globalThis as unknown as InPage).browser.permissions.getAll()).permissions,
  );
  expect(granted?.toSorted()).toEqual(['alarms', 'idle', 'notifications', 'storage']);

  // PayWave $10 Transfer (5009) is pending in the seed; the background's refresh alarm reads it.
  const pending = sandbox.state.redemptions.find((r) => r.id === 5009)!;
  // Its notification is named by its whole key: id, reward and created_at (as the history stores it).
  const PAYWAVE_COMPLETE = 'redemption:5009 109 2025-02-11T19:03:37Z:complete';
  Object.assign(pending, { approved: true, processed: true });
  const refresh = () =>
    options.evaluate(() => (globalThis as unknown as InPage).browser.alarms.create('refresh', { when: Date.now() }));
  // Headless Firefox has no alert service: notifications.getAll() stays empty even for one a page
  // creates itself, so what the background told (recorded before it shows one) is read instead.
  const told = () =>
    options.evaluate(async () => {
      const stored = await (globalThis as unknown as InPage).browser.storage.local.get('notify:state');
      return (stored['notify:state'] as { told: string[] } | undefined)?.told ?? [];
    });
  await refresh();
  await expect.poll(told).toEqual([PAYWAVE_COMPLETE]);
  const reads = () => sandbox.requests.filter((r) => r.path === '/v1/panel/redemptions' && r.method === 'GET').length;
  const before = reads();
  await refresh();
  await expect.poll(reads).toBeGreaterThan(before);
  expect(await told()).toEqual([PAYWAVE_COMPLETE]);
  await options.close();
});
