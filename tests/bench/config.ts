/** Where the benchmark builds, which port its sandbox uses, and how many runs each figure takes. */
export const BENCH_PORT = Number(process.env.BENCH_PORT ?? 8796);
export const BENCH_OUT_DIR = '.output/bench';
export const BENCH_EXTENSION_DIR = `${BENCH_OUT_DIR}/chrome-mv3`;
/** The minimal extension (tests/bench/minimal), the yardstick of the worker's wake-up. */
export const BENCH_MINIMAL_DIR = `${BENCH_OUT_DIR}/minimal/chrome-mv3`;
export { CHROMIUM_PATH } from '../e2e/config';
/** Measured runs per timing (at least 20, so a median means something on a noisy machine) and unmeasured warm-up runs before them. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 20);
export const WARMUP = 3;
/** Series of RUNS each for the popup timings (against the blank and floor pages); their spread shows how much one series can be trusted. */
export const SERIES = Number(process.env.BENCH_SERIES ?? 3);
/** Pairs per series for the worker's wake-up by an alarm: each waits for the alarm to fall due. */
export const ALARM_RUNS = Number(process.env.BENCH_ALARM_RUNS ?? 6);
/** Loads per case whose JS heap is read (after a forced GC); heap size barely varies. */
export const HEAP_RUNS = 3;
/** The popup's window: Chromium's popups are at most 800×600; ours is a narrow column. */
export const POPUP_VIEWPORT = { width: 400, height: 600 };
export const OPTIONS_VIEWPORT = { width: 1280, height: 720 };
export const SCALE = {
  rewards: [10, 100, 1_000, 5_000],
  variables: [10, 100, 1_000],
  redemptions: [10, 1_000, 10_000],
} as const;
