import { browser } from 'wxt/browser';

const NOTIFICATIONS = { permissions: ['notifications' as const] };

/**
 * Asks for the optional `notifications` permission. Must run inside the click's task: browsers
 * only show the prompt on a user gesture. False when refused or when the browser cannot ask.
 */
export function requestNotifications(): Promise<boolean> {
  try {
    return browser.permissions.request(NOTIFICATIONS).catch(() => false);
  } catch {
    return Promise.resolve(false);
  }
}

/** Gives the permission back when the panelist turns notifications off: least privilege. */
export function releaseNotifications(): Promise<void> {
  try {
    return browser.permissions.remove(NOTIFICATIONS).then(
      () => undefined,
      () => undefined,
    );
  } catch {
    return Promise.resolve();
  }
}
