/**
 * The unit project alone (no browsers), for Stryker's vitest runner (stryker.config.mjs).
 * `MUTATION_TESTS` (comma-separated globs) narrows it to the tests that concern the file mutated:
 * on a shared two-core machine the whole related suite's timing tests may fail the dry run.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { buildSettings, runtimeSettings } from '../../utils/build/operator/panel-config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  plugins: [WxtVitest()],
  define: {
    __BUILD_SETTINGS__: JSON.stringify(runtimeSettings(buildSettings({ PANEL_CONFIG: 'none' }, 'production'))),
    // The tests point the settings at a sandbox at run time: the sign-in code is in, and the
    // run-time check of the settings decides (utils/settings.ts).
    __SIGN_IN_BUILT__: 'true',
  },
  test: {
    include: process.env.MUTATION_TESTS?.split(',') ?? ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['tests/unit/i18n-setup.ts'],
    testTimeout: 20_000,
  },
});
