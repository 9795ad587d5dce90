/**
 * Chromium with the bench build loaded, launched as tests/e2e/harness.ts does (same flags,
 * headless, a throwaway profile), plus the page-side probe (probe.ts) in every page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/config';
import { closeWelcome } from '../e2e/welcome-tab';
import { CHROMIUM_PATH, SETTLE_MS } from './config';
import { NAME_SHIM, installProbe } from './probe';

export type ExtensionPath = 'popup.html' | 'options.html' | 'blank.html' | 'floor.html';

export interface Bench {
  context: BrowserContext;
  extensionId: string;
  /** The minimal extension's id (tests/bench/minimal), loaded beside ours for the wake-up figures. */
  minimalId: string;
  browserVersion: string;
  worker(): Promise<Worker>;
  /** Opens a new tab at an extension page; returns once the navigation commits (the probe is in). */
  open(path: ExtensionPath, viewport: { width: number; height: number }): Promise<Page>;
  /**
   * Navigates the benchmark's reusable tab to an extension page (a new document each time, like
   * each popup opening; timings start at that navigation). The page before it is first left for
   * about:blank and given SETTLE_MS to wind down, so no load pays for the one before it (see SETTLE_MS).
   * `before` gets the tab before it navigates (to listen to it from the start).
   */
  load(path: ExtensionPath, viewport: { width: number; height: number }, before?: (page: Page) => void): Promise<Page>;
  /** Runs `fn(arg)` inside the service worker (chrome.* available there). */
  inWorker<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

/** Whether extension `id`'s service worker is running, by the browser's own list of targets. */
export async function workerRunning(context: BrowserContext, id: string): Promise<boolean> {
  const session = await context.browser()!.newBrowserCDPSession();
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    return targetInfos.some((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${id}/`));
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/**
 * Starts extension `id`'s worker as the popup's first message does: a page of the extension sends it
 * one (our background answers getSession; the minimal one answers anything, from its own page).
 */
export async function wakeWorker(context: BrowserContext, id: string, path = 'blank.html'): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(`chrome-extension://${id}/${path}`);
    await page.evaluate(() => chrome.runtime.sendMessage({ id: 1, type: 'getSession', timestamp: 0 }));
  } finally {
    await page.close();
  }
}

/** Leaves the page for about:blank, then waits SETTLE_MS: its teardown and unfinished work end before the next load. */
export async function windDown(tab: Page): Promise<void> {
  if (tab.url() === 'about:blank') return;
  await tab.goto('about:blank', { waitUntil: 'commit' });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

/**
 * `minimalDir`: the minimal extension loaded beside ours (without it, `minimalId` is empty);
 * `probe: false` leaves the pages without the bench's probe (the yardstick, yardstick.ts).
 */
export async function launchBench(
  extensionDir: string,
  minimalDir?: string,
  options: { probe?: boolean } = {},
): Promise<Bench> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'panel-bench-'));
  const dirs = minimalDir ? `${extensionDir},${minimalDir}` : extensionDir;
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${dirs}`, `--load-extension=${dirs}`],
  });
  if (options.probe !== false) await installProbe(context);
  // Every extension's worker starts at install; each is told apart by its manifest's name.
  const expected = minimalDir ? 2 : 1;
  const ids = new Map<string, string>();
  while (ids.size < expected) {
    // Armed before the list is read: a worker announced while the list is being read is not missed.
    const next = context.waitForEvent('serviceworker');
    // Unawaited once every worker is found, where its time-out is no failure.
    next.catch(() => undefined);
    for (const w of context.serviceWorkers()) {
      const host = new URL(w.url()).host;
      if (!ids.has(host)) ids.set(host, await w.evaluate(() => chrome.runtime.getManifest().name));
    }
    if (ids.size < expected) await next;
  }
  const minimalId = [...ids].find(([, name]) => name === 'Bench minimal worker')?.[0] ?? '';
  const extensionId = [...ids.keys()].find((id) => id !== minimalId)!;
  const first = context.serviceWorkers().find((w) => w.url().includes(extensionId))!;
  // The install's welcome tab would load beside every page measured: closed first (welcome-tab.ts).
  await closeWelcome(context, extensionId);
  const browserVersion = context.browser()?.version() ?? (await first.evaluate(() => navigator.userAgent));

  const ours = (w: Worker) => w.url().startsWith(`chrome-extension://${extensionId}/`);
  // Playwright still lists a worker that was stopped (the heap and wake-up figures stop it; Chrome
  // stops it when idle), and evaluating in it waits until something starts it again: the browser's
  // own target list says whether it runs, and a stopped one is started as the popup starts it.
  const worker = async (): Promise<Worker> => {
    if (!(await workerRunning(context, extensionId))) await wakeWorker(context, extensionId);
    // A restarted worker keeps its Worker object; a new one is announced.
    return (
      context.serviceWorkers().filter(ours).at(-1) ??
      context.waitForEvent('serviceworker', { predicate: ours, timeout: 30_000 })
    );
  };

  const shimmed = new WeakSet<Worker>();
  let tab: Page | undefined;
  const url = (path: ExtensionPath) => `chrome-extension://${extensionId}/${path}`;

  return {
    context,
    extensionId,
    minimalId,
    browserVersion,
    worker,
    async open(path, viewport) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await page.goto(url(path), { waitUntil: 'commit' });
      return page;
    },
    async load(path, viewport, before) {
      if (!tab || tab.isClosed()) tab = await context.newPage();
      else await windDown(tab);
      await tab.setViewportSize(viewport);
      before?.(tab);
      await tab.goto(url(path), { waitUntil: 'commit' });
      return tab;
    },
    async inWorker(fn, arg) {
      const live = await worker();
      if (!shimmed.has(live)) await live.evaluate(NAME_SHIM);
      shimmed.add(live);
      return live.evaluate(fn as never, arg) as never;
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
