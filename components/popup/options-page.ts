import { browser } from 'wxt/browser';

/** Loaded only on demand (see open-options.ts). */
export function openOptionsPage(): Promise<void> {
  return browser.runtime.openOptionsPage();
}
