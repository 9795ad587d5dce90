type Runtime = Pick<typeof chrome.runtime, 'openOptionsPage'>;
const native = globalThis as { browser?: { runtime?: Runtime }; chrome?: { runtime?: Runtime } };

/**
 * Connecting and settings live on the options page; the popup only links there. Through the
 * browser's own API (both answer with a promise, Firefox as `browser`, Chrome's MV3 `chrome`
 * alike), not the webextension polyfill: the header's Options button is in the first frame, whose
 * script holds no polyfill and loads nothing later.
 */
export function openOptions(): void {
  void (native.browser?.runtime ?? native.chrome?.runtime)?.openOptionsPage().catch(() => undefined);
}
