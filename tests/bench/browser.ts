/**
 * Chromium with the bench build loaded, launched as tests/e2e/harness.ts does (same flags,
 * headless, a throwaway profile), plus the page-side probe (probe.ts) in every page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/config';
import { CHROMIUM_PATH } from './config';
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
   * each popup opening; timings start at that navigation, so the tab's reuse costs nothing measured).
   * `before` gets the tab before it navigates (to listen to it from the start).
   */
  load(path: ExtensionPath, viewport: { width: number; height: number }, before?: (page: Page) => void): Promise<Page>;
  /** Runs `fn(arg)` inside the service worker (chrome.* available there). */
  inWorker<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

export async function launchBench(extensionDir: string, minimalDir: string): Promise<Bench> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'panel-bench-'));
  const dirs = `${extensionDir},${minimalDir}`;
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${dirs}`, `--load-extension=${dirs}`],
  });
  await installProbe(context);
  // Both extensions' workers start at install; each is told apart by its manifest's name.
  const ids = new Map<string, string>();
  while (ids.size < 2) {
    for (const w of context.serviceWorkers()) {
      const host = new URL(w.url()).host;
      if (!ids.has(host)) ids.set(host, await w.evaluate(() => chrome.runtime.getManifest().name));
    }
    if (ids.size < 2) await context.waitForEvent('serviceworker');
  }
  const minimalId = [...ids].find(([, name]) => name === 'Bench minimal worker')![0];
  const extensionId = [...ids.keys()].find((id) => id !== minimalId)!;
  const first = context.serviceWorkers().find((w) => w.url().includes(extensionId))!;
  const browserVersion = context.browser()?.version() ?? (await first.evaluate(() => navigator.userAgent));

  const worker = async (): Promise<Worker> =>
    context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${extensionId}/`)) ??
    context.waitForEvent('serviceworker');

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
