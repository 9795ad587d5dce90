/**
 * `npm run bench:trace`: what stands between the floor page and the warm popup, as a Chromium trace
 * of each page's load. Builds and connects as `npm run bench` does, loads each page a few times to
 * warm it, then traces one load of each and prints, in milliseconds since navigation: the page's main
 * thread (resources, parse, script, style, layout, paint, commit, navigation timing and any `performance.mark`),
 * the raster tasks of its compositor, and the Element Timing the bench reads. The whole traces are
 * written to .output/bench/trace-<page>.json, for chrome://tracing or Perfetto. Measures only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession } from 'playwright-core';
import { startSandbox } from '../sandbox/server';
import { launchBench, type ExtensionPath } from './browser';
import { buildForBench } from './build';
import { BENCH_OUT_DIR, BENCH_PORT } from './config';
import { measureLoad } from './page-run';
import { ageCache, connectThroughOptions } from './state';
import { FLOOR, POPUP } from './timing';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; beginData?: Record<string, unknown> };
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'v8.execute',
  'cc',
];

/** Main-thread events worth a line; the rest is scheduling detail. */
const MAIN =
  /^(ParseHTML|EvaluateScript|v8\.compile|v8\.compileModule|v8\.evaluateModule|FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|UpdateLayoutTree|Layout|Paint|Commit|ParseAuthorStyleSheet|ResourceSendRequest|ResourceFinish|firstContentfulPaint)$/;
/** Instant events and marks are always shown; a slice only when it takes at least this long. */
const MIN_SLICE_US = 300;
/** How much of each load is printed. */
const WINDOW_MS = 400;

async function traced(session: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = ({ value }: { value: unknown[] }) => events.push(...(value as TraceEvent[]));
  session.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.start', {
    traceConfig: { includedCategories: CATEGORIES },
    transferMode: 'ReportEvents',
  });
  await run();
  await session.send('Tracing.end');
  await complete;
  session.off('Tracing.dataCollected', collect);
  return events;
}

function summarise(events: TraceEvent[], path: ExtensionPath): string[] {
  const nav = events
    .filter((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').endsWith(path))
    .at(-1);
  if (!nav) return [`${path}: no navigationStart in the trace`];
  const at = (e: TraceEvent) => (e.ts - nav.ts) / 1000;
  const inWindow = (e: TraceEvent) => e.ts >= nav.ts && at(e) <= WINDOW_MS && e.ph !== 'E';
  const lines: string[] = [];
  const line = (e: TraceEvent, where: string) => {
    const data = e.args?.data ?? e.args?.beginData ?? {};
    const what = String(data.url ?? data.type ?? data.styleSheetUrl ?? '').replace(/^.*\//, '');
    const dur = e.dur === undefined ? '' : ` ${(e.dur / 1000).toFixed(1)} ms`;
    lines.push(`${at(e).toFixed(1).padStart(7)}  ${where}${e.name}${dur} ${what}`.trimEnd());
  };
  const main = events.filter(
    (e) =>
      e.pid === nav.pid &&
      e.tid === nav.tid &&
      inWindow(e) &&
      (MAIN.test(e.name) || e.cat === 'blink.user_timing') &&
      (e.dur === undefined || e.dur >= MIN_SLICE_US || /Parse|Evaluate|compile|Commit/.test(e.name)),
  );
  const raster = events.filter((e) => e.pid === nav.pid && e.name === 'RasterTask' && inWindow(e));
  for (const e of [...main, ...raster].sort((a, b) => a.ts - b.ts))
    line(e, e.name === 'RasterTask' ? '  [raster] ' : '');
  return lines;
}

const build = buildForBench();
const sandbox = await startSandbox({ port: BENCH_PORT });
const bench = await launchBench(build.extensionDir, build.minimalDir);
try {
  await connectThroughOptions(bench, sandbox.url, sandbox.token);
  await ageCache(bench, 0);
  for (let i = 0; i < 4; i += 1) {
    await measureLoad(bench, FLOOR);
    await measureLoad(bench, POPUP);
  }
  const session = await bench.context.newCDPSession(await bench.load('blank.html', POPUP.viewport));
  for (const spec of [FLOOR, POPUP]) {
    let seen = '';
    const events = await traced(session, async () => {
      const load = await measureLoad(bench, spec);
      seen = `Element Timing: ${JSON.stringify(load.element)}; first contentful paint ${load.fcp}`;
    });
    const file = join(BENCH_OUT_DIR, `trace-${spec.path}.json`);
    writeFileSync(file, JSON.stringify({ traceEvents: events }));
    console.log([`== ${spec.path} (${file})`, ...summarise(events, spec.path), seen, ''].join('\n'));
  }
} finally {
  await bench.close();
  await sandbox.close();
}
