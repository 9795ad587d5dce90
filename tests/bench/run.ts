/**
 * `npm run bench`: builds the release extension into .output/bench (API base URL = the bench
 * sandbox's port), starts the sandbox, loads the build into headless Chromium and measures size,
 * popup speed against a blank page, scale and API requests. Writes tests/bench/results.json and
 * results.md and prints the table. Measures only: nothing here asserts a timing.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { startSandbox, type Sandbox, type SandboxSeed } from '../sandbox/server';
import { launchBench } from './browser';
import { buildForBench } from './build';
import { BENCH_PORT, SERIES } from './config';
import { markdown, type Machine, type Results } from './report';
import { measureRequests } from './requests';
import { measureScale } from './scale';
import { measureSizes } from './sizes';
import { connectThroughOptions, stuckFlags } from './state';
import { measureNotConnected, measureTiming, measureWarm } from './timing';
import { measureWake } from './wake';

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
 * BENCH_ONLY=popup: only the warm popup against the floor and blank pages (a minute or two, for
 * trying a change); prints the figures and writes no results. BENCH_ONLY=popup,prompt adds the
 * popup before connecting.
 */
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);

async function popupOnly(): Promise<void> {
  const build = buildForBench();
  const sizes = measureSizes(build.extensionDir, build.zipPath);
  log(
    `popup first load ${(sizes.popup.first.total.gzip / 1024).toFixed(1)} KiB gzip; popup.html ${(sizes.popup.html.raw / 1024).toFixed(1)} KiB raw`,
  );
  const sandbox = await startSandbox({ port: BENCH_PORT });
  const bench = await launchBench(build.extensionDir, build.minimalDir);
  const show = (
    name: string,
    p: {
      visible: { median: number; min: number; max: number };
      ratioToBlankFcp: number;
      seriesRatios: number[];
      elementTiming: { reported: number; runs: number };
    },
  ) =>
    log(
      `${name}: ${p.visible.median} (${p.visible.min}–${p.visible.max}) ms, ÷ blank ${p.ratioToBlankFcp} (series ${p.seriesRatios.join(', ')}); Element Timing in ${p.elementTiming.reported} of ${p.elementTiming.runs} runs`,
    );
  try {
    if (only.includes('prompt')) show('popup, not connected', await measureNotConnected(bench));
    await connectThroughOptions(bench, sandbox.url, sandbox.token);
    const warm = await measureWarm(bench);
    show('floor', warm.floor);
    show('popup, balance', warm.warmBalance);
    show('popup, balance and rows', warm.warmPaired);
    log(
      `popup ÷ floor, balance: ${warm.popupToFloor.balance.ratio} (series ${warm.popupToFloor.balance.seriesRatios.join(', ')})`,
    );
    log(
      `popup ÷ floor, with rows: ${warm.popupToFloor.withRows.ratio} (series ${warm.popupToFloor.withRows.seriesRatios.join(', ')})`,
    );
  } finally {
    await bench.close();
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  log(`measuring commit ${measured}`);
  log('building the release extension into .output/bench');
  const build = buildForBench();
  const sizes = measureSizes(build.extensionDir, build.zipPath);

  let sandbox: Sandbox = await startSandbox({ port: BENCH_PORT });
  const reseed = async (seed: SandboxSeed) => {
    await sandbox.close();
    sandbox = await startSandbox({ port: BENCH_PORT, seed });
  };
  const bench = await launchBench(build.extensionDir, build.minimalDir);
  let results: Omit<Results, 'machine'>;
  try {
    log(`Chromium ${bench.browserVersion}; popup before connecting against the blank page, ${SERIES} series`);
    const notConnected = await measureNotConnected(bench);
    log('connecting through the options page');
    await connectThroughOptions(bench, sandbox.url, sandbox.token);
    log('popup timings (warm, stale with a slow API, cold) against the blank page');
    const timing = await measureTiming(bench, sandbox.url, notConnected, log);
    log('the worker waking up, against a minimal worker');
    const wake = await measureWake(bench, log);
    log('API requests');
    const requests = await measureRequests(bench, () => sandbox);
    log('scale');
    const scale = await measureScale(bench, reseed, log);
    results = { sizes, timing, wake, requests, scale, stuckLoadingFlags: stuckFlags };
  } finally {
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

(only.length ? popupOnly() : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
