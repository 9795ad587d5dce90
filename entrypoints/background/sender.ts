import { browser } from 'wxt/browser';

interface Sender {
  id?: string;
  url?: string;
}

/**
 * Only this extension's own pages may talk to the background: a message relayed from a web page
 * or sent by another extension carries another id or a URL outside the extension's origin.
 */
export function isOwnPage(sender: Sender | undefined): boolean {
  if (!sender || sender.id !== browser.runtime.id || typeof sender.url !== 'string') return false;
  return sender.url.startsWith(browser.runtime.getURL('/'));
}
