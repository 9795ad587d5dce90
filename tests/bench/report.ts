/** results.json (every figure, samples included) and results.md (the compact tables). */
import type { RequestsReport } from './requests';
import type { ScaleReport } from './scale';
import type { Bundle, SizeReport } from './sizes';
import type { Summary } from './stats';
import type { TimingReport } from './timing';

export interface Machine {
  date: string;
  commit: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string;
  loadAverage: { start: number[]; end: number[] };
  runSeconds: number;
}

export interface Results {
  machine: Machine;
  sizes: SizeReport;
  timing: TimingReport;
  requests: RequestsReport;
  scale: ScaleReport;
  /** Times a sync `loading` flag stayed on after its fetch had finished (state.ts, waitIdle). */
  stuckLoadingFlags: Array<{ area: string; attemptedAt: number; at: string }>;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)}`;
const ms = (s: Summary | undefined) => (s ? `${Math.round(s.median)} (${Math.round(s.min)}–${Math.round(s.max)})` : 'n/a');
const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : (bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1));
const endpoints = (c: { total: number; byEndpoint: Record<string, number> }) =>
  `${c.total}${c.total ? ` (${Object.entries(c.byEndpoint).map(([e, n]) => `${e.replace(' /v1/panel', ' ')} ×${n}`).join(', ')})` : ''}`;

function sizeRow(name: string, b: Bundle, target = ''): string {
  return `| ${name} | ${kib(b.js.gzip)} | ${kib(b.css.gzip)} | **${kib(b.total.gzip)}** | ${kib(b.total.raw)} | ${target} |`;
}

/** How often, and where, a sync `loading` flag outlived its fetch. */
function stuckSummary(flags: Results['stuckLoadingFlags']): string {
  if (!flags.length) return 'No sync `loading` flag was left on after its fetch had finished.';
  const where = new Map<string, number>();
  for (const f of flags) where.set(`${f.area} (${f.at || 'between runs'})`, (where.get(`${f.area} (${f.at || 'between runs'})`) ?? 0) + 1);
  return (
    `**Seen while measuring**: a sync \`loading\` flag left on after its fetch had finished, ${flags.length} times: ` +
    [...where].map(([k, n]) => `${k} ×${n}`).join(', ') +
    '.'
  );
}

