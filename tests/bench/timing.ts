/**
 * The popup's load against the blank baseline page and the floor page, in the same browser and the
 * same run, loads interleaved round by round so that drift on a noisy machine hits every page alike,
 * each round in another order (through every permutation) so no page always pays for the one before
 * it, and in SERIES series of RUNS rounds, so the spread between series shows how far one series can
 * be off. The headline is the warm popup ÷ the floor, series by series.
 *  - not connected: the popup before any token is stored (its prompt to connect);
 *  - warm: cache younger than FRESH_MS (no request at all);
 *  - stale: cache older than FRESH_MS while every API answer is delayed by STALE_API_DELAY_MS
 *    (500 ms): the popup must still show the cache at once (stale-while-revalidate), not wait for it;
 *  - cold: cache emptied, so the content includes the API round trip.
 */
import type { Bench, ExtensionPath } from './browser';
import { POPUP_VIEWPORT, RUNS, SERIES, WARMUP } from './config';
import { measureLoad, type LoadResult, type LoadSpec } from './page-run';
import { ageCache, clearCache, waitIdle } from './state';
import { balanceHistoryItem, popupViewItem } from '../../utils/storage-items';
import { byPredecessor, rotate, type Rotation } from './rounds';
import { yardstickLoad, yardstickReport, type YardstickReport } from './yardstick';
import { summarize, type Summary } from './stats';

export const POPUP: LoadSpec = { path: 'popup.html', viewport: POPUP_VIEWPORT, elements: ['balance', 'reward'] };
export const BLANK: LoadSpec = { path: 'blank.html', viewport: POPUP_VIEWPORT, elements: ['blank'] };
/** The popup before connecting: its prompt's heading painted. */
/** The floor page (tests/bench/floor.html): its balance painted. */
export const FLOOR: LoadSpec = { path: 'floor.html', viewport: POPUP_VIEWPORT, elements: ['balance'] };
export const POPUP_NOT_CONNECTED: LoadSpec = {
  path: 'popup.html',
  viewport: POPUP_VIEWPORT,
  elements: ['prompt'],
  mark: 'prompt',
};
/** Every API answer is held this long in the stale-cache case. */
export const STALE_API_DELAY_MS = 500;

/** A page against the blank page, pair by pair: the whole and each series' own ratio. */
export interface Paired {
  visible: Summary;
  blankFcp: Summary;
  ratioToBlankFcp: number;
  /** Each series' median ÷ its own blank median; the spread is their min–max. */
  seriesRatios: number[];
  spread: { min: number; max: number };
  /** Loads of the page whose every awaited element had an Element Timing entry. */
  elementTiming: Reported;
}

/** The popup's time ÷ the floor page's, from loads in the same rounds. */
export interface FloorRatio {
  ratio: number;
  seriesRatios: number[];
  spread: { min: number; max: number };
}

export interface GoalShift {
  runs: number;
  /** Layout shift score after the first contentful paint, per load: median and max. */
  median: number;
  max: number;
  /** Loads whose goal header was on screen when measured. */
  goalShown: number;
}

export interface TimingReport {
  method: string;
  series: number;
  baseline: { firstPaint: Summary; firstContentfulPaint: Summary; textPainted: Summary };
  notConnected: Paired;
  /** The floor page's balance painted, against the blank page. */
  floor: Paired;
  /** The popup's balance painted (the figure), against the blank page, from the warm runs. */
  warmBalance: Paired;
  warm: Paired & { dom: Summary; firstContentfulPaint: Summary };
  /** The headline: the warm popup ÷ the floor page, its balance painted, and with the first reward rows too. */
  popupToFloor: { balance: FloorRatio; withRows: FloorRatio };
  /**
   * The warm rounds' times (blank: first contentful paint; floor and popup: balance painted) by the
   * page loaded before each: equal rows mean no load paid for the one before it (config.ts, SETTLE_MS).
   */
  afterPage: Record<string, Record<string, Summary>>;
  /** The balance by the independent yardstick, from the same rounds (yardstick.ts); absent when it was not run. */
  yardstick?: YardstickReport;
  goalShift: GoalShift;
  stale: { visible: Summary; apiDelayMs: number; ratioToWarm: number };
  cold: { visible: Summary; ratioToBlankFcp: number };
}

export const METHOD =
  'Times are page-side, ms from the start of navigation (performance.now()). A probe injected before the page ' +
  'scripts (Playwright init script) puts the `elementtiming` attribute on the balance and the first reward name ' +
  'as soon as a MutationObserver sees them; "visible" is the later of their Element Timing renderTime, the same ' +
  "paint clock as the browser's first-contentful-paint. The baseline is blank.html (the popup's HTML shell, one " +
  'line of text, no script, no CSS) added to the bench build only; its text has elementtiming too.';

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

async function series(n: number, run: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < WARMUP + n; i += 1) await run(i - WARMUP);
}

