/**
 * The sandbox seeded with growing lists (one dimension at a time, the others at the default
 * seed's size); for each size: the first load after the cache was emptied (fetch, validation,
 * storage and render), then warm loads with time to content, time to interactive and the JS heap.
 */
import { makeScaledSeed } from '../sandbox/scale';
import type { SandboxSeed } from '../sandbox/server';
import { wakeWorker, type Bench } from './browser';
import { HEAP_RUNS, OPTIONS_VIEWPORT, RUNS, SCALE } from './config';
import { wokenWorkerHeap, workerHeap } from './heap';
import { heapAfterLoad, LoadError, measureLoad, type LoadResult, type LoadSpec } from './page-run';
import { ageCache, clearCache, clearDraft, storageBytes, syncSnapshot, waitIdle } from './state';
import { growth, summarize, type Growth, type Summary } from './stats';
import { BLANK, POPUP } from './timing';

export type Dimension = keyof typeof SCALE;

export interface ScaleCase {
  dimension: Dimension;
  n: number;
  page: string;
  /** JSON size of what the API answers for this list (rewards, variables + values, or redemptions). */
  payloadBytes: number;
  /** One load right after the cache was emptied: includes the API round trip, validation and storage. */
  firstLoad: number | null;
  visible?: Summary;
  interactive?: Summary;
  clickToAnswer?: Summary;
  /** Reward details: click → the lazily loaded, sanitized details painted. */
  clickToDetails?: Summary;
  /** Main-thread long tasks after the content was visible, until the click was answered and SETTLE_MS more (median, ms). */
  busyAfterContent?: number;
  /** The most long tasks (over 50 ms) after the content was visible, in any run. */
  longTasksAfterContent?: number;
  heapBytes?: number;
  /** The page's heap readings (bytes): `heapBytes` is their median. */
  heap?: Summary;
  /**
   * The background's JS heap after a forced GC (bytes, median): `woken` right after a stopped worker
   * was started by a page's message; `used` after this case's loads (the cold one fetched the whole list).
   */
  workerHeap?: { woken: Summary; used: Summary };
  storageBytes?: number;
  /** Why the case could not be measured (the extension's own error where it reported one). */
  failure?: string;
}

export interface ScaleReport {
  blankHeapBytes: number;
  /** The minimal extension's worker (one listener per event), woken the same way: the yardstick of `workerHeap`. */
  minimalWorkerHeap: Summary;
  /** storage.local's quota (no unlimitedStorage permission in the manifest). */
  storageQuotaBytes: number;
  runsNote: string;
  cases: ScaleCase[];
  growth: Record<Dimension, { visible: Growth; interactive: Growth; heap: Growth }>;
}

/** After the answer, long tasks are recorded this much longer: work a page leaves for later counts too. */
export const SETTLE_MS = 500;

const SPECS: Record<Dimension, LoadSpec> = {
  rewards: { ...POPUP, interaction: 'reward-details', settleMs: SETTLE_MS },
  variables: {
    path: 'options.html',
    viewport: OPTIONS_VIEWPORT,
    mark: 'profile',
    elements: ['profile'],
    interaction: 'profile-choice',
  },
  redemptions: {
    path: 'options.html',
    viewport: OPTIONS_VIEWPORT,
    mark: 'history',
    elements: ['history'],
    interaction: 'show-more',
    settleMs: SETTLE_MS,
  },
};
const AREA: Record<Dimension, string> = { rewards: 'rewards', variables: 'profile', redemptions: 'history' };

/**
 * Fewer runs where one load takes many seconds, to stay within the 10-minute budget (the report
 * says so): BENCH_HEAVY_RUNS, default 3. The cold first load already ran the page's code once, so
 * one warm-up load is enough before the measured runs, and none for the heavy cases.
 */
export const HEAVY_RUNS = Math.min(RUNS, Number(process.env.BENCH_HEAVY_RUNS ?? 3));

export function runsFor(dimension: Dimension, n: number): { runs: number; warmup: number; heap: number } {
  const heavy = (dimension === 'rewards' && n >= 5_000) || (dimension === 'redemptions' && n >= 10_000);
  return heavy ? { runs: HEAVY_RUNS, warmup: 0, heap: 2 } : { runs: RUNS, warmup: 1, heap: HEAP_RUNS };
}

const median = (list: number[]) => summarize(list).median;

/** A stopped worker started by a page's message, as the popup's first one starts it (browser.ts). */
const ask = (bench: Bench, id = bench.extensionId) =>
  wakeWorker(bench.context, id, id === bench.extensionId ? 'blank.html' : 'page.html');

function payloadOf(seed: SandboxSeed, dimension: Dimension): number {
  const list =
    dimension === 'rewards'
      ? seed.rewards
      : dimension === 'variables'
        ? [seed.variables, seed.values]
        : seed.redemptions;
  return JSON.stringify(list).length;
}

