/** results.json (every figure, samples included) and results.md (the compact tables). */
import type { BackgroundSize } from './background-size';
import type { ConnectReport } from './connect';
import type { FirefoxReport } from './firefox';
import { modulesTable } from './report-modules';
import { afterPageLine, firefoxLines, summaryTable } from './report-summary';
import type { RequestsReport } from './requests';
import type { ScaleReport } from './scale';
import type { Bundle, SizeReport } from './sizes';
import type { Summary } from './stats';
import type { TimingReport } from './timing';
import type { WakeFigure, WakeReport } from './wake';

export interface Machine {
  date: string;
  commit: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  chromium: string;
  firefox: string;
  loadAverage: { start: number[]; end: number[] };
  runSeconds: number;
}

export interface Results {
  machine: Machine;
  sizes: SizeReport;
  /** The background module by module, Chrome and Firefox (background-size.ts). */
  background: BackgroundSize;
  timing: TimingReport;
  firefox: FirefoxReport;
  wake: WakeReport;
  requests: RequestsReport;
  scale: ScaleReport;
  /** Connecting with a large catalogue: "Connected", and the catalogue in (connect.ts). */
  connect: ConnectReport;
  /** Times a sync `loading` flag stayed on after its fetch had finished (state.ts, waitIdle). */
  stuckLoadingFlags: Array<{ area: string; attemptedAt: number; at: string }>;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)}`;
const ms = (s: Summary | undefined) =>
  s ? `${Math.round(s.median)} (${Math.round(s.min)}–${Math.round(s.max)})` : 'n/a';
const mib = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : (bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1);
const endpoints = (c: { total: number; byEndpoint: Record<string, number> }) =>
  `${c.total}${
    c.total
      ? ` (${Object.entries(c.byEndpoint)
          .map(([e, n]) => `${e.replace(' /v1/panel', ' ')} ×${n}`)
          .join(', ')})`
      : ''
  }`;

function sizeRow(name: string, b: Bundle, target = ''): string {
  return `| ${name} | ${kib(b.js.gzip)} | ${kib(b.css.gzip)} | **${kib(b.total.gzip)}** | ${kib(b.total.raw)} | ${target} |`;
}

/** How often, and where, a sync `loading` flag outlived its fetch. */
function stuckSummary(flags: Results['stuckLoadingFlags']): string {
  if (!flags.length) return 'No sync `loading` flag was left on after its fetch had finished.';
  const where = new Map<string, number>();
  for (const f of flags)
    where.set(`${f.area} (${f.at || 'between runs'})`, (where.get(`${f.area} (${f.at || 'between runs'})`) ?? 0) + 1);
  return (
    `**Seen while measuring**: a sync \`loading\` flag left on after its fetch had finished, ${flags.length} times: ` +
    [...where].map(([k, n]) => `${k} ×${n}`).join(', ') +
    '.'
  );
}

const spread = (p: { spread: { min: number; max: number } }) => `${p.spread.min}–${p.spread.max}`;

function wakeRow(name: string, w: WakeFigure, target: string): string {
  return `| ${name} | ${ms(w.ours)} | ${ms(w.minimal)} | **${w.ratio}** | ${spread(w)} | ${target} |`;
}

const reported = (p: { elementTiming: { reported: number; runs: number } }) =>
  `${p.elementTiming.reported} of ${p.elementTiming.runs}`;

/**
 * The headline: the warm popup against the floor page (the least a page can do to show a stored
 * balance), loaded in the same rounds, series by series, beside both against the blank page.
 */
