/**
 * Sign-in in a tab in Chromium, with the optional `identity` permission taken out of
 * the manifest (no-identity-build.ts), as when a panelist does not grant it: the authorization
 * request opens in a tab, comes back to the panel's own page, and the extension reads it there,
 * closes the tab and stores the checked session.
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { OAUTH_PATHS, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { E2E_SANDBOX_PORT } from './config';
import { stored } from './control';
import { launchExtension, type ExtensionSession } from './harness';
import { noIdentityBuild } from './no-identity-build';

let extensionDir: string;
const sessions: ExtensionSession[] = [];
const DONE = `http://127.0.0.1:${E2E_SANDBOX_PORT}${OAUTH_PATHS.done}`;

beforeAll(() => {
  extensionDir = noIdentityBuild('chrome');
}, 240_000);

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
});

/** The tab the extension opened at the authorization server (a new tab's first address is about:blank). */
async function signInTab(ext: ExtensionSession): Promise<Page> {
  await expect.poll(() => ext.context.pages().some((p) => p.url().includes(OAUTH_PATHS.authorize))).toBe(true);
  return ext.context.pages().find((p) => p.url().includes(OAUTH_PATHS.authorize))!;
}

async function start(): Promise<ExtensionSession> {
  const ext = await launchExtension({ extensionDir });
  sessions.push(ext);
  return ext;
}

test('without identity the sign-in opens in a tab, comes back to the panel’s page, and the tab is closed', async () => {
  const ext = await start();
  expect(
    await (
      await ext.worker()
    ).evaluate(() => typeof (globalThis as { chrome: { identity?: unknown } }).chrome.identity),
  ).toBe('undefined');
  const options = await ext.openPage('options.html');
  await options.getByRole('button', { name: 'Sign in to Panel Rewards', exact: true }).click();
  const tab = await signInTab(ext);
  expect(new URL(tab.url()).searchParams.get('redirect_uri')).toBe(DONE);
  await tab.getByLabel('E-mail').fill(SANDBOX_EMAIL);
  await tab.getByLabel('Password').fill(SANDBOX_PASSWORD);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  const closed = tab.waitForEvent('close');
  await tab.getByRole('button', { name: 'Allow' }).click();
  await closed;

  await options.getByRole('button', { name: 'Disconnect' }).waitFor();
  expect(await stored<{ signedIn?: boolean }>(ext, 'session')).toMatchObject({ connected: true, signedIn: true });
  expect(ext.context.pages().map((p) => p.url())).not.toContainEqual(expect.stringContaining(OAUTH_PATHS.done));
  const popup = await ext.openPage('popup.html');
  await expect.poll(() => popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
});

test('a closed sign-in tab is explained and nothing is stored', async () => {
  const ext = await start();
  const options = await ext.openPage('options.html');
  await options.getByRole('button', { name: 'Sign in to Panel Rewards', exact: true }).click();
  await (await signInTab(ext)).close();
  await options.getByText('The sign-in tab was closed before you finished').waitFor();
  expect(await stored(ext, 'credentials')).toBeFalsy();
});
