/**
 * The popup's load against the blank baseline page, in the same browser and the same run, runs
 * interleaved so that drift on a noisy machine hits both alike, in alternating order (blank first
 * on even runs, the popup first on odd ones) so neither always pays for a cold process, and in
 * SERIES series of RUNS pairs, so the spread between series shows how far one series can be off.
 *  - not connected: the popup before any token is stored (its prompt to connect);
 *  - warm: cache younger than FRESH_MS (no request at all);
 *  - stale: cache older than FRESH_MS while every API answer is delayed by STALE_API_DELAY_MS
 *    (500 ms): the popup must still show the cache at once (stale-while-revalidate), not wait for it;
 *  - cold: cache emptied, so the content includes the API round trip.
 */
import type { Bench } from './browser';
import { POPUP_VIEWPORT, RUNS, SERIES, WARMUP } from './config';
import { measureLoad, type LoadResult, type LoadSpec } from './page-run';
import { ageCache, clearCache, waitIdle } from './state';
import { balanceHistoryItem, popupViewItem } from '../../utils/storage-items';
import { summarize, type Summary } from './stats';

export const POPUP: LoadSpec = { path: 'popup.html', viewport: POPUP_VIEWPORT, elements: ['balance', 'reward'] };
export const BLANK: LoadSpec = { path: 'blank.html', viewport: POPUP_VIEWPORT, elements: ['blank'] };
/** The popup before connecting: its prompt's heading painted. */
/** The floor page (tests/bench/floor.html): its balance painted. */
export const FLOOR: LoadSpec = { path: 'floor.html', viewport: POPUP_VIEWPORT, elements: ['balance'] };
export const POPUP_NOT_CONNECTED: LoadSpec = { path: 'popup.html', viewport: POPUP_VIEWPORT, elements: ['prompt'], mark: 'prompt' };
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
  warm: { visible: Summary; dom: Summary; firstContentfulPaint: Summary; ratioToBlankFcp: number; seriesRatios: number[]; spread: { min: number; max: number } };
  goalShift: GoalShift;
  stale: { visible: Summary; apiDelayMs: number; ratioToWarm: number };
  cold: { visible: Summary; ratioToBlankFcp: number };
}

export const METHOD =
  'Times are page-side, ms from the start of navigation (performance.now()). A probe injected before the page ' +
  'scripts (Playwright init script) puts the `elementtiming` attribute on the balance and the first reward name ' +
  'as soon as a MutationObserver sees them; "visible" is the later of their Element Timing renderTime, the same ' +
  'paint clock as the browser\'s first-contentful-paint. The baseline is blank.html (the popup\'s HTML shell, one ' +
  'line of text, no script, no CSS) added to the bench build only; its text has elementtiming too.';

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

async function series(n: number, run: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < WARMUP + n; i += 1) await run(i - WARMUP);
}

/** SERIES × RUNS pairs of the blank page and `spec`, in alternating order; `prepare` runs before each pair. */
async function pairs(bench: Bench, spec: LoadSpec, prepare: () => Promise<void>): Promise<{ blank: LoadResult[][]; page: LoadResult[][] }> {
  const blank: LoadResult[][] = [];
  const page: LoadResult[][] = [];
  for (let s = 0; s < SERIES; s += 1) {
    blank.push([]);
    page.push([]);
    await series(RUNS, async (i) => {
      await prepare();
      const blankFirst = (i + WARMUP) % 2 === 0;
      const first = await measureLoad(bench, blankFirst ? BLANK : spec);
      const second = await measureLoad(bench, blankFirst ? spec : BLANK);
      if (i >= 0) {
        blank[s]!.push(blankFirst ? first : second);
        page[s]!.push(blankFirst ? second : first);
      }
    });
  }
  return { blank, page };
}

/** `pick`: what counts as the page visible (default: every awaited element painted). */
function paired(blank: LoadResult[][], page: LoadResult[][], pick: (r: LoadResult) => number = (r) => r.visible): Paired {
  const visible = summarize(page.flat().map(pick));
  const blankFcp = summarize(blank.flat().map((r) => r.fcp ?? NaN));
  const seriesRatios = page.map((runs, s) => ratio(summarize(runs.map(pick)).median, summarize(blank[s]!.map((r) => r.fcp ?? NaN)).median));
  return {
    visible,
    blankFcp,
    ratioToBlankFcp: ratio(visible.median, blankFcp.median),
    seriesRatios,
    spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) },
  };
}

/** Before connecting: the popup's prompt against the blank page. Run before the bench connects. */
export async function measureNotConnected(bench: Bench): Promise<Paired> {
  const { blank, page } = await pairs(bench, POPUP_NOT_CONNECTED, async () => {});
  return paired(blank, page);
}

export async function measureTiming(bench: Bench, baseUrl: string, notConnected: Paired, log: (line: string) => void = () => {}): Promise<TimingReport> {
  let since = Date.now();
  const done = (what: string) => {
    log(`${what} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
    since = Date.now();
  };
  const warmPairs = await pairs(bench, POPUP, () => ageCache(bench, 0, 30_000));
  const blank = warmPairs.blank.flat();
  const warm = warmPairs.page.flat();
  const warmPaired = paired(warmPairs.blank, warmPairs.page);
  const warmBalance = paired(warmPairs.blank, warmPairs.page, (r) => r.element.balance ?? r.visible);
  done(`blank page and warm popup, ${SERIES} series`);
  const floorPairs = await pairs(bench, FLOOR, () => ageCache(bench, 0, 30_000));
  const floor = paired(floorPairs.blank, floorPairs.page);
  done(`blank page and the floor page, ${SERIES} series`);

  const apiDelayMs = STALE_API_DELAY_MS;
  const stale: LoadResult[] = [];
  await fetch(`${baseUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ delayMs: apiDelayMs, times: 100_000 }) });
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
    floor,
    warmBalance,
    goalShift,
    warm: {
      visible: warmVisible,
      dom: pick(warm, 'dom'),
      firstContentfulPaint: pick(warm, 'fcp'),
      ratioToBlankFcp: ratio(warmVisible.median, blankFcp.median),
      seriesRatios: warmPaired.seriesRatios,
      spread: warmPaired.spread,
    },
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
    bench.load('blank.html', POPUP_VIEWPORT).then((page) =>
      page.evaluate((message) => chrome.runtime.sendMessage(message), { id: 1, type, data, timestamp: Date.now() }),
    );
  const rewardId = await bench.inWorker(async (key) => {
    const view = (await chrome.storage.local.get(key))[key] as { rewards?: { next?: { id: number } | null; first: Array<{ id: number }> } } | undefined;
    return view?.rewards?.next?.id ?? view?.rewards?.first[0]?.id ?? null;
  }, popupViewItem.key);
  if (rewardId === null) throw new Error('no reward to set as the goal');
  const now = Date.now();
  const samples = [40, 30, 20, 10, 1].map((days, i) => ({ at: now - days * 86_400_000, points: 1_000 + 250 * i }));
  await bench.inWorker(({ key, samples }) => chrome.storage.local.set({ [key]: samples }), { key: balanceHistoryItem.key, samples });
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
