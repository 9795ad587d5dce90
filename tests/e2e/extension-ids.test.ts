/**
 * A known extension id: what `npm run ids` says against what the browsers do with
 * the build. Chromium loads a build made with a `chromeKey` under exactly the id worked out from
 * the key; Firefox ESR's own `identity.getRedirectURL()` gives exactly the redirect URL worked out
 * from the add-on id. The Chrome zip leaves `key` out (the store refuses it), the unpacked build keeps it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import type Browser from 'webextension-polyfill';
import {
  chromeIdFromKey,
  firefoxRedirectUrl,
  newChromeKey,
  type ExtensionIds,
} from '../../utils/build/operator/extension-ids';
import { OAUTH_PATHS, SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { zipFile } from '../tools/zip-read';
import { E2E_SANDBOX_PORT } from './config';
import { launchFirefox } from './firefox-harness';
import { launchExtension } from './harness';

const OUT_DIR = '.output/e2e-ids';
const GECKO_ID = 'rewards@acme-panel.example';
const key = newChromeKey().publicKey;
const url = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PANEL_CONFIG: 'none',
  PANEL_OUT_DIR: OUT_DIR,
  PANEL_API_BASE_URL: url,
  PANEL_CHROME_KEY: key,
  PANEL_GECKO_ID: GECKO_ID,
  // Sign-in settings: Firefox offers identity.getRedirectURL() only with the identity permission.
  PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${url}${OAUTH_PATHS.authorize}`,
  PANEL_OAUTH_TOKEN_ENDPOINT: `${url}${OAUTH_PATHS.token}`,
  PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
};
let ids: ExtensionIds;

beforeAll(() => {
  for (const args of [
    ['wxt', 'zip'],
    ['wxt', 'build', '-b', 'firefox'],
  ])
    execFileSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  ids = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'tests/tools/ids.ts', '--json'], { env, encoding: 'utf8' }),
  ) as ExtensionIds;
}, 180_000);

test('npm run ids gives the id Chromium loads the build under, from the key pinned in its manifest', async () => {
  expect(ids.chrome).toEqual({
    id: chromeIdFromKey(key),
    redirectUrl: `https://${chromeIdFromKey(key)}.chromiumapp.org/`,
  });
  const manifest = JSON.parse(readFileSync(join(OUT_DIR, 'chrome-mv3/manifest.json'), 'utf8')) as { key?: string };
  expect(manifest.key).toBe(key);
  const ext = await launchExtension({ extensionDir: join(OUT_DIR, 'chrome-mv3') });
  try {
    expect(ext.extensionId).toBe(ids.chrome?.id);
    const worker = await ext.worker();
    expect(await worker.evaluate(() => chrome.runtime.id)).toBe(ids.chrome?.id);
  } finally {
    await ext.close();
  }
});

test("the Chrome zip's manifest has no key, which the Chrome Web Store refuses on upload", () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string };
  const zipped = zipFile(join(OUT_DIR, `${pkg.name}-${pkg.version}-chrome.zip`), 'manifest.json');
  const manifest = JSON.parse(zipped?.toString('utf8') ?? '{}') as Record<string, unknown>;
  expect(manifest.name).toBe('Panel Rewards');
  expect(manifest).not.toHaveProperty('key');
});

test("npm run ids gives the redirect URL Firefox ESR's identity.getRedirectURL() gives the add-on", async () => {
  expect(ids.firefox).toEqual({ id: GECKO_ID, redirectUrl: firefoxRedirectUrl(GECKO_ID) });
  const ff = await launchFirefox({ extensionDir: join(OUT_DIR, 'firefox-mv2') });
  try {
    const page = await ff.openPage('options.html');
    const given = await page.evaluate(() =>
      (globalThis as unknown as { browser: Browser.Browser }).browser.identity.getRedirectURL(),
    );
    expect(given).toBe(ids.firefox.redirectUrl);
    expect(given).toMatch(/^https:\/\/[0-9a-f]{40}\.extensions\.allizom\.org\/$/);
  } finally {
    await ff.close();
  }
});