function headline(timing: TimingReport): string[] {
  const { balance, withRows } = timing.popupToFloor;
  const { yardstick } = timing;
  return [
    `**Popup ÷ floor** (warm cache; blank page, floor page and popup loaded round by round in ${timing.series} series of ` +
      `${timing.warm.visible.runs / timing.series}, each round in another order; each series' popup median ÷ the same series' floor median)`,
    '',
    '| figure | popup ÷ floor | series | target | popup ÷ blank FCP | floor ÷ blank FCP | Element Timing reported |',
    '|---|---:|---|---|---:|---:|---|',
    `| header and balance painted | **${balance.ratio}** | ${balance.seriesRatios.join(', ')} | ≤ 1.1 | ${timing.warmBalance.ratioToBlankFcp} | ${timing.floor.ratioToBlankFcp} | ` +
      `popup ${reported(timing.warmBalance)} runs, floor ${reported(timing.floor)} |`,
    `| balance and the first reward rows painted | **${withRows.ratio}** | ${withRows.seriesRatios.join(', ')} | ≤ 1.2 | ${timing.warm.ratioToBlankFcp} | ${timing.floor.ratioToBlankFcp} | ` +
      `popup ${reported(timing.warm)} runs |`,
    ...(yardstick
      ? [
          `| header and balance painted, by the independent yardstick | **${yardstick.popupToFloor.ratio}** | ${yardstick.popupToFloor.seriesRatios.join(', ')} | ≤ 1.1 | ` +
            `${yardstick.popupToBlank.ratio} (÷ blank's line) | | entry missing in ${yardstick.missing} loads |`,
        ]
      : []),
    '',
    `${yardstick ? `The yardstick: ${yardstick.method} ${afterPageLine('The yardstick', yardstick.afterPage)} ` : ''}` +
      afterPageLine('The bench', timing.afterPage),
  ];
}

/** The issue-19 targets, each with what this run measured. */
function targets(r: Results): string[] {
  const { sizes, timing, wake, scale } = r;
  const find = (d: string, n: number) => scale.cases.find((c) => c.dimension === d && c.n === n);
  const rewards = find('rewards', 5_000);
  const ten = find('redemptions', 10)?.visible?.median;
  const many = find('redemptions', 10_000)?.visible?.median;
  const optionsRatio = ten && many ? (many / ten).toFixed(2) : 'n/a';
  return [
    '| figure | measured | target |',
    '|---|---|---|',
    `| popup, warm cache: balance painted ÷ blank first paint | **${timing.warmBalance.ratioToBlankFcp}** (series ${spread(timing.warmBalance)}) | ≤ 1.25 |`,
    `| popup, not connected: first paint (its prompt) ÷ blank | **${timing.notConnected.ratioToBlankFcp}** (series ${spread(timing.notConnected)}) | ≤ 1.15 |`,
    `| popup, goal set: layout shift after the first frame | **${timing.goalShift.median}** (max ${timing.goalShift.max}; goal shown in ${timing.goalShift.goalShown} of ${timing.goalShift.runs} loads) | 0 |`,
    `| popup, 5,000 rewards: main-thread tasks over 50 ms after content visible | **${rewards?.longTasksAfterContent ?? 'n/a'}** (most in one load; ${rewards?.busyAfterContent ?? 'n/a'} ms median in all) | 0 |`,
    `| options, 10,000 redemptions: content visible ÷ 10 redemptions | **${optionsRatio}** (${Math.round(many ?? NaN)} ms ÷ ${Math.round(ten ?? NaN)} ms) | ≤ 1.5 |`,
    `| worker wake-up, a message: stopped worker's first answer ÷ minimal worker's | **${wake.message.ratio}** (series ${spread(wake.message)}) | ≤ 1.3 |`,
    `| worker wake-up, an alarm: handler start ÷ minimal worker's | **${wake.alarm.ratio}** (series ${spread(wake.alarm)}) | ≤ 1.2 |`,
    `| popup first load, JS + CSS + popup.html gzip | **${kib(sizes.popup.first.total.gzip + sizes.popup.html.gzip)} KiB** (first frame: ${kib(sizes.popup.firstFrame.total.gzip)} KiB) | ≤ 24 KiB |`,
    `| connecting with ${r.connect.rewards.toLocaleString('en')} rewards: “Connected” shown ÷ the key check's own request | **${r.connect.connectedToKeyCheck.ratio}** (series ${spread(r.connect.connectedToKeyCheck)}; ${Math.round(r.connect.connected.median)} ms ÷ ${Math.round(r.connect.keyCheck.median)} ms) | ≤ 1.5 |`,
    `| connecting with ${r.connect.rewards.toLocaleString('en')} rewards: the catalogue in ÷ fetch + parse | **${r.connect.catalogueToFetch.ratio}** (series ${spread(r.connect.catalogueToFetch)}; ${Math.round(r.connect.catalogue.median)} ms ÷ ${Math.round(r.connect.fetchParse.median)} ms; storing it alone ${Math.round(r.connect.storeAlone.median)} ms) | ≤ 2 |`,
    `| floor page: balance painted ÷ blank first paint (for reference) | **${timing.floor.ratioToBlankFcp}** (series ${spread(timing.floor)}) | |`,
  ];
}

