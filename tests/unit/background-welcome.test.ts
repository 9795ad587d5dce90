// @vitest-environment node
/**
 * The install's welcome: one tab at the first install, none at an update, the browser's update or
 * its start, nor at a second "install" the browser reports for the same profile (Chromium loading
 * an unpacked build from its command line does at every start). The real browsers:
 * tests/e2e/welcome.test.ts.
 */
import { beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { onInstalledWelcome, WELCOME_PATH } from '../../entrypoints/background/welcome';

beforeEach(() => fakeBrowser.reset());

/** The tabs the extension opened (the fake browser starts with one blank tab). */
const urls = async () => (await fakeBrowser.tabs.query({})).flatMap((tab) => (tab.url ? [tab.url] : []));
const WELCOME = fakeBrowser.runtime.getURL(WELCOME_PATH);

it('an install opens the options page at its welcome, once', async () => {
  await onInstalledWelcome({ reason: 'install' });
  expect(await urls()).toEqual([WELCOME]);
  await onInstalledWelcome({ reason: 'install' });
  expect(await urls()).toEqual([WELCOME]);
});

it('an update, or the browser’s own, opens nothing', async () => {
  await onInstalledWelcome({ reason: 'update', previousVersion: '0.1.0' });
  await onInstalledWelcome({ reason: 'chrome_update' });
  await onInstalledWelcome({ reason: 'shared_module_update', id: 'another-extension' });
  expect(await urls()).toEqual([]);
});

it('two install events at once open one tab: the flag is read and set in one turn', async () => {
  await Promise.all([onInstalledWelcome({ reason: 'install' }), onInstalledWelcome({ reason: 'install' })]);
  expect(await urls()).toEqual([WELCOME]);
});
