/**
 * The order vitest hands test files to its workers: the longest first, so a run never ends with one
 * long file on one core while the other has nothing left (longest-processing-time scheduling). The
 * unit and browser projects share the pool (vitest.config.ts), so the order runs across both.
 *
 * How long a file takes comes from vitest's record of the last run where there is one. On a fresh
 * checkout, as in CI, there is none, and it is estimated: the files below as full runs measured
 * them (JOURNAL.md, "The test suite's time"; rounded, builds and hooks included), any other browser
 * file at about 20 s (it launches browsers and waits on them), any other unit file at about 2 s. An
 * estimate that has gone stale costs only a less even split, never a result.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ESTIMATE_MS = { e2e: 20_000, unit: 2_000 } as const;
const KNOWN_MS: Record<string, number> = {
  // The longest six in the lead's run on a quiet two-core machine (main at 8e6667a, 655 s).
  'tests/e2e/popup.test.ts': 85_000,
  'tests/e2e/firefox-openid-provider.test.ts': 82_000,
  'tests/e2e/firefox-sign-in-tab.test.ts': 60_000,
  'tests/e2e/release.test.ts': 55_000,
  'tests/e2e/fit.test.ts': 55_000,
  // Property-based: its run counts, not its size, make it long.
  'tests/unit/background-model.test.ts': 41_000,
  // Each under 41 s in that run: these figures only keep the order an earlier full run measured.
  'tests/e2e/openid-provider.test.ts': 40_000,
  'tests/e2e/money-path.test.ts': 40_000,
  'tests/e2e/store.test.ts': 40_000,
  'tests/e2e/extension-ids.test.ts': 39_000,
  'tests/e2e/firefox-sign-in.test.ts': 38_000,
  'tests/e2e/reliability.test.ts': 38_000,
  'tests/e2e/firefox-resent-refused.test.ts': 35_000,
  'tests/e2e/sign-in-tab.test.ts': 30_000,
  'tests/e2e/phone-layout.test.ts': 30_000,
  'tests/unit/api-hostile.test.ts': 25_000,
};

const FAILED_FIRST = 1e9;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      // A file that failed last time goes first, so its news comes early, as vitest's own order does.
      if (last) return last.duration + (last.failed ? FAILED_FIRST : 0);
      return KNOWN_MS[path] ?? (spec.project.name === 'e2e' ? ESTIMATE_MS.e2e : ESTIMATE_MS.unit);
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    return [...files].sort((a, b) => weights.get(b)! - weights.get(a)!);
  }
}
