/**
 * Sign-in against an independent strict authorization server (oidc-provider, ../sandbox/strict-oauth.ts),
 * not only the sandbox's own: in Chromium through the browser's sign-in window (identity) and through
 * a tab (no identity), and in Firefox ESR through a tab with `identity` absent, as on Android. The
 * panel API is the sandbox, which accepts the strict server's tokens once issued there. Then a
 * renewal: the access token is refused, and the extension renews it with the rotated refresh token.
 */
import type { Page } from 'playwright-core';
import type { Page as FirefoxPage } from 'puppeteer-core';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { OAUTH_PATHS, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { startStrictOAuth, STRICT_PATHS, type StrictOAuth } from '../sandbox/strict-oauth';
import { chromeRedirectUrl } from '../../utils/build/operator/extension-ids';
import { E2E_SANDBOX_PORT } from './config';
import { byLabel, fillField, launchFirefox, waitForTexts } from './firefox-harness';
import { launchExtension } from './harness';
import { STRICT_PORT, strictBuild } from './strict-build';

const TAB_REDIRECT = `http://127.0.0.1:${E2E_SANDBOX_PORT}${OAUTH_PATHS.done}`;
const builds: Record<string, string> = {};
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(() => {
  builds['chrome'] = strictBuild('chrome', true);
  builds['chrome-no-identity'] = strictBuild('chrome', false);
  builds['firefox-no-identity'] = strictBuild('firefox', false);
}, 300_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function servers(
  redirectUris: string[],
  origin: string,
  sandbox?: Sandbox,
): Promise<{ sandbox: Sandbox; strict: StrictOAuth }> {
  const sb = sandbox ?? (await startSandbox({ port: E2E_SANDBOX_PORT }));
  if (!sandbox) cleanups.push(() => sb.close());
  const strict = await startStrictOAuth({ port: STRICT_PORT, redirectUris, origins: [origin], sandbox: sb });
  cleanups.push(() => strict.close());
  return { sandbox: sb, strict };
}

/** The exchange was the real one: one code, sent back with its redirect_uri and PKCE verifier, answered with tokens. */
function expectCodeExchange(strict: StrictOAuth, redirectUri: string): void {
  expect(strict.exchanges).toEqual([{ grantType: 'authorization_code', redirectUri, verifier: true, ok: true }]);
}

async function signInChromium(page: Page): Promise<void> {
  await page.getByLabel('E-mail').fill(SANDBOX_EMAIL);
  await page.getByLabel('Password').fill(SANDBOX_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
}

for (const identity of [true, false]) {
  test(`Chromium, ${identity ? 'the sign-in window (identity)' : 'a tab (no identity)'}: signs in at the strict server, and a refused access token is renewed with the rotated refresh token`, async () => {
    const extensionDir = builds[identity ? 'chrome' : 'chrome-no-identity']!;
    const sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
    cleanups.push(() => sandbox.close());
    const ext = await launchExtension({ extensionDir, sandbox });
    cleanups.push(() => ext.close());
    const redirectUri = identity ? chromeRedirectUrl(ext.extensionId) : TAB_REDIRECT;
    const { strict } = await servers([redirectUri], `chrome-extension://${ext.extensionId}`, sandbox);

    const options = await ext.openPage('options.html');
    const opened = ext.context.waitForEvent('page', (p) => p.url().startsWith(`${strict.issuer}/`));
    await options.getByRole('button', { name: 'Sign in to Panel Rewards', exact: true }).click();
    const window = await opened;
    await signInChromium(window);
    await options.getByRole('button', { name: 'Disconnect' }).waitFor();
    expectCodeExchange(strict, redirectUri);

    // The panel stops accepting the access token (as when it expired): the popup's next read is
    // refused, and the extension renews the token at the strict server and reads again.
    sandbox.otherKeys.clear();
    const popup = await ext.openPage('popup.html');
    await popup.locator('.reward').first().waitFor();
    await popup.waitForFunction(() => !document.querySelector('main[aria-busy="true"]'));
    await popup.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => strict.exchanges.length).toBe(2);
    await popup.waitForFunction(() => !document.querySelector('main[aria-busy="true"]'));
    expect(await popup.locator('.hdr-balance').textContent()).toBe('2,500 points');
    expect(sandbox.otherKeys.size).toBe(1);
    expect(strict.exchanges.map((e) => [e.grantType, e.ok])).toEqual([
      ['authorization_code', true],
      ['refresh_token', true],
    ]);
  });
}

test('Firefox ESR without identity, as on Android: the tab sign-in passes at the strict server', async () => {
  const extensionDir = builds['firefox-no-identity']!;
  const ff = await launchFirefox({ extensionDir });
  cleanups.push(() => ff.close());
  const { sandbox, strict } = await servers([TAB_REDIRECT], ff.origin);
  const options = await ff.openPage('options.html');
  const opened = ff.browser.waitForTarget(
    (t) => t.url().includes(STRICT_PATHS.authorize) || t.url().includes('/interaction/'),
  );
  await options.locator(byLabel('Sign in to Panel Rewards', 'button')).click();
  const tab = (await (await opened).page()) as FirefoxPage;
  await fillField(tab, 'E-mail', SANDBOX_EMAIL);
  await fillField(tab, 'Password', SANDBOX_PASSWORD);
  await tab.locator(byLabel('Sign in', 'button')).click();
  await tab.locator(byLabel('Allow', 'button')).click();
  await options.locator(byLabel('Disconnect', 'button')).wait();
  expectCodeExchange(strict, TAB_REDIRECT);
  expect(sandbox.requests.some((r) => r.path === OAUTH_PATHS.done)).toBe(true);
  const popup = await ff.openPage('popup.html');
  await waitForTexts(popup, ['2,500 points']);
});