/**
 * SERIES × RUNS rounds of the blank page and each of `specs` (rounds.ts); `prepare` runs before each
 * round. Returns, per page (blank first, then `specs`), each series' loads, and every load in order.
 */
async function rounds(bench: Bench, specs: LoadSpec[], prepare: () => Promise<void>): Promise<Rotation<LoadResult>> {
  const all = [BLANK, ...specs];
  return rotate({
    groups: [all.length],
    series: SERIES,
    runs: RUNS,
    warmup: WARMUP,
    prepare,
    load: (k) => measureLoad(bench, all[k]!),
  });
}

/** How many loads had an Element Timing entry for every element awaited (the rest fell back to a frame time). */
export interface Reported {
  reported: number;
  runs: number;
}

const reportedOf = (runs: LoadResult[][]): Reported => ({
  reported: runs.flat().filter((r) => r.reported).length,
  runs: runs.flat().length,
});

/** `pick`: what counts as the page visible (default: every awaited element painted). */
function paired(
  blank: LoadResult[][],
  page: LoadResult[][],
  pick: (r: LoadResult) => number = (r) => r.visible,
): Paired {
  const visible = summarize(page.flat().map(pick));
  const blankFcp = summarize(blank.flat().map((r) => r.fcp ?? NaN));
  const seriesRatios = page.map((runs, s) =>
    ratio(summarize(runs.map(pick)).median, summarize(blank[s]!.map((r) => r.fcp ?? NaN)).median),
  );
  return {
    visible,
    blankFcp,
    ratioToBlankFcp: ratio(visible.median, blankFcp.median),
    seriesRatios,
    spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) },
    elementTiming: reportedOf(page),
  };
}

/** The popup against the floor, series by series: each series' popup median ÷ the same series' floor median. */
function toFloor(floor: LoadResult[][], popup: LoadResult[][], pick: (r: LoadResult) => number): FloorRatio {
  const seriesRatios = popup.map((runs, s) =>
    ratio(summarize(runs.map(pick)).median, summarize(floor[s]!.map((r) => r.visible)).median),
  );
  return {
    ratio: ratio(summarize(popup.flat().map(pick)).median, summarize(floor.flat().map((r) => r.visible)).median),
    seriesRatios,
    spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) },
  };
}

/** Before connecting: the popup's prompt against the blank page. Run before the bench connects. */
export async function measureNotConnected(bench: Bench): Promise<Paired> {
  const [blank, page] = (await rounds(bench, [POPUP_NOT_CONNECTED], async () => {})).byPage;
  return paired(blank!, page!);
}

/**
 * Warm popup, floor page and blank page, round by round in the same series; with `yardstick` (a
 * second Chromium, yardstick.ts), its blank page, floor and popup load in the same rounds too.
 */
export async function measureWarm(bench: Bench, yardstick?: Bench) {
  const theirs: ExtensionPath[] = yardstick ? ['blank.html', 'floor.html', 'popup.html'] : [];
  const ours = [BLANK, FLOOR, POPUP];
  const rotation = await rotate<LoadResult | number | null>({
    groups: theirs.length ? [ours.length, theirs.length] : [ours.length],
    series: SERIES,
    runs: RUNS,
    warmup: WARMUP,
    prepare: async () => {
      await ageCache(bench, 0, 30_000);
      if (yardstick) await ageCache(yardstick, 0, 30_000);
    },
    load: (k) => (k < ours.length ? measureLoad(bench, ours[k]!) : yardstickLoad(yardstick!, theirs[k - ours.length]!)),
  });
  const [blankRuns, floorRuns, popupRuns] = rotation.byPage.slice(0, 3) as [
    LoadResult[][],
    LoadResult[][],
    LoadResult[][],
  ];
  const balance = (r: LoadResult) => r.element.balance ?? r.visible;
  // What each page's headline time was, by the page loaded before it in the same browser: blank FCP,
  // floor and popup balance.
  const headlineTime = (k: number, r: LoadResult) => (k === 0 ? (r.fcp ?? null) : balance(r));
  const inBrowser = (from: number, to: number) =>
    rotation.sequence
      .filter((load) => load.page >= from && load.page < to)
      .map((load) => ({ ...load, page: load.page - from }));
  return {
    afterPage: byPredecessor(
      inBrowser(0, 3) as Array<{ page: number; measured: boolean; result: LoadResult }>,
      ['blank', 'floor', 'popup'],
      headlineTime,
    ),
    yardstick: yardstick
      ? yardstickReport(
          rotation.byPage.slice(3) as Array<Array<Array<number | null>>>,
          inBrowser(3, 6) as Array<{ page: number; measured: boolean; result: number | null }>,
        )
      : undefined,
    blank: blankRuns.flat(),
    warm: popupRuns.flat(),
    floor: paired(blankRuns, floorRuns),
    warmPaired: paired(blankRuns, popupRuns),
    warmBalance: paired(blankRuns, popupRuns, balance),
    popupToFloor: {
      balance: toFloor(floorRuns, popupRuns, balance),
      withRows: toFloor(floorRuns, popupRuns, (r) => r.visible),
    },
  };
}

