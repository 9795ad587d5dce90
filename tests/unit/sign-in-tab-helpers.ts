/**
 * A stand-in for the browser's tabs in the tests of sign-in in a tab: a tab that the
 * extension opens, that goes where the panelist's browsing takes it (each address announced with
 * tabs.onUpdated, as a browser does when a navigation commits), and that the panelist or the
 * extension closes (tabs.onRemoved). What the panelist does at the authorization server is done
 * over real HTTP against the sandbox (sign-in-helpers.ts).
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';

type Listener = (...args: never[]) => unknown;

function event() {
  const listeners: Listener[] = [];
  return {
    listeners,
    addListener: (l: Listener) => void listeners.push(l),
    removeListener: (l: Listener) => {
      const i = listeners.indexOf(l);
      if (i >= 0) listeners.splice(i, 1);
    },
    hasListener: (l: Listener) => listeners.includes(l),
    fire: (...args: unknown[]) => {
      // A copy: a listener may remove itself while they are called.
      for (const l of listeners.slice()) (l as (...a: unknown[]) => unknown)(...args);
    },
  };
}

export interface FakeTab {
  id: number;
  /** The address the tab is at now. */
  url: string;
  /** The tab goes to `url` (a navigation that commits there). */
  go(url: string): void;
  /** The panelist closes the tab. */
  close(): void;
}

export interface Tabs {
  /** Every address the extension opened a tab at. */
  opened: string[];
  /** Whether each tab was asked for in front (`active`), in the order opened. */
  active: (boolean | undefined)[];
  /** The tabs the extension closed. */
  closedByExtension: number[];
  /** Tabs still open. */
  open: Map<number, FakeTab>;
  /** A tab the extension did not open (another of the panelist's tabs). */
  other(url: string): FakeTab;
  onUpdated: ReturnType<typeof event>;
  onRemoved: ReturnType<typeof event>;
}

export type TabBehaviour = (tab: FakeTab, tabs: Tabs) => void | Promise<void>;

/**
 * Takes `identity` away (Firefox for Android has none; in Chrome the optional permission was not
 * granted) and installs the tabs: `behaviour` runs for each tab the extension opens, once it is open.
 * `create` may be made to refuse, or to answer without a tab id. Returns what was seen; `restore()` puts the fake browser back.
 */
export function installTabs(
  behaviour: TabBehaviour,
  options: { createFails?: boolean; withoutId?: boolean; beforeCreateAnswers?: TabBehaviour } = {},
): Tabs & { restore(): void } {
  const browser = fakeBrowser as unknown as { identity?: unknown; tabs: Record<string, unknown> };
  const saved = { identity: browser.identity, tabs: { ...browser.tabs } };
  browser.identity = undefined;
  let next = 100;
  const onUpdated = event();
  const onRemoved = event();
  const open = new Map<number, FakeTab>();
  const tabs: Tabs = {
    opened: [],
    active: [],
    closedByExtension: [],
    open,
    onUpdated,
    onRemoved,
    other: (url) => makeTab(url),
  };

  function makeTab(url: string): FakeTab {
    const tab: FakeTab = {
      id: next++,
      url,
      go(to) {
        if (!open.has(tab.id)) return;
        tab.url = to;
        onUpdated.fire(tab.id, { status: 'loading', url: to }, { id: tab.id, url: to, status: 'loading' });
      },
      close() {
        if (!open.delete(tab.id)) return;
        onRemoved.fire(tab.id, { windowId: 1, isWindowClosing: false });
      },
    };
    open.set(tab.id, tab);
    return tab;
  }

  browser.tabs.onUpdated = onUpdated;
  browser.tabs.onRemoved = onRemoved;
  browser.tabs.create = async ({ url, active }: { url: string; active?: boolean }) => {
    if (options.createFails) throw new Error('Tabs cannot be opened now');
    tabs.opened.push(url);
    tabs.active.push(active);
    // A tab the browser describes without an id (the API leaves `id` optional) cannot be watched.
    if (options.withoutId) return { url, active: true };
    const tab = makeTab(url);
    await options.beforeCreateAnswers?.(tab, tabs);
    setTimeout(() => void behaviour(tab, tabs), 0);
    return { id: tab.id, url: tab.url, active: true };
  };
  browser.tabs.remove = async (id: number) => {
    tabs.closedByExtension.push(id);
    open.get(id)?.close();
  };
  return {
    ...tabs,
    restore() {
      browser.identity = saved.identity;
      Object.assign(browser.tabs, saved.tabs);
    },
  };
}
