import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { buildSettings, runtimeSettings } from './utils/build/operator/panel-config';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [WxtVitest()],
        define: {
          __BUILD_SETTINGS__: JSON.stringify(runtimeSettings(buildSettings({ PANEL_CONFIG: 'none' }, 'production'))),
        },
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/unit/i18n-setup.ts'],
          testTimeout: 20_000,
          // Vitest leaves a core free by default: one worker on CI's two cores. The unit files wait on
          // the sandbox's HTTP as much as they compute, so each core runs one (the browser tests
          // still run alone, after them).
          maxWorkers: availableParallelism(),
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // This lane's builds, made once per run before its first browser file (tests/e2e/builds.ts).
          setupFiles: ['tests/e2e/lane-setup.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
