/**
 * Mutation testing of the background's session and money modules, over the unit tests:
 * `npm run mutation` (dev-only, not part of `npm test`; about 40 minutes here). Stryker 9.6.1 is the
 * last line that runs on Node 20. Figures and what the survivors showed: CONTRIBUTING.md, "Mutation testing and the soak".
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'tests/tools/vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  // These machines have two cores.
  concurrency: 2,
  mutate: [
    'entrypoints/background/redemption/machine.ts',
    'entrypoints/background/redemption/balance.ts',
    'entrypoints/background/redemption/repeats.ts',
    'entrypoints/background/redemption/match.ts',
    'entrypoints/background/redemption/service.ts',
    'entrypoints/background/redemption/fresh-reads.ts',
    'entrypoints/background/redemption/before-sending.ts',
    'entrypoints/background/session/account-identity.ts',
    'entrypoints/background/session/same-account.ts',
    'entrypoints/background/session/session.ts',
    'entrypoints/background/store/stored-ids.ts',
    'utils/ids.ts',
    'utils/instants.ts',
    'components/popup/redeem/redeem-model.ts',
    'entrypoints/background/store/store.ts',
    'entrypoints/background/auth/tokens.ts',
    'utils/serial-queue.ts',
  ],
  // TypeScript 7 has no JavaScript API for Stryker's tsconfig rewrite; a file that does not exist
  // makes Stryker skip it (the sources are transpiled by Vitest as usual).
  tsconfigFile: 'tsconfig.stryker-none.json',
  // .wxt (made by wxt prepare) stays: tsconfig.json extends it.
  ignorePatterns: ['.output', 'reports', 'node_modules'],
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 90, low: 85, break: 85 },
  timeoutMS: 30_000,
};
