import { defineConfig } from 'wxt';

/**
 * The benchmark's yardstick for the worker's wake-up: an extension whose background is
 * a listener per measured event and nothing else, built as the real one is (WXT, the same polyfill
 * module, a release build). Built by tests/bench/build.ts into .output/bench/minimal.
 */
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  imports: false,
  outDir: process.env.BENCH_MINIMAL_OUT_DIR ?? '.output',
  webExt: { disabled: true },
  manifest: { name: 'Bench minimal worker', version: '1.0.0', permissions: ['alarms'] },
});
