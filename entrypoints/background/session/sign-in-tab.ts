import { browser } from 'wxt/browser';

/**
 * Sign-in in an ordinary tab, where the browser has no sign-in window: Firefox for
 * Android has no `identity` API at all, and Chrome has none until the panelist grants the optional
 * permission. The authorization request opens in a tab; the server sends the panelist back to an
 * HTTPS address on the panel's own origin that the operator registered (RFC 8252 §7.2, a claimed
 * "https" redirect); the extension, which may read that origin's addresses (its host permission),
 * sees the tab arrive there, takes the address with the answer in its query, and closes the tab.
 * What the address carries is then checked exactly as the sign-in window's answer is (sign-in.ts).
 */

/** How long the tab may stay open before the extension stops waiting (the sandbox's server keeps a sign-in 30 minutes too). */
export const TAB_SIGN_IN_LIMIT_MS = 30 * 60_000;

/**
 * While the tab is open the background is waiting on it, not on an event: Chrome stops a service
 * worker after 30 s without events or API calls, so a cheap call is made more often than that.
 */
export const KEEP_AWAKE_MS = 20_000;

export type TabEnding = 'closed' | 'timeout' | 'not_opened';

export class SignInTabEnded extends Error {
  constructor(readonly ending: TabEnding) {
    super(`The sign-in tab ended without an answer (${ending})`);
    this.name = 'SignInTabEnded';
  }
}

/** The redirect address, whatever answer the server put in its query: the same origin and path. */
export function isRedirect(url: string, redirectUri: string): boolean {
  try {
    const at = new URL(url);
    const back = new URL(redirectUri);
    return at.origin === back.origin && at.pathname === back.pathname;
  } catch {
    return false;
  }
}

/**
 * Opens `url` in a new tab and resolves with the address the tab reaches at `redirectUri` (which it
 * then closes); rejects with SignInTabEnded when the panelist closes the tab, when it stays open
 * past `limitMs`, or when the browser does not open it. Only this tab is watched: another tab at
 * the same address is none of its business.
 */
export function launchTabFlow(url: string, redirectUri: string, limitMs = TAB_SIGN_IN_LIMIT_MS): Promise<string> {
  const tabs = browser.tabs;
  return new Promise<string>((resolve, reject) => {
    let tabId: number | undefined;
    let settled = false;
    // Events that come before tabs.create answers (a server that redirects at once): kept by tab.
    const early = new Map<number, string>();
    const gone = new Set<number>();

    const settle = (end: () => void) => {
      if (settled) return;
      settled = true;
      tabs.onUpdated.removeListener(onUpdated);
      tabs.onRemoved.removeListener(onRemoved);
      clearTimeout(timer);
      clearInterval(awake);
      end();
    };
    const arrived = (id: number, at: string) => {
      if (!isRedirect(at, redirectUri)) return;
      if (tabId === undefined) return void early.set(id, at);
      if (id !== tabId) return;
      settle(() => resolve(at));
      tabs.remove(id).catch(() => undefined);
    };
    const ended = (id: number) => {
      if (tabId === undefined) return void gone.add(id);
      if (id === tabId) settle(() => reject(new SignInTabEnded('closed')));
    };
    function onUpdated(id: number, change: { url?: string }, tab?: { url?: string }) {
      const at = change.url ?? tab?.url;
      if (at) arrived(id, at);
    }
    function onRemoved(id: number) {
      ended(id);
    }

    tabs.onUpdated.addListener(onUpdated);
    tabs.onRemoved.addListener(onRemoved);
    const timer = setTimeout(() => settle(() => reject(new SignInTabEnded('timeout'))), limitMs);
    const awake = setInterval(() => {
      try {
        void browser.runtime.getPlatformInfo().catch(() => undefined);
      } catch {
        // Nothing to keep awake where the call is not there.
      }
    }, KEEP_AWAKE_MS);

    tabs.create({ url, active: true }).then(
      (tab) => {
        if (tab.id === undefined) return settle(() => reject(new SignInTabEnded('not_opened')));
        tabId = tab.id;
        const at = early.get(tab.id);
        if (at) arrived(tab.id, at);
        else if (gone.has(tab.id)) ended(tab.id);
        early.clear();
        gone.clear();
      },
      () => settle(() => reject(new SignInTabEnded('not_opened'))),
    );
  });
}