export function markdown(r: Results): string {
  const { sizes, timing, requests, scale, machine } = r;
  const blank = timing.baseline.firstContentfulPaint;
  const lines = [
    `Measured ${machine.date} on ${machine.cores}× ${machine.cpu}, ${machine.os}, Node ${machine.node}, Chromium ${machine.chromium} ` +
      `(headless); commit ${machine.commit}; load average ${machine.loadAverage.start.join(' / ')} at start, ` +
      `${machine.loadAverage.end.join(' / ')} at end; \`npm run bench\` took ${machine.runSeconds} s.`,
    '',
    '**Size** (KiB; gzip -9 unless said)',
    '',
    '| part | JS gzip | CSS gzip | total gzip | total raw | target |',
    '|---|---:|---:|---:|---:|---|',
    sizeRow('popup, first load', sizes.popup.first, '≤ 20 KiB gzip'),
    sizeRow('popup, lazy (details, sanitizer, options link)', sizes.popup.lazy),
    sizeRow('options page', sizes.options.first),
    sizeRow('background', sizes.background, '≤ 14 KiB gzip'),
    `| Chrome zip | | | | ${kib(sizes.zip.bytes)} | |`,
    '',
    `**Popup load** (ms from navigation: median (min–max) of ${blank.runs} runs each; baseline in the same run. Blank page and ` +
      `popup alternate, in turns first; ${timing.series} series of ${blank.runs / timing.series}: "series" gives each series' ` +
      'own ratio to its own blank page, min–max)',
    '',
    '| page | visible | ÷ blank FCP | series | target |',
    '|---|---:|---:|---|---|',
    `| blank extension page, first contentful paint (baseline) | ${ms(blank)} | 1.00 | | |`,
    `| popup, not connected: its prompt painted (own blank baseline: ${ms(timing.notConnected.blankFcp)}) | ${ms(timing.notConnected.visible)} | ` +
      `${timing.notConnected.ratioToBlankFcp} | ${timing.notConnected.spread.min}–${timing.notConnected.spread.max} | |`,
    `| popup, warm cache: balance and first reward painted | ${ms(timing.warm.visible)} | ${timing.warm.ratioToBlankFcp} | ` +
      `${timing.warm.spread.min}–${timing.warm.spread.max} | ≤ 1.3 |`,
    `| popup, stale cache, every API answer delayed ${timing.stale.apiDelayMs} ms (one series) | ${ms(timing.stale.visible)} | ${(timing.stale.visible.median / blank.median).toFixed(2)} | | same as warm |`,
    `| popup, cold (empty cache: API round trip included; one series) | ${ms(timing.cold.visible)} | ${timing.cold.ratioToBlankFcp} | | |`,
    '',
    `**Scale** (ms from navigation, median (min–max); ${scale.runsNote} "Interactive": a click on the last rendered item ` +
      `(reward details, history "Show more", the last profile choice), issued as soon as the content was seen, answered on screen; ` +
      `"busy after": main-thread long tasks between content and answer. Heap: JS heap after load and a forced GC ` +
      `(blank page ${mib(scale.blankHeapBytes)} MiB). Storage: storage.local in use; quota ${mib(scale.storageQuotaBytes)} MiB.)`,
    '',
    '| data | page | API MiB | first load, empty cache (1 run) | content visible | interactive | click → answer | busy after | heap MiB | storage MiB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...scale.cases.map((c) =>
      c.failure && !c.visible
        ? `| ${c.n.toLocaleString('en')} ${c.dimension} | ${c.page} | ${mib(c.payloadBytes)} | **failed**: ${c.failure} | | | | | | ${mib(c.storageBytes)} |`
        : `| ${c.n.toLocaleString('en')} ${c.dimension} | ${c.page} | ${mib(c.payloadBytes)} | ${c.firstLoad ?? 'n/a'} | ${ms(c.visible)} | ` +
          `${ms(c.interactive)} | ${ms(c.clickToAnswer)} | ${c.busyAfterContent ?? 'n/a'} | ${mib(c.heapBytes)} | ${mib(c.storageBytes)} |`,
    ),
    '',
    ...(Object.entries(scale.growth) as Array<[string, ScaleReport['growth']['rewards']]>).map(
      ([d, g]) =>
        `- ${d}: content ×${g.visible.ratioPer10x.join(', ×')} per 10× (${g.visible.verdict}; ${g.visible.marginalPerItem.join(', ')} ms per extra item); ` +
        `interactive ×${g.interactive.ratioPer10x.join(', ×') || 'n/a'} per 10×; heap ${g.heap.verdict}.`,
    ),
    '',
    '**Requests** (counted by the sandbox)',
    '',
    '| opening | API requests |',
    '|---|---|',
    `| popup, empty cache | ${endpoints(requests.popup.emptyCache)} |`,
    `| popup, cache younger than FRESH_MS | ${endpoints(requests.popup.freshCache)} |`,
    `| popup, cache older than FRESH_MS | ${endpoints(requests.popup.staleCache)} |`,
    `| two popups at once, stale cache | ${endpoints(requests.popup.twoPopupsStaleCache)} |`,
    `| options page, empty cache | ${endpoints(requests.options.emptyCache)} |`,
    `| options page, cache younger than FRESH_MS | ${endpoints(requests.options.freshCache)} |`,
    '',
    `**Refresh alarm** (period ${requests.alarm.periodInMinutes} min; one firing in each state after one that brought the validators ` +
      `up to date; bytes: status line, headers and body as the sandbox sent them; the browser's own idle state: ${requests.alarm.browserIdleState})`,
    '',
    '| state | one firing | answers | bytes | bytes without validators | per idle hour | 100,000 installs | 1,000,000 installs |',
    '|---|---|---|---:|---:|---|---|---|',
    ...requests.alarm.firings.map(
      (f) =>
        `| ${f.label} | ${endpoints(f.perFiring)} | ${f.statuses.join(', ') || '–'} | ${f.bytes.toLocaleString('en')} | ` +
        `${f.bytesWithoutValidators.toLocaleString('en')} | ` +
        `${f.perHour.requests} requests, ${f.perHour.bytes.toLocaleString('en')} bytes | ` +
        f.fleet.map((x) => `${x.requestsPerSecond} requests/s, ${x.kilobytesPerSecond} kB/s`).join(' | ') +
        ' |',
    ),
    '',
    `Idle browser (at the machine, history settled): ${requests.perIdleBrowserPerHour} requests/hour. ` +
      requests.fleet.map((f) => `${f.installs.toLocaleString('en')} installs: ${f.requestsPerSecond} requests/s on average`).join('; ') +
      `. ${requests.jitterNote}`,
    '',
    stuckSummary(r.stuckLoadingFlags),
  ];
  return lines.join('\n');
}
