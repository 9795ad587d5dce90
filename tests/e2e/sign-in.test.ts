/**
 * Sign-in in Chromium, by visible labels: the sign-in window launchWebAuthFlow opens is a
 * page of the browser context, driven like any other; then the popup shows the balance, and an
 * access token that expires during use is renewed without the panelist noticing.
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { OAUTH_PATHS, SANDBOX_CLIENT_ID, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { axeViolations } from './axe';
import { control, injectFault, requestCount, stored } from './control';
import { launchExtension, type ExtensionSession } from './harness';
import { signInBuild } from './sign-in-build';

let extensionDir: string;
const sessions: ExtensionSession[] = [];

beforeAll(() => {
  extensionDir = signInBuild('chrome');
}, 240_000);

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

async function start(): Promise<ExtensionSession> {
  const ext = await launchExtension({ extensionDir });
  sessions.push(ext);
  return ext;
}

/**
 * Presses "Sign in to …" on `page` and returns the sign-in window the browser opened. The popup's
 * button is "Sign in" alone, under the panel's name.
 */
async function openSignInWindow(ext: ExtensionSession, page: Page, name = 'Sign in to Panel Rewards'): Promise<Page> {
  const opened = ext.context.waitForEvent('page', (p) => p.url().includes('/oauth/authorize'));
  await page.getByRole('button', { name, exact: true }).click();
  const window = await opened;
  await window.getByLabel('E-mail').waitFor();
  return window;
}

async function signInThrough(window: Page, password = SANDBOX_PASSWORD): Promise<void> {
  await window.getByLabel('E-mail').fill(SANDBOX_EMAIL);
  await window.getByLabel('Password').fill(password);
  await window.getByRole('button', { name: 'Sign in' }).click();
}

test('a panelist signs in with e-mail and password, allows access, and the popup shows the balance', async () => {
  const ext = await start();
  const options = await ext.openPage('options.html');
  // The token form is still there, one click away.
  await expect.poll(() => options.getByText('Use a personal key instead').count()).toBe(1);

  const window = await openSignInWindow(ext, options);
  // A wrong password is answered by the panel's own page.
  await signInThrough(window, 'not-the-password');
  await window.getByText('Wrong e-mail or password').waitFor();
  await signInThrough(window);
  await window.getByRole('button', { name: 'Allow' }).click();

  await options.getByRole('button', { name: 'Disconnect' }).waitFor();
  const popup = await ext.openPage('popup.html');
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');

  const credentials = await stored<{ refreshToken?: string; token: string }>(ext, 'credentials');
  expect(credentials?.refreshToken).toBeTruthy();
  expect(await stored<{ signedIn?: boolean }>(ext, 'session')).toMatchObject({ connected: true, signedIn: true });

  // Disconnect ends the sign-in at the panel's revocation endpoint too, not only here.
  await options.getByRole('button', { name: 'Disconnect' }).click();
  // A signed-in panelist is told they will be signed out, never about a personal key.
  const prompt = await options.getByRole('group', { name: 'Confirm disconnecting' }).textContent();
  expect(prompt).toContain('You’ll be signed out');
  expect(prompt).not.toMatch(/personal key/i);
  await options.getByRole('button', { name: 'Yes, disconnect' }).click();
  await options
    .getByRole('status')
    .filter({ hasText: /^Disconnected\. You are signed out/ })
    .waitFor();
  // And focus goes on to the way in, Sign in, not to the page.
  await expect.poll(() => options.evaluate(() => document.activeElement?.textContent)).toBe('Sign in to Panel Rewards');
  expect(ext.sandbox.oauth.revocations).toEqual(['refresh_token']);
  expect(await stored(ext, 'credentials')).toBeFalsy();
  const refresh = await fetch(`${ext.sandbox.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: SANDBOX_CLIENT_ID,
      refresh_token: credentials!.refreshToken!,
    }),
  });
  expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
});

test('closing the sign-in window, denying access, an error page, a token the panel refuses or an unreachable panel is explained, and nothing is stored', async () => {
  const ext = await start();
  const options = await ext.openPage('options.html');

  expect(await axeViolations(options)).toEqual([]);
  await (await openSignInWindow(ext, options)).close();
  await options.getByText('The sign-in window was closed before you finished').waitFor();
  expect(await axeViolations(options)).toEqual([]);

  const window = await openSignInWindow(ext, options);
  await signInThrough(window);
  await window.getByRole('button', { name: 'Deny' }).click();
  await options.getByText('Access was not allowed, so nothing was connected.').waitFor();

  // The sign-in page answers an error status (a redirect address the server does not know): Chrome
  // closes the window, and the server that answered is not a connection to check.
  await injectFault(ext, { method: 'GET', path: OAUTH_PATHS.authorize, status: 400, times: 1 });
  await options.getByRole('button', { name: 'Sign in to Panel Rewards' }).click();
  await options.getByText('The panel’s sign-in page at', { exact: false }).waitFor();
  expect(await options.getByText('Check your internet connection', { exact: false }).count()).toBe(0);

  // Signed in at the server, but the panel does not accept the token (another audience, say).
  await injectFault(ext, { path: '/v1/panel/variables/data', status: 401, times: 5 });
  const refused = await openSignInWindow(ext, options);
  await signInThrough(refused);
  await refused.getByRole('button', { name: 'Allow' }).click();
  await options.getByText('You signed in, but Panel Rewards did not accept that sign-in', { exact: false }).waitFor();
  expect(await options.getByText('no longer accepts your personal key', { exact: false }).count()).toBe(0);
  await control(ext, '/faults', 'DELETE');

  // The panel is down.
  await ext.sandbox.close();
  await options.getByRole('button', { name: 'Sign in to Panel Rewards' }).click();
  await options.getByText('Could not reach the panel’s sign-in at').waitFor();

  expect(await stored(ext, 'credentials')).toBeFalsy();
  expect(await stored<{ connected: boolean }>(ext, 'session')).toBeFalsy();
});

test('an access token that expires during use is renewed without the panelist noticing', async () => {
  const ext = await start();
  const popup = await ext.openPage('popup.html');
  // One way in: Sign in, the personal key a small link beside it.
  await popup.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  expect(await popup.getByRole('button', { name: /^(Connect|Sign in)/ }).count()).toBe(1);
  expect(await popup.getByRole('link', { name: 'Use a personal key instead' }).getAttribute('href')).toBe(
    'options.html#personal-key',
  );
  const window = await openSignInWindow(ext, popup, 'Sign in');
  await signInThrough(window);
  await window.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
  const before = await stored<{ token: string }>(ext, 'credentials');

  // The server ends every access token now, and the panelist's balance changes meanwhile.
  await control(ext, '/oauth/expire', 'POST');
  await control(ext, '/state', 'PATCH', { balance: 3000 });
  const tokenRequests = await requestCount(ext, '/oauth/token');
  await popup.getByRole('button', { name: 'Refresh: your points and rewards', exact: true }).click();

  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('3,000 points');
  expect(await requestCount(ext, '/oauth/token')).toBe(tokenRequests + 1);
  expect((await stored<{ token: string }>(ext, 'credentials'))?.token).not.toBe(before?.token);
  expect(await popup.getByRole('alert').count()).toBe(0);
  expect(await stored<{ rejected: boolean }>(ext, 'session')).toMatchObject({ rejected: false });
});
