/**
 * `npm run bench`: builds the release extension for Chrome and Firefox into .output/bench (API base
 * URL = the bench sandbox's port), starts the sandbox, loads the build into headless Chromium and
 * measures size (the background module by module too), popup speed against a blank page and the
 * floor, the worker's wake-up and heap, scale and API requests; then the balance by an independent
 * yardstick in a second Chromium, and the popup against the floor and the blank page in Firefox ESR.
 * Writes tests/bench/results.json and results.md and prints the tables. Measures only: nothing here
 * asserts a timing.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { startSandbox, type Sandbox, type SandboxSeed } from '../sandbox/server';
import { measureBackground } from './background-size';
import { launchBench } from './browser';
import { buildForBench } from './build';
import { BENCH_PORT, SERIES } from './config';
import { markdown, type Machine, type Results } from './report';
import { modulesTable } from './report-modules';
import { measureRequests } from './requests';
import { measureScale, measureWorkerHeap } from './scale';
import { measureSizes } from './sizes';
import { connectThroughOptions, stuckFlags } from './state';
import { measureNotConnected, measureTiming, measureWarm, type TimingReport } from './timing';
import { measureFirefox } from './firefox';
import { measureConnect, type ConnectReport } from './connect';
import { makeScaledSeed } from '../sandbox/scale';
import { measureWake } from './wake';
import { launchYardstick } from './yardstick';
import { afterPageLine } from './report-summary';

const started = Date.now();
const loadStart = loadavg().map((n) => Math.round(n * 100) / 100);
const log = (line: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0)} s] ${line}`);

/**
 * The commit measured. Published figures come from a clean tree: with uncommitted changes (untracked
 * files included, except the bench's own output) the bench stops, unless BENCH_ALLOW_DIRTY=1, and
 * then every figure is marked as not from a commit; so are figures of a build changed by BENCH_PATCH.
 */
function commit(): string {
  let head = 'unknown';
  let dirty: string[] = [];
  try {
    head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() && !/tests\/bench\/results\.(json|md)$/.test(line));
  } catch {
    dirty = ['(git status failed)'];
  }
  if (process.env.BENCH_PATCH) return `${head} + ${process.env.BENCH_PATCH} on the build (NOT FOR PUBLICATION)`;
  if (dirty.length === 0) return head;
  if (process.env.BENCH_ALLOW_DIRTY !== '1') {
    console.error(
      `[bench] refusing to measure ${head} with uncommitted changes (commit them, or BENCH_ALLOW_DIRTY=1 for figures not to publish):\n${dirty.join('\n')}`,
    );
    process.exit(2);
  }
  return `${head} + uncommitted changes (NOT FOR PUBLICATION)`;
}

const measured = commit();

/**
 * BENCH_ONLY, a comma-separated list of parts, measures only those (a minute or a few, for trying a
 * change), prints their figures and writes no results: `popup` (the warm popup against the floor and
 * blank pages), `prompt` (the popup before connecting), `yardstick` (the balance by the independent
 * yardstick, beside `popup`'s), `firefox`, `worker` (wake-up and heap of the worker), `size` (the
 * background module by module, as `npm run bench:size`).
 */
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);

/** The catalogue connecting is measured with: the size at which a panelist saw "Connecting…" for 35 s. */
const CONNECT_REWARDS = 5_000;

type Show = {
  visible: { median: number; min: number; max: number };
  ratioToBlankFcp: number;
  seriesRatios: number[];
  elementTiming: { reported: number; runs: number };
};
const show = (name: string, p: Show) =>
  log(
    `${name}: ${p.visible.median} (${p.visible.min}–${p.visible.max}) ms, ÷ blank ${p.ratioToBlankFcp} (series ${p.seriesRatios.join(', ')}); Element Timing in ${p.elementTiming.reported} of ${p.elementTiming.runs} runs`,
  );
const ratioLine = (name: string, f: { ratio: number; seriesRatios: number[] }) =>
  log(`${name}: ${f.ratio} (series ${f.seriesRatios.join(', ')})`);

/** `BENCH_ONLY=connect`: connecting with 5,000 rewards, against a sandbox seeded with them. */
async function partialConnect(build: ReturnType<typeof buildForBench>): Promise<void> {
  const sandbox = await startSandbox({ port: BENCH_PORT, seed: makeScaledSeed({ rewards: CONNECT_REWARDS }) });
  try {
    const bench = await launchBench(build.extensionDir, build.minimalDir);
    try {
      connectLines(await measureConnect(bench, sandbox, CONNECT_REWARDS));
    } finally {
      await bench.close();
    }
  } finally {
    await sandbox.close();
  }
}

function connectLines(c: ConnectReport): void {
  log(
    `connecting with ${c.rewards} rewards (${(c.catalogueBytes / 1e6).toFixed(1)} MB): Connected ${c.connected.median} (${c.connected.min}–${c.connected.max}) ms, ` +
      `catalogue in ${c.catalogue.median} (${c.catalogue.min}–${c.catalogue.max}) ms; key check's own request ${c.keyCheck.median} ms, ` +
      `fetch + parse ${c.fetchParse.median} ms; storing it alone ${c.storeAlone.median} ms`,
  );
  ratioLine("Connected ÷ the key check's own request", c.connectedToKeyCheck);
  ratioLine('the catalogue in ÷ fetch + parse', c.catalogueToFetch);
}