export async function measureTiming(
  bench: Bench,
  baseUrl: string,
  notConnected: Paired,
  log: (line: string) => void = () => {},
  yardstick?: Bench,
): Promise<TimingReport> {
  let since = Date.now();
  const done = (what: string) => {
    log(`${what} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
    since = Date.now();
  };
  const warmRuns = await measureWarm(bench, yardstick);
  done(`blank page, floor page and warm popup, ${SERIES} series`);
  const { blank, warm } = warmRuns;

  const apiDelayMs = STALE_API_DELAY_MS;
  const stale: LoadResult[] = [];
  await fetch(`${baseUrl}/__sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({ delayMs: apiDelayMs, times: 100_000 }),
  });
  try {
    await series(RUNS, async (i) => {
      await ageCache(bench, 10 * 60_000);
      const p = await measureLoad(bench, POPUP);
      await waitIdle(bench, 60_000, 'popup, stale cache');
      if (i >= 0) stale.push(p);
    });
  } finally {
    await fetch(`${baseUrl}/__sandbox/faults`, { method: 'DELETE' });
  }
  done('stale popup with a slow API');

  const cold: LoadResult[] = [];
  await series(RUNS, async (i) => {
    await clearCache(bench);
    const p = await measureLoad(bench, POPUP);
    await waitIdle(bench, 60_000, 'popup, empty cache');
    if (i >= 0) cold.push(p);
  });
  done('cold popup');
  const goalShift = await measureGoalShift(bench);
  done('popup with a goal set, layout shift');

  const pick = (list: LoadResult[], key: 'visible' | 'dom' | 'fp' | 'fcp') => summarize(list.map((r) => r[key] ?? NaN));
  const blankFcp = pick(blank, 'fcp');
  const warmVisible = pick(warm, 'visible');
  const staleVisible = pick(stale, 'visible');
  const coldVisible = pick(cold, 'visible');
  return {
    method: METHOD,
    series: SERIES,
    baseline: { firstPaint: pick(blank, 'fp'), firstContentfulPaint: blankFcp, textPainted: pick(blank, 'visible') },
    notConnected,
    floor: warmRuns.floor,
    warmBalance: warmRuns.warmBalance,
    goalShift,
    warm: { ...warmRuns.warmPaired, dom: pick(warm, 'dom'), firstContentfulPaint: pick(warm, 'fcp') },
    popupToFloor: warmRuns.popupToFloor,
    afterPage: warmRuns.afterPage,
    yardstick: warmRuns.yardstick,
    stale: { visible: staleVisible, apiDelayMs, ratioToWarm: ratio(staleVisible.median, warmVisible.median) },
    cold: { visible: coldVisible, ratioToBlankFcp: ratio(coldVisible.median, blankFcp.median) },
  };
}

/**
 * The popup with a goal set (the view's next reward, so the goal header shows progress) and a month
 * of balance changes (the 30-day change above it): the layout shift after the first contentful
 * paint, recorded until a second after the content. The goal is cleared afterwards.
 */
async function measureGoalShift(bench: Bench): Promise<GoalShift> {
  const send = (type: string, data: unknown) =>
    bench
      .load('blank.html', POPUP_VIEWPORT)
      .then((page) =>
        page.evaluate((message) => chrome.runtime.sendMessage(message), { id: 1, type, data, timestamp: Date.now() }),
      );
  const rewardId = await bench.inWorker(async (key) => {
    const view = (await chrome.storage.local.get(key))[key] as
      { rewards?: { next?: { id: number } | null; first: Array<{ id: number }> } } | undefined;
    return view?.rewards?.next?.id ?? view?.rewards?.first[0]?.id ?? null;
  }, popupViewItem.key);
  if (rewardId === null) throw new Error('no reward to set as the goal');
  const now = Date.now();
  const samples = [40, 30, 20, 10, 1].map((days, i) => ({ at: now - days * 86_400_000, points: 1_000 + 250 * i }));
  await bench.inWorker(({ key, samples }) => chrome.storage.local.set({ [key]: samples }), {
    key: balanceHistoryItem.key,
    samples,
  });
  await send('setGoal', { rewardId });
  const spec: LoadSpec = { ...POPUP, settleMs: 1_000, find: '.goal' };
  const shifts: number[] = [];
  let goalShown = 0;
  try {
    await series(RUNS, async (i) => {
      await ageCache(bench, 0, 30_000);
      const run = await measureLoad(bench, spec);
      if (i < 0) return;
      shifts.push(run.shiftAfterFirstPaint);
      if (run.found) goalShown += 1;
    });
  } finally {
    await send('setGoal', { rewardId: null });
  }
  const summary = summarize(shifts);
  return { runs: shifts.length, median: summary.median, max: summary.max, goalShown };
}
