/**
 * The worker's wake-up (issue 19): how long a stopped background takes to answer, against the
 * minimal extension's worker (tests/bench/minimal: a listener per measured event, built the same
 * way), in alternating pairs, SERIES series.
 *  - message: an extension page sends the background its first message (`getSession`, as
 *    @webext-core/messaging sends it) while the worker is stopped; page-side round trip.
 *  - alarm: a one-shot alarm falls due while the worker is stopped; from the alarm's due time to
 *    the worker reported running over the DevTools protocol (its script has run and registered its
 *    listeners, so the alarm's handler starts next). Both extensions' alarms are timed alike, so
 *    Chrome's own delay in firing an alarm is in both.
 * Workers are stopped with ServiceWorker.stopAllWorkers, as tests/e2e/harness.ts does.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { Bench } from './browser';
import { ALARM_RUNS, POPUP_VIEWPORT, RUNS, SERIES, WARMUP } from './config';
import { summarize, type Summary } from './stats';

export interface WakeFigure {
  ours: Summary;
  minimal: Summary;
  ratio: number;
  seriesRatios: number[];
  spread: { min: number; max: number };
}

export interface WakeReport {
  method: string;
  message: WakeFigure;
  alarm: WakeFigure;
}

export const WAKE_METHOD =
  'Both workers are stopped over the DevTools protocol (ServiceWorker.stopAllWorkers) before each run. Message: ' +
  "an extension page of each extension sends its background one message (ours: getSession, in @webext-core/messaging's " +
  'shape); page-side time to the answer. Alarm: a one-shot alarm created 1 s ahead, the workers stopped; time from ' +
  "the alarm's due time to the DevTools protocol reporting the worker running (script run, listeners registered; the " +
  'handler starts next). The minimal worker: one listener per event, built with WXT and the same polyfill module.';

const ALARM = 'bench-wake';
const ALARM_AHEAD_MS = 1_000;

interface Target {
  id: string;
  page: Page;
  /** What the page sends: our background answers getSession; the minimal one answers anything. */
  message: unknown;
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

function figure(ours: number[][], minimal: number[][]): WakeFigure {
  const seriesRatios = ours.map((runs, s) => ratio(summarize(runs).median, summarize(minimal[s]!).median));
  const o = summarize(ours.flat());
  const m = summarize(minimal.flat());
  return {
    ours: o,
    minimal: m,
    ratio: ratio(o.median, m.median),
    seriesRatios,
    spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) },
  };
}

/** Stops every worker and resolves once the DevTools protocol says they are stopped. */
export async function stopWorkers(cdp: CDPSession): Promise<void> {
  const stopped = new Promise<void>((resolve) => {
    const check = (e: { versions: Array<{ runningStatus: string }> }) => {
      if (e.versions.every((v) => v.runningStatus === 'stopped')) {
        cdp.off('ServiceWorker.workerVersionUpdated', check);
        resolve();
      }
    };
    cdp.on('ServiceWorker.workerVersionUpdated', check);
  });
  await cdp.send('ServiceWorker.stopAllWorkers');
  await Promise.race([stopped, new Promise((r) => setTimeout(r, 5_000))]);
}

async function messageRoundTrip(target: Target): Promise<number> {
  return target.page.evaluate(async (message) => {
    const started = performance.now();
    await chrome.runtime.sendMessage(message);
    return performance.now() - started;
  }, target.message);
}

/** Alarm due → worker running, ms. */
async function alarmWake(cdp: CDPSession, target: Target): Promise<number> {
  const due = await target.page.evaluate(
    async ({ name, ahead }) => {
      const when = Date.now() + ahead;
      await chrome.alarms.create(name, { when });
      return when;
    },
    { name: ALARM, ahead: ALARM_AHEAD_MS },
  );
  await stopWorkers(cdp);
  const scope = `chrome-extension://${target.id}/`;
  const running = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${scope}: the alarm did not wake the worker`)), 30_000);
    const seen = (e: { versions: Array<{ scriptURL: string; runningStatus: string }> }) => {
      if (!e.versions.some((v) => v.scriptURL.startsWith(scope) && v.runningStatus === 'running')) return;
      clearTimeout(timer);
      cdp.off('ServiceWorker.workerVersionUpdated', seen);
      resolve(Date.now());
    };
    cdp.on('ServiceWorker.workerVersionUpdated', seen);
  });
  return running - due;
}

export async function measureWake(bench: Bench, log: (line: string) => void = () => {}): Promise<WakeReport> {
  // A page outside the extensions holds the DevTools session: an extension page could wake a worker.
  const holder = await bench.context.newPage();
  const cdp = await bench.context.newCDPSession(holder);
  await cdp.send('ServiceWorker.enable');
  const open = async (id: string, path: string) => {
    const page = await bench.context.newPage();
    await page.setViewportSize(POPUP_VIEWPORT);
    await page.goto(`chrome-extension://${id}/${path}`);
    return page;
  };
  const ours: Target = {
    id: bench.extensionId,
    page: await open(bench.extensionId, 'blank.html'),
    message: { id: 1, type: 'getSession', timestamp: 0 },
  };
  const minimal: Target = {
    id: bench.minimalId,
    page: await open(bench.minimalId, 'page.html'),
    message: { type: 'ping' },
  };
  try {
    const pairs = async (runs: number, run: (t: Target) => Promise<number>) => {
      const a: number[][] = [];
      const b: number[][] = [];
      for (let s = 0; s < SERIES; s += 1) {
        a.push([]);
        b.push([]);
        for (let i = -WARMUP; i < runs; i += 1) {
          const oursFirst = (i + WARMUP) % 2 === 0;
          const first = await run(oursFirst ? ours : minimal);
          const second = await run(oursFirst ? minimal : ours);
          if (i >= 0) {
            a[s]!.push(oursFirst ? first : second);
            b[s]!.push(oursFirst ? second : first);
          }
        }
      }
      return figure(a, b);
    };
    const message = await pairs(RUNS, async (t) => {
      await stopWorkers(cdp);
      return messageRoundTrip(t);
    });
    log(`worker wake-up by a message: ${message.ours.median} ms against ${message.minimal.median} ms`);
    const alarm = await pairs(ALARM_RUNS, (t) => alarmWake(cdp, t));
    log(`worker wake-up by an alarm: ${alarm.ours.median} ms against ${alarm.minimal.median} ms`);
    // Awake again for what follows: the benchmark edits storage from inside our worker.
    await messageRoundTrip(ours);
    return { method: WAKE_METHOD, message, alarm };
  } finally {
    await cdp.detach().catch(() => undefined);
    await Promise.all([holder, ours.page, minimal.page].map((p) => p.close()));
  }
}
