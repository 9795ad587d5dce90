// @vitest-environment node
/**
 * `npm test`'s closing line (tests/tools/closing-line.ts). A run where store.test.ts's `beforeAll`
 * timed out ended "2411 passed, 0 failed, 6 skipped" from vitest's own totals; these cases hold
 * what the line must say instead. Breakages it failed on: the failed file's tests left as skipped
 * (the old line), a file with a failed test counted twice, a failed file with no test not counted.
 */
import { describe, expect, it } from 'vitest';
import { closingLine, type VitestReport } from '../tools/closing-line';

const ROOT = '/repo';
const file = (name: string, statuses: string[], status = 'passed', message?: string) => ({
  name: `${ROOT}/${name}`,
  status,
  ...(message === undefined ? {} : { message }),
  assertionResults: statuses.map((s) => ({ status: s })),
});

function report(files: VitestReport['testResults']): VitestReport {
  const all = files.flatMap((f) => f.assertionResults);
  const count = (s: string) => all.filter((a) => a.status === s).length;
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('skipped') + count('pending'),
    numTodoTests: count('todo'),
    testResults: files,
  };
}

describe("npm test's closing line", () => {
  it('a green run: the counts, a deliberately skipped test as skipped', () => {
    const closing = closingLine(report([file('tests/unit/a.test.ts', ['passed', 'passed', 'skipped'])]), ROOT);
    expect(closing).toEqual({ passed: 2, failed: 0, notes: [], line: '2 passed, 0 failed, 1 skipped' });
  });

  it("a beforeAll that timed out: the file's tests not run count as failed, and the file is named with why", () => {
    const closing = closingLine(
      report([
        file('tests/unit/a.test.ts', ['passed', 'passed']),
        file(
          'tests/e2e/store.test.ts',
          ['skipped', 'skipped', 'skipped'],
          'failed',
          'Hook timed out in 300000ms.\nIf this is a long-running hook, pass a timeout value…',
        ),
      ]),
      ROOT,
    );
    expect(closing.line).toBe('2 passed, 3 failed');
    expect(closing.notes).toEqual([
      'tests/e2e/store.test.ts failed outside its tests (Hook timed out in 300000ms.); its 3 tests not run count as failed',
    ]);
  });

  it('a file that failed before any test was collected counts as one failed', () => {
    const closing = closingLine(
      report([file('tests/e2e/broken.test.ts', [], 'failed', 'SyntaxError: Unexpected token')]),
      ROOT,
    );
    expect(closing).toMatchObject({ passed: 0, failed: 1, line: '0 passed, 1 failed' });
    expect(closing.notes[0]).toBe(
      'tests/e2e/broken.test.ts failed outside its tests (SyntaxError: Unexpected token); it counts as one failed',
    );
  });

  it('a file whose own test failed is counted once, by its tests', () => {
    const closing = closingLine(
      report([file('tests/unit/b.test.ts', ['passed', 'failed', 'skipped'], 'failed')]),
      ROOT,
    );
    expect(closing).toEqual({ passed: 1, failed: 1, notes: [], line: '1 passed, 1 failed, 1 skipped' });
  });
});
