/** Where the benchmark builds, which port its sandbox uses, and how many runs each figure takes. */
export const BENCH_PORT = Number(process.env.BENCH_PORT ?? 8796);
export const BENCH_OUT_DIR = '.output/bench';
export const BENCH_EXTENSION_DIR = `${BENCH_OUT_DIR}/chrome-mv3`;
/** The Firefox build (MV2), measured in Debian's Firefox ESR (firefox.ts). */
export const BENCH_FIREFOX_DIR = `${BENCH_OUT_DIR}/firefox-mv2`;
/** The minimal extension (tests/bench/minimal), the yardstick of the worker's wake-up. */
export const BENCH_MINIMAL_DIR = `${BENCH_OUT_DIR}/minimal/chrome-mv3`;
export { CHROMIUM_PATH } from '../e2e/config';
/** Measured runs per timing (the issue asks for at least 20) and unmeasured warm-up runs before them. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 20);
export const WARMUP = 3;
/** Series of RUNS each for the popup timings (against the blank and floor pages); their spread shows how much one series can be trusted. */
export const SERIES = Number(process.env.BENCH_SERIES ?? 3);
/** Pairs per series for the worker's wake-up by an alarm: each waits for the alarm to fall due. */
export const ALARM_RUNS = Number(process.env.BENCH_ALARM_RUNS ?? 6);
/** Loads per case whose JS heap is read (after a forced GC); heap size barely varies. */
export const HEAP_RUNS = 3;
/** The popup's window: Chromium sizes a popup to its content, up to 800×600; ours is a 380 px column. */
export const POPUP_VIEWPORT = { width: 380, height: 600 };
/**
 * Between two measured loads in the same tab, the first is left for about:blank and this long passes
 * before the second starts. Without it a load paid for the page before it: the popup's app, which
 * starts after the first frame, was still fetching, compiling and rendering, and its document was
 * torn down inside the next page's navigation; a page loaded right after the popup took 20–30 ms
 * longer than after the floor or the blank page (results.json at dc0a9f0, by predecessor), and the
 * popup, never loaded after itself, was the one page that never paid. A panelist opens the popup
 * into an extension that is doing nothing else.
 */
export const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 200);
export const OPTIONS_VIEWPORT = { width: 1280, height: 720 };
export const SCALE = {
  rewards: [10, 100, 1_000, 5_000],
  variables: [10, 100, 1_000],
  redemptions: [10, 1_000, 10_000],
} as const;
