/**
 * The install's welcome in real browsers: a new install opens the options page at its welcome
 * once, with the way in under it; a browser restart and an update open none (Chromium reports an
 * unpacked build loaded from its command line as installed again at every start: the welcome
 * still opens once; a raised version is an update). Firefox ESR, where a temporary add-on is
 * installed and then updated by installing it again. The rule itself: tests/unit/background-welcome.test.ts.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { axeViolations } from './axe';
import { E2E_EXTENSION_DIR } from './config';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { byLabel, E2E_FIREFOX_DIR, launchFirefox, type FirefoxSession } from './firefox-harness';
import { launchExtension, type ExtensionSession } from './harness';
import { firefoxWelcomes, WELCOME_PAGE, welcomeTab } from './welcome-tab';

const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The extension's welcome tabs open now. */
const welcomes = (ext: ExtensionSession) =>
  ext.context.pages().filter((p) => p.url() === `chrome-extension://${ext.extensionId}${WELCOME_PAGE}`);

/**
 * After a start: the worker is up and has answered (the popup's prompt is painted and the worker
 * reads storage), so its `onInstalled` has run; a tab it opened would be listed by now. A short
 * settle on top, for the tab's own creation.
 */
async function settled(ext: ExtensionSession): Promise<void> {
  const popup = await ext.context.newPage();
  await popup.goto(`chrome-extension://${ext.extensionId}/popup.html`);
  await popup.getByRole('heading', { name: 'Welcome' }).waitFor();
  await (await ext.worker()).evaluate(() => chrome.storage.local.get('welcomed'));
  await popup.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
}

describe('Chromium', () => {
  test('a new install opens the welcome once, the way in under it; a restart and an update open none', async () => {
    // A copy of the build, so its version can be raised for the update.
    const extensionDir = await mkdtemp(join(tmpdir(), 'panel-e2e-welcome-'));
    closing.push(() => rm(extensionDir, { recursive: true, force: true }));
    await cp(E2E_EXTENSION_DIR, extensionDir, { recursive: true });
    const ext = await launchExtension({ extensionDir, keepWelcome: true });
    const { userDataDir, sandbox } = ext;
    closing.push(async () => {
      await sandbox.close();
      await rm(userDataDir, { recursive: true, force: true });
    });
    const welcome: Page = await welcomeTab(ext.context, `chrome-extension://${ext.extensionId}`);
    const heading = welcome.getByRole('heading', { name: 'Welcome', level: 2 });
    await heading.waitFor();
    // Read first: focus is on the welcome, the way in right under it.
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await welcome.locator('.welcome').innerText()).toContain(
      'Panel Rewards is installed. Connect your account below to see your points and redeem rewards from the toolbar.',
    );
    await welcome.getByLabel('Personal key').waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await welcome.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(welcome), scheme).toEqual([]);
    }
    expect(welcomes(ext)).toHaveLength(1);
    await ext.close({ keepProfile: true });

    // The browser starts again with the same profile (and reports the build installed again).
    const again = await launchExtension({ extensionDir, userDataDir, sandbox });
    await settled(again);
    expect(welcomes(again)).toEqual([]);
    await again.close({ keepProfile: true });

    // A new version: the browser updates the extension at its next start.
    const manifestPath = join(extensionDir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { version: string };
    await writeFile(manifestPath, JSON.stringify({ ...manifest, version: `${manifest.version}.1` }));
    const updated = await launchExtension({ extensionDir, userDataDir, sandbox });
    expect(await (await updated.worker()).evaluate(() => chrome.runtime.getManifest().version)).toBe(
      `${manifest.version}.1`,
    );
    await settled(updated);
    expect(welcomes(updated)).toEqual([]);
    await updated.close({ keepProfile: true });
  });
});

describe('Firefox ESR', () => {
  let ff: FirefoxSession;
  afterAll(async () => ff?.close());

  const welcomesNow = () => firefoxWelcomes(ff.browser, ff.origin);

  test('installing opens the welcome once; installing the same add-on again (an update) opens none', async () => {
    ff = await launchFirefox({ keepWelcome: true });
    await expect.poll(async () => (await welcomesNow()).length).toBe(1);
    const [welcome] = await welcomesNow();
    await welcome!.waitForSelector(byLabel('Welcome', 'heading'));
    await welcome!.close();
    await ff.browser.installExtension(resolve(E2E_FIREFOX_DIR));
    // The reinstalled add-on's worker has run its onInstalled once its page answers.
    const popup = await ff.openPage('popup.html');
    await popup.waitForSelector(byLabel('Welcome', 'heading'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await welcomesNow()).toEqual([]);
  });
});
