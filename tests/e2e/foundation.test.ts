import { afterAll, beforeAll, expect, test } from 'vitest';
import { EXTENSION_PAGES_CSP } from '../../utils/content-policy';
import { launchExtension, type ExtensionSession } from './harness';

let ext: ExtensionSession;
beforeAll(async () => {
  ext = await launchExtension();
});
afterAll(async () => {
  await ext?.close();
});

test('a panelist connects on the options page and sees the seeded balance and rewards in the popup', async () => {
  await ext.connect();
  const popup = await ext.openPage('popup.html');
  await expect.poll(() => popup.getByText('2,500').first().isVisible()).toBe(true);
  // One row a brand: the seed's two PayWave transfers are one, their values a choice.
  const names = [
    ...ext.sandbox.state.rewards.filter((r) => !r.name.startsWith('PayWave ')).map((r) => r.name),
    'PayWave Transfer',
  ];
  for (const name of names) {
    await expect.poll(() => popup.getByText(name, { exact: true }).first().isVisible()).toBe(true);
  }
});

test('the service worker keeps the token to itself: no page-visible storage item holds it', async () => {
  const sw = await ext.worker();
  const everything = await sw.evaluate(() => chrome.storage.local.get(null));
  const pageVisible = Object.entries(everything).filter(([key]) => key !== 'credentials');
  expect(JSON.stringify(pageVisible)).not.toContain(ext.sandbox.token);
});

test('the release manifest asks only for storage, alarms, idle and the configured API origin', async () => {
  const sw = await ext.worker();
  const manifest = await sw.evaluate(() => chrome.runtime.getManifest());
  expect(manifest.permissions).toEqual(['storage', 'alarms', 'idle']);
  // No port: Firefox refuses one in a match pattern, and Chrome reads none as any port.
  expect(manifest.host_permissions).toEqual(['http://127.0.0.1/*']);
  // A build made for one panel asks for no other public origin, and without sign-in for no `identity`.
  expect(manifest.optional_host_permissions).toEqual(['http://localhost/*', 'http://127.0.0.1/*']);
  expect(manifest.optional_permissions).toEqual(['notifications']);
  expect(manifest).not.toHaveProperty('content_scripts');
  expect(manifest).not.toHaveProperty('externally_connectable');
  expect(manifest.content_security_policy).toEqual({ extension_pages: EXTENSION_PAGES_CSP });
});