async function measureCase(bench: Bench, dimension: Dimension, n: number, payloadBytes: number): Promise<ScaleCase> {
  const spec = SPECS[dimension];
  const area = AREA[dimension];
  const result: ScaleCase = { dimension, n, page: spec.path, payloadBytes, firstLoad: null };
  const context = `${n} ${dimension}`;

  await clearCache(bench);
  // An error stored for the area, with no fetch running, ends the wait for content at once.
  const reported = async () => {
    const snap = await syncSnapshot(bench);
    const error = snap.errors[area];
    return error && !snap.loading.includes(area) ? `the extension reported “${error}”` : null;
  };
  try {
    result.firstLoad = (
      await measureLoad(bench, { ...spec, interaction: undefined, timeoutMs: 120_000 }, reported)
    ).visible;
  } catch (error) {
    if (!(error instanceof LoadError)) throw error;
    result.failure = error.message;
    result.storageBytes = await storageBytes(bench);
    return result;
  }
  await waitIdle(bench, 120_000, `${context}, empty cache`);

  const runs: LoadResult[] = [];
  const plan = runsFor(dimension, n);
  for (let i = 0; i < plan.warmup + plan.runs; i += 1) {
    await ageCache(bench, 0, 30_000);
    if (dimension === 'variables') await clearDraft(bench);
    const run = await measureLoad(bench, { ...spec, timeoutMs: 120_000 });
    if (i >= plan.warmup) runs.push(run);
  }
  const heap: number[] = [];
  for (let i = 0; i < plan.heap; i += 1) heap.push(await heapAfterLoad(bench, { ...spec, timeoutMs: 120_000 }));
  const used: number[] = [];
  const woken: number[] = [];
  for (let i = 0; i < plan.heap; i += 1) used.push(await workerHeap(bench, bench.extensionId));
  for (let i = 0; i < plan.heap; i += 1) woken.push(await wokenWorkerHeap(bench, bench.extensionId, () => ask(bench)));

  const pick = (key: 'visible' | 'interactive' | 'clickToAnswer' | 'clickToDetails') => {
    const values = runs.map((r) => r[key]).filter((v): v is number => v !== undefined);
    return values.length ? summarize(values) : undefined;
  };
  const interacted = runs.filter((r) => r.interactive !== undefined);
  Object.assign(result, {
    visible: pick('visible'),
    interactive: pick('interactive'),
    clickToAnswer: pick('clickToAnswer'),
    clickToDetails: pick('clickToDetails'),
    busyAfterContent: interacted.length ? median(interacted.map((r) => r.longTasksAfter)) : undefined,
    longTasksAfterContent: interacted.length ? Math.max(...interacted.map((r) => r.longTaskCountAfter)) : undefined,
    heapBytes: median(heap),
    heap: summarize(heap),
    workerHeap: { woken: summarize(woken), used: summarize(used) },
    storageBytes: await storageBytes(bench),
  });
  const errors = (await syncSnapshot(bench)).errors;
  if (Object.keys(errors).length) result.failure = `sync errors: ${JSON.stringify(errors)}`;
  return result;
}

export async function measureScale(
  bench: Bench,
  reseed: (seed: SandboxSeed) => Promise<void>,
  log: (line: string) => void,
): Promise<ScaleReport> {
  const blankHeap: number[] = [];
  for (let i = 0; i < HEAP_RUNS; i += 1) blankHeap.push(await heapAfterLoad(bench, BLANK));
  const minimalHeap: number[] = [];
  for (let i = 0; i < HEAP_RUNS; i += 1)
    minimalHeap.push(await wokenWorkerHeap(bench, bench.minimalId, () => ask(bench, bench.minimalId)));
  const cases: ScaleCase[] = [];
  for (const dimension of Object.keys(SCALE) as Dimension[]) {
    for (const n of SCALE[dimension]) {
      const started = Date.now();
      const seed = makeScaledSeed({ [dimension]: n });
      await reseed(seed);
      const measured = await measureCase(bench, dimension, n, payloadOf(seed, dimension));
      cases.push(measured);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      log(
        `scale ${n} ${dimension}: ${measured.visible ? `visible ${measured.visible.median} ms` : measured.failure} (${seconds} s)`,
      );
    }
  }
  await reseed(makeScaledSeed({}));
  await clearCache(bench);
  const storageQuotaBytes = await bench.inWorker(
    () => (chrome.storage.local as unknown as { QUOTA_BYTES: number }).QUOTA_BYTES,
    null,
  );

  const series = (dimension: Dimension, pick: (c: ScaleCase) => number | undefined) =>
    growth(
      cases.filter((c) => c.dimension === dimension && pick(c) !== undefined).map((c) => ({ n: c.n, cost: pick(c)! })),
    );
  const growthOf = (d: Dimension) => ({
    visible: series(d, (c) => c.visible?.median),
    interactive: series(d, (c) => c.interactive?.median),
    heap: series(d, (c) => c.heapBytes),
  });
  const heavy = (Object.keys(SCALE) as Dimension[]).flatMap((d) =>
    SCALE[d].filter((n) => runsFor(d, n).runs < RUNS).map((n) => `${n.toLocaleString('en')} ${d}`),
  );
  return {
    blankHeapBytes: median(blankHeap),
    minimalWorkerHeap: summarize(minimalHeap),
    storageQuotaBytes,
    runsNote: heavy.length
      ? `${RUNS} runs per case, except ${heavy.join(' and ')}: ${HEAVY_RUNS} runs (one load takes seconds there, and the whole bench must stay under 10 minutes).`
      : `${RUNS} runs per case.`,
    cases,
    growth: { rewards: growthOf('rewards'), variables: growthOf('variables'), redemptions: growthOf('redemptions') },
  };
}

/** The worker's heap at the sandbox's current seed (BENCH_ONLY=worker): right after a start, the minimal worker's, and as it is. */
export async function measureWorkerHeap(bench: Bench): Promise<{ woken: number; minimal: number; used: number }> {
  const runs = async (read: () => Promise<number>) => {
    const out: number[] = [];
    for (let i = 0; i < HEAP_RUNS; i += 1) out.push(await read());
    return median(out);
  };
  const used = await runs(() => workerHeap(bench, bench.extensionId));
  const woken = await runs(() => wokenWorkerHeap(bench, bench.extensionId, () => ask(bench)));
  const minimal = await runs(() => wokenWorkerHeap(bench, bench.minimalId, () => ask(bench, bench.minimalId)));
  return { woken, minimal, used };
}
