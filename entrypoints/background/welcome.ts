import { browser, type Browser } from 'wxt/browser';
import { welcomedItem } from '../../utils/storage-items';
import { put, updateDevice } from './store/store';

/** Where the install's welcome opens: the options page, its welcome and the way in first (components/options/Welcome.tsx). */
export const WELCOME_PATH = '/options.html#welcome';

/**
 * A new install opens the welcome once, in a tab of its own: Chrome hides a new extension under
 * the puzzle piece, and connecting would otherwise be two unannounced clicks away. Only on
 * `install`, and only the first time this profile sees one (`welcomedItem`, set in the same turn as
 * it is read): an update, the browser's own update or its start never opens a tab, nor does a
 * browser that reports every start as an install (Chromium with `--load-extension`, as `npm start`
 * runs it). Storage goes with the extension, so an install after an uninstall is welcomed again.
 */
export async function onInstalledWelcome(details: Browser.runtime.InstalledDetails): Promise<void> {
  if (details.reason !== 'install') return;
  let first = false;
  await updateDevice([welcomedItem], (get) => {
    first = !get(welcomedItem);
    return first ? [put(welcomedItem, true)] : [];
  });
  // A browser that refuses a tab (a kiosk, a policy) leaves the extension as it is: nothing depends on it.
  if (first) await browser.tabs.create({ url: browser.runtime.getURL(WELCOME_PATH) }).catch(() => undefined);
}
