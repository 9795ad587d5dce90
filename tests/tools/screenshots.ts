/**
 * `npm run screenshots`: the README's pictures of the popup and the options page, in the light and
 * the dark colour scheme, taken from the end-to-end build in Chromium against the sandbox:
 * tests/e2e/screenshots/{popup,options}-{light,dark}.png.
 *
 * Uses the browser-test harness; builds the extension the way the browser tests do when that build
 * is missing. The sandbox listens on a free port of its own.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox } from '../sandbox/server';
import { E2E_EXTENSION_DIR } from '../e2e/config';
import buildForBrowserTests from '../e2e/global-setup';
import { launchExtension } from '../e2e/harness';

const OUT = 'tests/e2e/screenshots';
const SCHEMES = ['light', 'dark'] as const;

async function main(): Promise<void> {
  if (!existsSync(join(E2E_EXTENSION_DIR, 'manifest.json'))) {
    console.log(`No build in ${E2E_EXTENSION_DIR}: building it as the browser tests do.`);
    buildForBrowserTests();
  }
  await mkdir(OUT, { recursive: true });
  const sandbox = await startSandbox();
  const ext = await launchExtension({ sandbox });
  try {
    await ext.connect();

    const popup = await ext.openPage('popup.html');
    await popup.setViewportSize({ width: 380, height: 600 });
    await popup.locator('.hdr-balance').waitFor();
    await popup.locator('.reward').first().waitFor();
    // Wait for the popup's own refresh to settle, so no spinner is caught mid-turn.
    await popup.waitForFunction(() => !document.querySelector('main[aria-busy="true"]'));

    const options = await ext.openPage('options.html');
    await options.setViewportSize({ width: 900, height: 1100 });
    await options.locator('.history-row').first().waitFor();
    await options.locator('.save-bar').waitFor();
    await options.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));

    for (const scheme of SCHEMES) {
      for (const [name, page] of [
        ['popup', popup],
        ['options', options],
      ] as const) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        const path = `${OUT}/${name}-${scheme}.png`;
        await page.screenshot({ path, animations: 'disabled' });
        console.log(`wrote ${path}`);
      }
    }
  } finally {
    await ext.close();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
