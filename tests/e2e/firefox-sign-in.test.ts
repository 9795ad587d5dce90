/**
 * Sign-in in Firefox ESR, headless over WebDriver BiDi, with the build that has the
 * OAuth settings: the sign-in window Firefox opens for launchWebAuthFlow is driven by its labels.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Page } from 'puppeteer-core';
import type Browser from 'webextension-polyfill';
import { SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { E2E_SANDBOX_PORT } from './config';
import { byLabel, fillField, launchFirefox, waitForTexts, type FirefoxSession } from './firefox-harness';
import { signInBuild } from './sign-in-build';

let sandbox: Sandbox;
let ff: FirefoxSession;

beforeAll(async () => {
  const extensionDir = signInBuild('firefox');
  sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  ff = await launchFirefox({ extensionDir });
}, 240_000);

afterAll(async () => {
  await ff?.close();
  await sandbox?.close();
});

type InPage = { browser: Browser.Browser };

test('identity is granted at install in a Firefox build with sign-in (it cannot be optional there)', async () => {
  const options = await ff.openPage('options.html');
  const permissions = await options.evaluate(
    async () => (await (globalThis as unknown as InPage).browser.permissions.getAll()).permissions,
  );
  // Header rules for its sign-in requests too (without-origin.ts), which Firefox grants without a prompt.
  expect(permissions?.toSorted()).toEqual([
    'alarms',
    'declarativeNetRequestWithHostAccess',
    'identity',
    'idle',
    'storage',
  ]);
  await options.close();
});

async function signInWindow(): Promise<Page> {
  const target = await ff.browser.waitForTarget((t) => t.url().includes('/oauth/authorize'));
  const page = await target.page();
  if (!page) throw new Error('The sign-in window has no page');
  return page;
}

test('a panelist signs in through the sign-in window and the popup shows the balance', async () => {
  const options = await ff.openPage('options.html');
  const opened = signInWindow();
  await options.locator(byLabel('Sign in to Panel Rewards', 'button')).click();
  const window = await opened;
  await fillField(window, 'E-mail', SANDBOX_EMAIL);
  await fillField(window, 'Password', SANDBOX_PASSWORD);
  await window.locator(byLabel('Sign in', 'button')).click();
  await window.locator(byLabel('Allow', 'button')).click();

  await options.locator(byLabel('Disconnect', 'button')).wait();
  const popup = await ff.openPage('popup.html');
  await waitForTexts(popup, ['2,500 points']);
  expect(sandbox.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(1);
});

test('an access token the server ends mid-use is renewed on Refresh without the panelist noticing', async () => {
  const popup = await ff.openPage('popup.html');
  await waitForTexts(popup, ['2,500 points']);
  await fetch(`${sandbox.url}/__sandbox/oauth/expire`, { method: 'POST' });
  sandbox.state.balance = 3000;
  await popup.locator(byLabel('Refresh: your points and rewards', 'button')).click();
  await waitForTexts(popup, ['3,000 points']);
  expect(sandbox.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(2);
  expect(await popup.$$('[role=alert]')).toHaveLength(0);
  await popup.close();
});

test('closing the sign-in window is explained', async () => {
  const options = await ff.openPage('options.html');
  await options.locator(byLabel('Disconnect', 'button')).click();
  await options.locator(byLabel('Yes, disconnect', 'button')).click();
  // The sign-in was ended at the panel's revocation endpoint too.
  await expect.poll(() => sandbox.oauth.revocations).toEqual(['refresh_token']);
  const opened = signInWindow();
  await options.locator(byLabel('Sign in to Panel Rewards', 'button')).click();
  await (await opened).close();
  await waitForTexts(options, ['The sign-in window was closed before you finished']);
});