async function partial(): Promise<void> {
  const build = buildForBench();
  if (only.includes('connect')) await partialConnect(build);
  if (only.every((part) => part === 'connect')) return;
  const sizes = measureSizes(build.extensionDir, build.zipPath);
  log(
    `popup first load ${(sizes.popup.first.total.gzip / 1024).toFixed(1)} KiB gzip; background ${(sizes.background.total.gzip / 1024).toFixed(1)} KiB gzip`,
  );
  if (only.includes('size')) {
    const size = measureBackground({ chrome: build.extensionDir, firefox: build.firefoxDir });
    console.log(modulesTable(size).join('\n'));
  }
  const sandbox = await startSandbox({ port: BENCH_PORT });
  try {
    const bench = await launchBench(build.extensionDir, build.minimalDir);
    const yardstick = only.includes('yardstick') ? await launchYardstick(sandbox) : undefined;
    try {
      if (only.includes('prompt')) show('popup, not connected', await measureNotConnected(bench));
      await connectThroughOptions(bench, sandbox.url, sandbox.token);
      if (only.includes('popup') || yardstick) {
        const warm = await measureWarm(bench, yardstick);
        show('floor', warm.floor);
        show('popup, balance', warm.warmBalance);
        show('popup, balance and rows', warm.warmPaired);
        ratioLine('popup ÷ floor, balance', warm.popupToFloor.balance);
        ratioLine('popup ÷ floor, with rows', warm.popupToFloor.withRows);
        log(afterPageLine('the bench', warm.afterPage));
        if (warm.yardstick) {
          const y = warm.yardstick;
          ratioLine(`yardstick: popup ÷ floor, balance (entry missing in ${y.missing} loads)`, y.popupToFloor);
          ratioLine('yardstick: popup ÷ blank', y.popupToBlank);
          log(afterPageLine('the yardstick', y.afterPage));
        }
      }
      if (only.includes('worker')) {
        const wake = await measureWake(bench, log);
        ratioLine('wake-up by a message ÷ minimal', wake.message);
        ratioLine('wake-up by an alarm ÷ minimal', wake.alarm);
        const heap = await measureWorkerHeap(bench);
        log(
          `worker heap after GC, woken: ${heap.woken} B (minimal worker ${heap.minimal} B); after use: ${heap.used} B`,
        );
      }
    } finally {
      await bench.close();
      await yardstick?.close();
    }
    if (only.includes('firefox')) {
      const ff = await measureFirefox(build.firefoxDir, sandbox, log);
      ratioLine('Firefox popup ÷ floor, balance', ff.popupToFloor.balance);
      ratioLine('Firefox popup ÷ floor, with rows', ff.popupToFloor.withRows);
      ratioLine('Firefox popup ÷ blank, balance', ff.popupToBlank.balance);
      ratioLine('Firefox popup not connected ÷ blank', ff.notConnected.promptToBlank);
      ratioLine('Firefox floor ÷ blank', ff.floorToBlank);
      log(afterPageLine('Firefox', ff.afterPage));
    }
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  log(`measuring commit ${measured}`);
  log('building the release extension into .output/bench');
  const build = buildForBench();
  const sizes = measureSizes(build.extensionDir, build.zipPath);
  log('the background module by module, Chrome and Firefox (builds with source maps)');
  const background = measureBackground({ chrome: build.extensionDir, firefox: build.firefoxDir });

  let sandbox: Sandbox = await startSandbox({ port: BENCH_PORT });
  const reseed = async (seed: SandboxSeed) => {
    await sandbox.close();
    sandbox = await startSandbox({ port: BENCH_PORT, seed });
  };
  const bench = await launchBench(build.extensionDir, build.minimalDir);
  let results: Omit<Results, 'machine'>;
  let firefoxVersion = 'unknown';
  try {
    log(`Chromium ${bench.browserVersion}; popup before connecting against the blank page, ${SERIES} series`);
    const notConnected = await measureNotConnected(bench);
    log('connecting through the options page');
    await connectThroughOptions(bench, sandbox.url, sandbox.token);
    log('popup timings (warm, beside the independent yardstick in a Chromium of its own; stale with a slow API; cold)');
    const yardstick = await launchYardstick(sandbox);
    let timing: TimingReport;
    try {
      timing = await measureTiming(bench, sandbox.url, notConnected, log, yardstick);
    } finally {
      await yardstick.close();
    }
    log('the worker waking up, against a minimal worker');
    const wake = await measureWake(bench, log);
    log('API requests');
    const requests = await measureRequests(bench, () => sandbox);
    log('scale');
    const scale = await measureScale(bench, reseed, log);
    log(`connecting with ${CONNECT_REWARDS} rewards`);
    await reseed(makeScaledSeed({ rewards: CONNECT_REWARDS }));
    const connect = await measureConnect(bench, sandbox, CONNECT_REWARDS);
    connectLines(connect);
    await bench.close();
    // The default seed again, as the bench connected to at first.
    await sandbox.close();
    sandbox = await startSandbox({ port: BENCH_PORT });
    log('Firefox ESR');
    const firefox = await measureFirefox(build.firefoxDir, sandbox, log);
    firefoxVersion = firefox.browserVersion;
    results = { sizes, background, timing, firefox, wake, requests, scale, connect, stuckLoadingFlags: stuckFlags };
  } finally {
    // Closing twice is harmless: the context is closed once and its profile removed with force.
    await bench.close();
    await sandbox.close();
  }

  const cpu = cpus();
  const machine: Machine = {
    date: new Date().toISOString(),
    commit: measured,
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.version,
    chromium: bench.browserVersion,
    firefox: firefoxVersion,
    loadAverage: { start: loadStart, end: loadavg().map((n) => Math.round(n * 100) / 100) },
    runSeconds: Math.round((Date.now() - started) / 1000),
  };
  const full: Results = { machine, ...results };
  const table = markdown(full);
  writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(full, null, 2)}\n`);
  writeFileSync(new URL('./results.md', import.meta.url), `${table}\n`);
  console.log(`\n${table}\n`);
  log('wrote tests/bench/results.json and tests/bench/results.md');
}

(only.length ? partial() : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
