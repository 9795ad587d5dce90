/**
 * The popup's load against the blank baseline page, in the same browser and the same run, runs
 * interleaved so that drift on a noisy machine hits both alike.
 *  - warm: cache younger than FRESH_MS (no request at all);
 *  - stale: cache older than FRESH_MS while every API answer is delayed by 1 s: the popup must
 *    still show the cache at once (stale-while-revalidate), not wait for the answer;
 *  - cold: cache emptied, so the content includes the API round trip.
 */
import type { Bench } from './browser';
import { POPUP_VIEWPORT, RUNS, WARMUP } from './config';
import { measureLoad, type LoadResult, type LoadSpec } from './page-run';
import { ageCache, clearCache, waitIdle } from './state';
import { summarize, type Summary } from './stats';

export const POPUP: LoadSpec = { path: 'popup.html', viewport: POPUP_VIEWPORT, elements: ['balance', 'reward'] };
export const BLANK: LoadSpec = { path: 'blank.html', viewport: POPUP_VIEWPORT, elements: ['blank'] };

export interface TimingReport {
  method: string;
  baseline: { firstPaint: Summary; firstContentfulPaint: Summary; textPainted: Summary };
  warm: { visible: Summary; dom: Summary; firstContentfulPaint: Summary; ratioToBlankFcp: number };
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

export async function measureTiming(bench: Bench, baseUrl: string, log: (line: string) => void = () => {}): Promise<TimingReport> {
  let since = Date.now();
  const done = (what: string) => {
    log(`${what} (${((Date.now() - since) / 1000).toFixed(1)} s)`);
    since = Date.now();
  };
  const blank: LoadResult[] = [];
  const warm: LoadResult[] = [];
  await series(RUNS, async (i) => {
    await ageCache(bench, 0, 30_000);
    const b = await measureLoad(bench, BLANK);
    const p = await measureLoad(bench, POPUP);
    if (i >= 0) blank.push(b), warm.push(p);
  });
  done('blank page and warm popup');

  const apiDelayMs = 500;
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

  const pick = (list: LoadResult[], key: 'visible' | 'dom' | 'fp' | 'fcp') => summarize(list.map((r) => r[key] ?? NaN));
  const blankFcp = pick(blank, 'fcp');
  const warmVisible = pick(warm, 'visible');
  const staleVisible = pick(stale, 'visible');
  const coldVisible = pick(cold, 'visible');
  return {
    method: METHOD,
    baseline: { firstPaint: pick(blank, 'fp'), firstContentfulPaint: blankFcp, textPainted: pick(blank, 'visible') },
    warm: { visible: warmVisible, dom: pick(warm, 'dom'), firstContentfulPaint: pick(warm, 'fcp'), ratioToBlankFcp: ratio(warmVisible.median, blankFcp.median) },
    stale: { visible: staleVisible, apiDelayMs, ratioToWarm: ratio(staleVisible.median, warmVisible.median) },
    cold: { visible: coldVisible, ratioToBlankFcp: ratio(coldVisible.median, blankFcp.median) },
  };
}
