/**
 * Connecting and settings live on the options page; the popup only links there. `wxt/browser`
 * is the webextension polyfill in this build (about 3 KiB gzip), so it is fetched on click
 * rather than in the popup's first chunk.
 */
export function openOptions(): void {
  void import('./options-page').then((m) => m.openOptionsPage());
}
