/**
 * Sign-in in Firefox ESR against a real OpenID provider at its defaults (panva's oidc-provider:
 * ../sandbox/openid-provider.ts), the whole story of openid-story.ts: through a tab with `identity`
 * absent, as on Firefox for Android, and through the browser's sign-in window. Firefox's own origin
 * is `moz-extension://<a UUID random per installation>`, which no provider can be told in advance:
 * the story holds that the provider never sees it.
 */
import type { Page } from 'puppeteer-core';
import { afterEach, beforeAll, test } from 'vitest';
import { OAUTH_PATHS } from '../sandbox/oauth';
import { startOpenIdProvider, type OpenIdProvider } from '../sandbox/openid-provider';
import { startSandbox } from '../sandbox/server';
import { firefoxRedirectUrl } from '../../utils/build/operator/extension-ids';
import { E2E_SANDBOX_PORT } from './config';
import { byLabel, fillField, launchFirefox, waitForTexts, type FirefoxSession } from './firefox-harness';
import { OPENID_PORT, openIdBuild } from './openid-build';
import { signInStory, type Driver } from './openid-story';

const builds: Record<'tab' | 'window', string> = { tab: '', window: '' };
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  builds.window = await openIdBuild('firefox', true);
  builds.tab = await openIdBuild('firefox', false);
}, 300_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function firefox(ff: FirefoxSession, op: OpenIdProvider): Driver<Page> {
  let reader: Promise<Page> | null = null;
  return {
    options: () => ff.openPage('options.html'),
    popup: () => ff.openPage('popup.html'),
    // In front first: a tab in the background gets no animation frames, for which a click waits.
    press: async (page, name) => {
      await page.bringToFront();
      await page.locator(byLabel(name, 'button')).click();
    },
    fill: (page, label, value) => fillField(page, label, value),
    waitForText: (page, text) => waitForTexts(page, [text]),
    waitFor: async (page, name) => void (await page.locator(byLabel(name, 'button')).wait()),
    async openSignIn(page) {
      const opened = ff.browser.waitForTarget((t) => t.url().startsWith(`${op.issuer}/`));
      await page.locator(byLabel('Sign in to Panel Rewards', 'button')).click();
      const signIn = await (await opened).page();
      if (!signIn) throw new Error('The sign-in window or tab has no page');
      return signIn;
    },
    async stored<T>(key: string) {
      reader ??= ff.openPage('options.html');
      return (await reader).evaluate(
        async (k) =>
          (
            await (globalThis as unknown as typeof globalThis & { browser: typeof chrome }).browser.storage.local.get(k)
          )[k],
        key,
      ) as Promise<T | undefined>;
    },
    close: (page) => page.close(),
  };
}

for (const door of ['tab', 'window'] as const) {
  test(`Firefox ESR, ${door === 'tab' ? 'a tab (no identity, as on Android)' : 'the sign-in window'}: sign in, renew with rotation, redeem, sign out at the provider, the password asked again, a denial, a revoked grant`, async () => {
    const sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
    cleanups.push(() => sandbox.close());
    const ff = await launchFirefox({ extensionDir: builds[door] });
    cleanups.push(() => ff.close());
    const redirectUri =
      door === 'tab' ? `http://127.0.0.1:${E2E_SANDBOX_PORT}${OAUTH_PATHS.done}` : firefoxRedirectUrl(ff.geckoId);
    const op = await startOpenIdProvider({ port: OPENID_PORT, redirectUris: [redirectUri], sandbox });
    cleanups.push(() => op.close());
    await signInStory(firefox(ff, op), op, sandbox, redirectUri);
  }, 240_000);
}
