/**
 * A second, independent reading of the balance against the floor, beside the bench's own
 * (timing.ts), reported until the two agree. What it shares with the bench is only the state the
 * pages see (connected, the cache made fresh before each round), the rounds its loads run in (the
 * bench's own: timing.ts, measureWarm) and the way loads follow each other (a tab wound down between
 * loads). What it does not share is the probe: a second
 * Chromium with a copy of the bench's Chrome build in which `.hdr-balance` carries
 * `elementtiming="balance"` as it is made (floor.html's markup; the popup's header view as the
 * first-frame script renders it; blank.html's line has its own), and nothing else in the page: no init script, no observer, no report. After each
 * load has fired its load event and SETTLE_MS more have passed, one evaluation reads the buffered
 * Element Timing entries: the first painted `.hdr-balance`, at the popup's size (380×600).
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBench, type Bench, type ExtensionPath } from './browser';
import { BENCH_EXTENSION_DIR, BENCH_OUT_DIR, POPUP_VIEWPORT, SETTLE_MS } from './config';
import { byPredecessor } from './rounds';
import { connectThroughOptions } from './state';
import { summarize, type Summary } from './stats';

export const YARDSTICK_DIR = `${BENCH_OUT_DIR}/yardstick/chrome-mv3`;

export interface YardstickRatio {
  ratio: number;
  seriesRatios: number[];
  spread: { min: number; max: number };
}

export interface YardstickReport {
  method: string;
  series: number;
  blank: Summary;
  floor: Summary;
  popup: Summary;
  popupToFloor: YardstickRatio;
  popupToBlank: YardstickRatio;
  /** Loads in which the awaited entry never came (left out of the figures, not guessed). */
  missing: number;
  afterPage: Record<string, Record<string, Summary>>;
}

export const YARDSTICK_METHOD =
  'Element Timing of the first painted .hdr-balance (the attribute in the markup of a copy of the build), nothing ' +
  'else in the page; read once per load after its load event and a settle; a Chromium of its own, its blank page, ' +
  "floor and popup loaded in the bench's own rounds at 380×600.";

/**
 * The copy of the bench's Chrome build with the Element Timing attribute where `.hdr-balance` is
 * made: in floor.html's markup, and among the props of the header view's element in the
 * first-frame script (minified: `class:\`hdr-balance\``), which sets it as it creates the element.
 */
export function prepareYardstickBuild(): string {
  rmSync(YARDSTICK_DIR, { recursive: true, force: true });
  cpSync(BENCH_EXTENSION_DIR, YARDSTICK_DIR, { recursive: true });
  const tags: Array<[string, RegExp, string]> = [
    ['floor.html', /class="hdr-balance"/g, 'class="hdr-balance" elementtiming="balance"'],
    ['first-frame.js', /class:(["'`])hdr-balance\1/g, 'class:$1hdr-balance$1,elementtiming:$1balance$1'],
  ];
  for (const [page, find, tag] of tags) {
    const file = join(YARDSTICK_DIR, page);
    const code = readFileSync(file, 'utf8');
    const tagged = code.replace(find, tag);
    if (tagged === code) throw new Error(`${file}: no .hdr-balance to tag`);
    writeFileSync(file, tagged);
  }
  return resolve(YARDSTICK_DIR);
}

const IDS: Record<string, string> = { 'blank.html': 'blank', 'floor.html': 'balance', 'popup.html': 'balance' };

/** The first render time of each Element Timing identifier painted so far. */
function readEntries(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((done) => {
        const first: Record<string, number> = {};
        const observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Array<PerformanceEntry & { identifier: string; renderTime: number }>)
            first[e.identifier] ??= e.renderTime || e.startTime;
          observer.disconnect();
          done(first);
        });
        observer.observe({ type: 'element', buffered: true });
        setTimeout(() => done(first), 500);
      }),
  );
}

/** One load of a yardstick page: its awaited entry's render time, ms from navigation (null: none came). */
export async function yardstickLoad(bench: Bench, path: ExtensionPath): Promise<number | null> {
  const page = await bench.load(path, POPUP_VIEWPORT);
  await page.waitForLoadState('load');
  for (let attempt = 0; attempt < 10; attempt += 1) {
    await page.waitForTimeout(SETTLE_MS);
    const seen = (await readEntries(page))[IDS[path]!];
    if (seen !== undefined) return seen;
  }
  return null;
}

/** The yardstick's own Chromium (no probe), connected to the sandbox as the bench's is. */
export async function launchYardstick(sandbox: { url: string; token: string }): Promise<Bench> {
  const bench = await launchBench(prepareYardstickBuild(), undefined, { probe: false });
  try {
    await connectThroughOptions(bench, sandbox.url, sandbox.token);
  } catch (error) {
    await bench.close();
    throw error;
  }
  return bench;
}

/**
 * The yardstick's figures from its loads (per page — blank, floor, popup — per series) and the order
 * they ran in, as timing.ts's rounds give them: the yardstick's pages load in the bench's own rounds,
 * beside the bench's, so drift on a noisy machine hits both readings alike.
 */
export function yardstickReport(
  byPage: Array<Array<Array<number | null>>>,
  sequence: Array<{ page: number; measured: boolean; result: number | null }>,
): YardstickReport {
  const got = (list: Array<number | null>) => list.filter((v): v is number => v !== null);
  const med = (list: Array<number | null>) => summarize(got(list)).median;
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  const against = (num: Array<Array<number | null>>, den: Array<Array<number | null>>): YardstickRatio => {
    const seriesRatios = num.map((runs, s) => ratio(med(runs), med(den[s]!)));
    return {
      ratio: ratio(med(num.flat()), med(den.flat())),
      seriesRatios,
      spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) },
    };
  };
  const [blank, floor, popup] = byPage as [
    Array<Array<number | null>>,
    Array<Array<number | null>>,
    Array<Array<number | null>>,
  ];
  return {
    method: YARDSTICK_METHOD,
    series: blank.length,
    blank: summarize(got(blank.flat())),
    floor: summarize(got(floor.flat())),
    popup: summarize(got(popup.flat())),
    popupToFloor: against(popup, floor),
    popupToBlank: against(popup, blank),
    missing: byPage.flat(2).filter((v) => v === null).length,
    afterPage: byPredecessor(sequence, ['blank', 'floor', 'popup'], (_, v) => v),
  };
}
