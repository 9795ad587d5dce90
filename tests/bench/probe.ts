/**
 * Page-side timing, injected before any of the page's own scripts (Playwright init script, which
 * the extension's CSP does not apply to). All times are performance.now(), i.e. milliseconds since
 * the navigation started. For each awaited state it records:
 *  - dom: when a MutationObserver callback first sees it in the DOM;
 *  - paint: the first task after the next animation frame (the frame that shows it has been produced);
 *  - element: Element Timing's renderTime of the text that shows it; the probe adds the
 *    `elementtiming` attribute when the element appears, before its first paint. This is the same
 *    clock and the same paint machinery as the browser's first-contentful-paint entry.
 */
import type { BrowserContext } from 'playwright-core';

export interface Mark {
  dom: number;
  paint?: number;
  /** Input event's own timestamp, for the click mark. */
  event?: number;
}

export interface ProbeState {
  marks: Record<string, Mark>;
  element: Record<string, number>;
  /** Long tasks (≥ 50 ms) on the page's main thread: [start, duration]. */
  long: Array<[number, number]>;
  /** Layout shifts not caused by input: [start, score]. */
  shifts: Array<[number, number]>;
  fp?: number;
  fcp?: number;
}

declare global {
  interface Window {
    __bench: ProbeState & { watch(name: string, test: () => unknown): void };
  }
}

/** The prefix of the probe's console messages: its marks and Element Timing entries so far. */
export const REPORT = '__bench';

export interface Report {
  /** performance.timeOrigin of the page that sent it. */
  origin: number;
  marks: Record<string, Mark>;
  element: Record<string, number>;
  fp?: number;
  fcp?: number;
}

function probe(REPORT: string): void {
  if (location.protocol !== 'chrome-extension:') return;
  const marks: Record<string, Mark> = {};
  const element: Record<string, number> = {};
  const long: Array<[number, number]> = [];
  const shifts: Array<[number, number]> = [];
  const watchers: Array<{ name: string; test: () => unknown }> = [];
  // What the bench waits for is sent out as it happens (a console message the harness reads), not
  // polled: a poll from the harness evaluates Playwright's injected script in the page, a 20 to 130 ms
  // compile on this machine that landed on the main thread in the middle of the slower page's load.
  const report = () =>
    console.debug(
      `${REPORT} ${JSON.stringify({ origin: performance.timeOrigin, marks, element, fp: state.fp, fcp: state.fcp })}`,
    );
  const check = () => {
    for (let i = watchers.length - 1; i >= 0; i -= 1) {
      const w = watchers[i]!;
      if (!w.test()) continue;
      watchers.splice(i, 1);
      const mark: Mark = { dom: performance.now() };
      marks[w.name] = mark;
      requestAnimationFrame(() =>
        setTimeout(() => {
          mark.paint = performance.now();
          report();
        }, 0),
      );
    }
  };
  // Elements whose first paint Element Timing reports, by identifier; each is tagged once.
  const page = location.pathname;
  const tags: Array<[string, string]> =
    page === '/popup.html'
      ? [
          ['balance', '.hdr-balance'],
          ['reward', '.reward-name'],
          ['prompt', '#connect-title'],
        ]
      : page === '/floor.html'
        ? [['balance', '.hdr-balance']]
        : page === '/options.html'
          ? [
              ['profile', '#profile-writable-heading, .read-only-list dt'],
              ['history', '.history-row .reward-name'],
            ]
          : [];
  // Preact, taking over the first frame's DOM, removes attributes it did not render: a tag
  // it removed goes back on before the next paint, so Element Timing still sees the element painted.
  const tagged = new Map<Element, string>();
  // Chromium reports text against the block that lays it out (its nearest ancestor that is not an
  // inline box), not against the element right around it: the balance's number sits in a <strong>
  // in an inline <span> of the <p>, reported as the <p>; a reward's name in a <button> (an inline
  // block) is reported as the button. Which one that is depends on the CSS, so each element from the
  // match down its chain of only children carries the identifier: the one that lays the text out
  // reports it. (Tagging only the innermost left the balance unreported in every popup load.)
  const chain = (el: Element): Element[] => {
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
    return !ownText && el.children.length === 1 ? [el, ...chain(el.firstElementChild!)] : [el];
  };
  const tag = () => {
    for (let i = tags.length - 1; i >= 0; i -= 1) {
      const match = document.querySelector(tags[i]![1]);
      if (!match) continue;
      for (const el of chain(match)) {
        el.setAttribute('elementtiming', tags[i]![0]);
        tagged.set(el, tags[i]![0]);
      }
      tags.splice(i, 1);
    }
  };
  const retag = () => {
    for (const [el, id] of tagged) {
      if (element[id] !== undefined) tagged.delete(el);
      else if (!el.hasAttribute('elementtiming')) el.setAttribute('elementtiming', id);
    }
  };
  const has = (selector: string) => () => document.querySelector(selector) !== null;
  const all =
    (...tests: Array<() => boolean>) =>
    () =>
      tests.every((t) => t());
  if (page === '/popup.html') watchers.push({ name: 'content', test: all(has('.hdr-balance'), has('.reward-name')) });
  if (page === '/popup.html') watchers.push({ name: 'prompt', test: has('#connect-title') });
  if (page === '/blank.html') watchers.push({ name: 'content', test: has('#bench-blank') });
  // The floor's balance paragraph is there from the start; its text comes from storage.
  if (page === '/floor.html')
    watchers.push({ name: 'content', test: () => !!document.querySelector('.hdr-balance')?.textContent });
  if (page === '/options.html') {
    const profile = has('#profile-writable-heading, .read-only-list');
    const history = has('.history-row');
    watchers.push(
      { name: 'profile', test: profile },
      { name: 'history', test: history },
      { name: 'content', test: all(profile, history) },
    );
  }
  // Once nothing is awaited the callback costs nothing, however large the page grows.
  new MutationObserver(() => {
    if (tags.length) tag();
    if (tagged.size) retag();
    if (watchers.length) check();
  }).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['class', 'hidden', 'elementtiming'],
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<
      PerformanceEntry & { identifier?: string; renderTime?: number; loadTime?: number }
    >) {
      if (entry.identifier) element[entry.identifier] ??= entry.renderTime || entry.loadTime || entry.startTime;
    }
    report();
  }).observe({ type: 'element', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) long.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
      if (!entry.hadRecentInput) shifts.push([entry.startTime, entry.value]);
    }
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('click', (e) => (marks.click = { dom: performance.now(), event: e.timeStamp }), true);
  const state = {
    marks,
    element,
    long,
    shifts,
    watch(name: string, test: () => unknown) {
      watchers.push({ name, test });
      check();
    },
    get fp() {
      return performance.getEntriesByName('first-paint')[0]?.startTime;
    },
    get fcp() {
      return performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
    },
  };
  Object.defineProperty(window, '__bench', { value: state });
}

/**
 * tsx compiles with esbuild's keepNames, which wraps inner functions in `__name(...)`; functions
 * sent to a page or the worker as source text need that helper there too.
 */
export const NAME_SHIM = 'globalThis.__name ??= (fn) => fn;';

export async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: `${NAME_SHIM}\n(${probe.toString()})(${JSON.stringify(REPORT)});` });
}
