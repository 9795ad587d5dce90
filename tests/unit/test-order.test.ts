// @vitest-environment node
/**
 * The order `npm test` gives its workers (tests/tools/sequencer.ts): the longest files first across
 * both projects, so the run never ends on one long file while the other core idles.
 */
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import LongestFirst from '../tools/sequencer';

type LastRun = { duration: number; failed: boolean };

function sequencer(records: { [key: string]: LastRun } = {}) {
  const ctx = {
    config: { root: '/repo' },
    cache: { getFileTestResults: (key: string) => records[key] },
  } as unknown as Vitest;
  return new LongestFirst(ctx);
}

const spec = (project: 'unit' | 'e2e', path: string) =>
  ({ project: { name: project }, moduleId: `/repo/${path}` }) as unknown as TestSpecification;
const paths = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.replace('/repo/', ''));

describe('the order of test files', () => {
  const files = [
    spec('unit', 'tests/unit/popup-list.test.tsx'),
    spec('e2e', 'tests/e2e/options.test.ts'),
    spec('unit', 'tests/unit/background-model.test.ts'),
    spec('e2e', 'tests/e2e/popup.test.ts'),
    spec('unit', 'tests/unit/api-hostile.test.ts'),
  ];

  it('on a fresh checkout: the files known to be long, then other browser files, then unit files', async () => {
    expect(paths(await sequencer().sort(files))).toEqual([
      'tests/e2e/popup.test.ts',
      'tests/unit/background-model.test.ts',
      'tests/unit/api-hostile.test.ts',
      'tests/e2e/options.test.ts',
      'tests/unit/popup-list.test.tsx',
    ]);
  });

  it('after a run: by the time each file took, a failed one first, a new one by its estimate', async () => {
    const sorted = await sequencer({
      'unit:tests/unit/popup-list.test.tsx': { duration: 1_200, failed: true },
      'e2e:tests/e2e/options.test.ts': { duration: 6_700, failed: false },
      'unit:tests/unit/background-model.test.ts': { duration: 58_000, failed: false },
      'e2e:tests/e2e/popup.test.ts': { duration: 76_000, failed: false },
    }).sort(files);
    expect(paths(sorted)).toEqual([
      'tests/unit/popup-list.test.tsx',
      'tests/e2e/popup.test.ts',
      'tests/unit/background-model.test.ts',
      'tests/unit/api-hostile.test.ts',
      'tests/e2e/options.test.ts',
    ]);
  });
});
