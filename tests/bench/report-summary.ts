/**
 * results.md's first table: every figure the background, memory and Firefox work aims at, from one
 * run, each with its spread (the series' own ratios, or the readings' min–max) and its target.
 */
import type { Results } from './report';
import type { Summary } from './stats';

/** Megabytes of 10^6 bytes, as the peers' figures these targets were set against were given. */
const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : (bytes / 1e6).toFixed(2));
const mbRange = (s: Summary | undefined) => (s ? `${mb(s.median)} (${mb(s.min)}–${mb(s.max)})` : 'n/a');
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const series = (f: { seriesRatios: number[] } | undefined) => (f ? f.seriesRatios.join(', ') : 'n/a');
const ratioOf = (f: { ratio: number } | undefined) => (f ? `**${f.ratio}**` : 'n/a');

/** A heap figure at 10 and at 5,000 rewards, and what the larger catalogue added. */
function heapRow(small: Summary | undefined, large: Summary | undefined): string {
  const grew = small && large ? ` (${large.median >= small.median ? '+' : ''}${mb(large.median - small.median)})` : '';
  return `10 rewards **${mbRange(small)}**; 5,000 rewards **${mbRange(large)}**${grew}`;
}

export function summaryTable(r: Results): string[] {
  const { wake, timing, scale, background, firefox } = r;
  const { yardstick } = timing;
  const rewards = (n: number) => scale.cases.find((c) => c.dimension === 'rewards' && c.n === n);
  const [ten, many] = [rewards(10), rewards(5_000)];
  const gzip = (scripts: Array<{ gzip: number }>) => scripts.reduce((n, s) => n + s.gzip, 0);
  const ff = firefox;
  return [
    '| figure | measured (spread) | target |',
    '|---|---|---|',
    `| background, gzip | Chrome **${kib(gzip(background.chrome))} KiB**, Firefox ${kib(gzip(background.firefox))} KiB (module by module: "Background" below) | ≤ 20 KiB |`,
    `| wake-up of a stopped worker by a message ÷ a one-listener worker | ${ratioOf(wake.message)} (series ${series(wake.message)}); ${Math.round(wake.message.ours.median)} ms against ${Math.round(wake.message.minimal.median)} ms | ≤ 1.3 |`,
    `| wake-up by an alarm ÷ one-listener worker | ${ratioOf(wake.alarm)} (series ${series(wake.alarm)}); ${Math.round(wake.alarm.ours.median)} ms against ${Math.round(wake.alarm.minimal.median)} ms | ≤ 1.2 |`,
    `| worker JS heap after GC, MB, right after a start (one-listener worker: ${mbRange(scale.minimalWorkerHeap)}) | ${heapRow(ten?.workerHeap?.woken, many?.workerHeap?.woken)} | ≤ 0.7 MB, flat |`,
    `| worker JS heap after GC, MB, after the popup's loads | ${heapRow(ten?.workerHeap?.used, many?.workerHeap?.used)} | flat |`,
    `| popup JS heap after GC, MB (blank page: ${mb(scale.blankHeapBytes)}) | ${heapRow(ten?.heap, many?.heap)} | ≤ 1.8 MB, flat |`,
    `| first reward rows ÷ floor | ${ratioOf(timing.popupToFloor.withRows)} (series ${series(timing.popupToFloor.withRows)}) | ≤ 1.2 |`,
    `| header and balance ÷ floor, the bench's probe | ${ratioOf(timing.popupToFloor.balance)} (series ${series(timing.popupToFloor.balance)}) | ≤ 1.1 |`,
    `| header and balance ÷ floor, the independent yardstick (Element Timing in the markup, nothing else) | ${ratioOf(yardstick?.popupToFloor)} (series ${series(yardstick?.popupToFloor)}) | the same as the probe's |`,
    `| Firefox popup first paint ÷ blank, not connected / connected | ${ratioOf(ff.notConnected.promptToBlank)} / ${ratioOf(ff.popupToBlank.balance)} (series ${series(ff.notConnected.promptToBlank)} / ${series(ff.popupToBlank.balance)}) | ≤ 1.1 × the floor's |`,
    `| Firefox floor ÷ blank | ${ratioOf(ff.floorToBlank)} (series ${series(ff.floorToBlank)}) | |`,
    `| Firefox popup ÷ floor: balance / with the first rows | ${ratioOf(ff.popupToFloor.balance)} / ${ratioOf(ff.popupToFloor.withRows)} (series ${series(ff.popupToFloor.balance)} / ${series(ff.popupToFloor.withRows)}) | ≤ 1.1 / ≤ 1.2 |`,
  ];
}

/**
 * Each page's time by the page loaded just before it (rounds.ts, byPredecessor): rows that differ
 * mean a load paid for the one before it, and the ratios above are off by that much.
 */
export function afterPageLine(label: string, afterPage: Record<string, Record<string, Summary>>): string {
  const pages = Object.entries(afterPage).map(
    ([page, rows]) =>
      `${page} ${Object.entries(rows)
        .map(([before, s]) => `after ${before} ${Math.round(s.median)} ms (${s.runs})`)
        .join(', ')}`,
  );
  return `${label}, each page's median by the page loaded before it (loads in brackets): ${pages.join('; ')}.`;
}

/** Firefox's own table: the times behind its ratios, and what another reading of "painted" gives. */
export function firefoxLines(r: Results): string[] {
  const ff = r.firefox;
  const ms = (s: Summary) => `${Math.round(s.median)} (${Math.round(s.min)}–${Math.round(s.max)})`;
  return [
    `**Firefox** (${ff.browserVersion}, headless; ${ff.method} ${ff.series} series of ${ff.blank.runs / ff.series}, ` +
      `ms from navigation, median (min–max); loads whose composite never came: ${ff.missing})`,
    '',
    '| page | painted | ÷ blank | ÷ floor | series |',
    '|---|---:|---:|---:|---|',
    `| blank page | ${ms(ff.blank)} | 1.00 | | |`,
    `| floor: balance | ${ms(ff.floor)} | ${ff.floorToBlank.ratio} | 1.00 | ÷ blank ${ff.floorToBlank.seriesRatios.join(', ')} |`,
    `| popup, warm cache: balance | ${ms(ff.popupBalance)} | ${ff.popupToBlank.balance.ratio} | **${ff.popupToFloor.balance.ratio}** | ÷ floor ${ff.popupToFloor.balance.seriesRatios.join(', ')} |`,
    `| popup, warm cache: the first reward rows | ${ms(ff.popupRows)} | | **${ff.popupToFloor.withRows.ratio}** | ÷ floor ${ff.popupToFloor.withRows.seriesRatios.join(', ')} |`,
    `| popup, not connected: its prompt (own blank page: ${ms(ff.notConnected.blank)}) | ${ms(ff.notConnected.prompt)} | **${ff.notConnected.promptToBlank.ratio}** | | ÷ blank ${ff.notConnected.promptToBlank.seriesRatios.join(', ')} |`,
    '',
    `Popup ÷ floor, balance, by the other readings of "painted": the frame after the insertion ${ff.otherReadings.frame.ratio} ` +
      `(series ${ff.otherReadings.frame.seriesRatios.join(', ')}), the second animation frame ${ff.otherReadings.raf2.ratio} ` +
      `(series ${ff.otherReadings.raf2.seriesRatios.join(', ')}). ${afterPageLine('Firefox', ff.afterPage)}`,
  ];
}
