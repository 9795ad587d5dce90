/**
 * Sign-in in Chromium, through the browser's sign-in window, against a real OpenID provider at its
 * defaults (panva's oidc-provider: ../sandbox/openid-provider.ts), the whole story of
 * openid-story.ts. The panel API is the sandbox, which takes the provider's access tokens while the
 * provider holds them.
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, test } from 'vitest';
import { startOpenIdProvider, type OpenIdProvider } from '../sandbox/openid-provider';
import { startSandbox } from '../sandbox/server';
import { chromeRedirectUrl } from '../../utils/build/operator/extension-ids';
import { E2E_SANDBOX_PORT } from './config';
import { stored } from './control';
import { launchExtension, type ExtensionSession } from './harness';
import { OPENID_PORT, openIdBuild } from './openid-build';
import { signInStory, type Driver } from './openid-story';

let extensionDir = '';
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  extensionDir = await openIdBuild('chrome', true);
}, 300_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function chromium(ext: ExtensionSession, op: OpenIdProvider): Driver<Page> {
  return {
    options: () => ext.openPage('options.html'),
    popup: () => ext.openPage('popup.html'),
    press: (page, name) => page.getByRole('button', { name, exact: true }).click(),
    fill: (page, label, value) => page.getByLabel(label).fill(value),
    waitForText: (page, text) => page.getByText(text).first().waitFor(),
    waitFor: (page, name) => page.getByRole('button', { name, exact: true }).waitFor(),
    async openSignIn(page) {
      const opened = ext.context.waitForEvent('page', (p) => p.url().startsWith(`${op.issuer}/`));
      await page.getByRole('button', { name: 'Sign in to Panel Rewards', exact: true }).click();
      return opened;
    },
    stored: (key) => stored(ext, key),
    close: (page) => page.close(),
  };
}

test('Chromium, the sign-in window: sign in, renew with rotation, redeem, sign out at the provider, the password asked again, a denial, a revoked grant', async () => {
  const sandbox = await startSandbox({ port: E2E_SANDBOX_PORT });
  cleanups.push(() => sandbox.close());
  const ext = await launchExtension({ extensionDir, sandbox });
  cleanups.push(() => ext.close());
  const redirectUri = chromeRedirectUrl(ext.extensionId);
  const op = await startOpenIdProvider({ port: OPENID_PORT, redirectUris: [redirectUri], sandbox });
  cleanups.push(() => op.close());
  await signInStory(chromium(ext, op), op, sandbox, redirectUri);
}, 180_000);
