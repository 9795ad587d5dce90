/**
 * `npm test`'s closing line, "N passed, N failed", from vitest's JSON report. Vitest counts the
 * tests of a file that failed outside them (a `beforeAll` that timed out, an import that threw) as
 * skipped, so its totals say "0 failed" for a run that failed. Here those tests count as failed
 * (a failed file with no test in the report as one), and a line before the closing one names each
 * such file with the first line of its error: the verdict says only what ran.
 */

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ status: string }>;
  }>;
}

export interface Closing {
  passed: number;
  failed: number;
  /** One line per file that failed outside its tests. */
  notes: string[];
  /** "N passed, N failed" and, when there are any, ", N skipped". */
  line: string;
}

export function closingLine(report: VitestReport, root: string): Closing {
  const passed = report.numPassedTests;
  let failed = report.numFailedTests;
  let skipped = report.numPendingTests + report.numTodoTests;
  const notes: string[] = [];
  for (const file of report.testResults) {
    if (file.status !== 'failed' || file.assertionResults.some((a) => a.status === 'failed')) continue;
    const notRun = file.assertionResults.filter((a) => a.status !== 'passed').length;
    skipped -= notRun;
    failed += Math.max(notRun, 1);
    const name = file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name;
    const why = file.message?.split('\n')[0]?.trim() || 'no message';
    const counted = notRun ? `its ${notRun} tests not run count as failed` : 'it counts as one failed';
    notes.push(`${name} failed outside its tests (${why}); ${counted}`);
  }
  return { passed, failed, notes, line: `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}` };
}