export function markdown(r: Results): string {
  const { sizes, timing, requests, scale, machine, wake } = r;
  const blank = timing.baseline.firstContentfulPaint;
  const lines = [
    `Measured ${machine.date} on ${machine.cores}× ${machine.cpu}, ${machine.os}, Node ${machine.node}, Chromium ${machine.chromium} ` +
      `and Firefox ${machine.firefox} (headless); commit ${machine.commit}; load average ${machine.loadAverage.start.join(' / ')} at start, ` +
      `${machine.loadAverage.end.join(' / ')} at end; \`npm run bench\` took ${machine.runSeconds} s.`,
    '',
    '**The background, memory and Firefox** (CONTRIBUTING.md, "Performance": "The worker, memory and Firefox")',
    '',
    ...summaryTable(r),
    '',
    ...headline(timing),
    '',
    '**Targets** (each figure explained in CONTRIBUTING.md, "Performance")',
    '',
    ...targets(r),
    '',
    '**Size** (KiB; gzip -9 unless said)',
    '',
    '| part | JS gzip | CSS gzip | total gzip | total raw | target |',
    '|---|---:|---:|---:|---:|---|',
    sizeRow('popup, first load (first-frame script, Preact and the app, CSS)', sizes.popup.first, '≤ 24 KiB gzip'),
    sizeRow('popup, of which the first frame (first-frame script, CSS)', sizes.popup.firstFrame),
    `| popup.html | | | **${kib(sizes.popup.html.gzip)}** | ${kib(sizes.popup.html.raw)} | |`,
    sizeRow('popup, lazy (details, sanitizer, options link)', sizes.popup.lazy),
    sizeRow('options page', sizes.options.first),
    sizeRow('background', sizes.background, '≤ 20 KiB gzip'),
    `| Chrome zip | | | | ${kib(sizes.zip.bytes)} | |`,
    '',
    "**Background** (module by module, from the build's source map: `npm run bench:size`)",
    '',
    ...modulesTable(r.background),
    '',
    ...firefoxLines(r),
    '',
    `**Popup load** (ms from navigation: median (min–max) of ${blank.runs} runs each; baseline in the same run. Blank page, floor ` +
      `and warm popup load round by round, each round in another order (the popup before connecting: blank page and popup, in turns first); ` +
      `${timing.series} series of ${blank.runs / timing.series}: "series" gives each series' own ratio to its own blank page, min–max; ` +
      '"reported": loads with an Element Timing entry for every element awaited)',
    '',
    '| page | visible | ÷ blank FCP | series | target | reported |',
    '|---|---:|---:|---|---|---|',
    `| blank extension page, first contentful paint (baseline) | ${ms(blank)} | 1.00 | | | |`,
    `| floor: static header, balance read from the popup view by a classic script | ${ms(timing.floor.visible)} | ` +
      `${timing.floor.ratioToBlankFcp} | ${spread(timing.floor)} | | ${reported(timing.floor)} |`,
    `| popup, not connected: its prompt painted (own blank baseline: ${ms(timing.notConnected.blankFcp)}) | ${ms(timing.notConnected.visible)} | ` +
      `${timing.notConnected.ratioToBlankFcp} | ${spread(timing.notConnected)} | ≤ 1.15 | ${reported(timing.notConnected)} |`,
    `| popup, warm cache: balance painted | ${ms(timing.warmBalance.visible)} | ${timing.warmBalance.ratioToBlankFcp} | ${spread(timing.warmBalance)} | ≤ 1.25 | ${reported(timing.warmBalance)} |`,
    `| popup, warm cache: balance and first reward painted | ${ms(timing.warm.visible)} | ${timing.warm.ratioToBlankFcp} | ${spread(timing.warm)} | | ${reported(timing.warm)} |`,
    `| popup, stale cache, every API answer delayed ${timing.stale.apiDelayMs} ms (one series) | ${ms(timing.stale.visible)} | ${(timing.stale.visible.median / blank.median).toFixed(2)} | | same as warm | |`,
    `| popup, cold (empty cache: API round trip included; one series) | ${ms(timing.cold.visible)} | ${timing.cold.ratioToBlankFcp} | | | |`,
    '',
    `**Scale** (ms from navigation, median (min–max); ${scale.runsNote} "Interactive": a click on the last rendered item ` +
      `(reward details, history "Show more", the last profile choice), issued as soon as the content was seen, answered on screen; ` +
      `"busy after": main-thread long tasks (ms in all, median) from content visible until the answer (rewards and redemptions: half a second after it); "tasks > 50 ms after": the most of them in one load. Heap: JS heap after load and a forced GC ` +
      `(blank page ${mib(scale.blankHeapBytes)} MiB). Storage: storage.local in use; quota ${mib(scale.storageQuotaBytes)} MiB.)`,
    '',
    '| data | page | API MiB | first load, empty cache (1 run) | content visible | interactive | click → answer | busy after | tasks > 50 ms after | heap MiB | worker heap MiB, woken / used | storage MiB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...scale.cases.map((c) =>
      c.failure && !c.visible
        ? `| ${c.n.toLocaleString('en')} ${c.dimension} | ${c.page} | ${mib(c.payloadBytes)} | **failed**: ${c.failure} | | | | | | | | ${mib(c.storageBytes)} |`
        : `| ${c.n.toLocaleString('en')} ${c.dimension} | ${c.page} | ${mib(c.payloadBytes)} | ${c.firstLoad ?? 'n/a'} | ${ms(c.visible)} | ` +
          `${ms(c.interactive)} | ${ms(c.clickToAnswer)} | ${c.busyAfterContent ?? 'n/a'} | ${c.longTasksAfterContent ?? 'n/a'} | ${mib(c.heapBytes)} | ` +
          `${mib(c.workerHeap?.woken.median)} / ${mib(c.workerHeap?.used.median)} | ${mib(c.storageBytes)} |`,
    ),
    '',
    ...Object.entries<ScaleReport['growth']['rewards']>(scale.growth).map(
      ([d, g]) =>
        `- ${d}: content ×${g.visible.ratioPer10x.join(', ×')} per 10× (${g.visible.verdict}; ${g.visible.marginalPerItem.join(', ')} ms per extra item); ` +
        `interactive ×${g.interactive.ratioPer10x.join(', ×') || 'n/a'} per 10×; heap ${g.heap.verdict}.`,
    ),
    '',
    `**Worker wake-up** (ms, median (min–max); ${wake.message.ours.runs} runs each by a message, ${wake.alarm.ours.runs} by an alarm, in alternating pairs, ` +
      `${timing.series} series; "series": each series' own ratio, min–max. ${wake.method})`,
    '',
    '| wake-up | this worker | minimal worker | ratio | series | target |',
    '|---|---:|---:|---:|---|---|',
    wakeRow("the popup's first message to a stopped worker, answered", wake.message, '≤ 1.3'),
    wakeRow('an alarm falling due while the worker is stopped: handler start', wake.alarm, '≤ 1.2'),
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
      requests.fleet
        .map((f) => `${f.installs.toLocaleString('en')} installs: ${f.requestsPerSecond} requests/s on average`)
        .join('; ') +
      `. ${requests.jitterNote}`,
    '',
    stuckSummary(r.stuckLoadingFlags),
  ];
  return lines.join('\n');
}
