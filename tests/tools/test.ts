/**
 * `npm test`, what CI runs: the checks of `npm run check` and Mozilla's lint of a release Firefox
 * build (tests/tools/stages.ts), both vitest projects in one pool (vitest.config.ts), and one plain
 * closing line "N passed, N failed" that CI can read (Vitest's own summary is not a format it
 * knows). Arguments go to vitest (`npm test -- -t 'redeem'`).
 *
 * The tests start once the checks that read the TypeScript settings have passed (the typecheck,
 * Knip, Oxlint, the import rules): a build rewrites `.wxt/tsconfig.json`. Prettier (at the lowest
 * CPU priority, so it takes what the tests leave idle) and the Firefox lint (its build under the
 * build lock) run on beside them; any check that fails stops the tests at once.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { report, runAll, runStage, STATIC_CHECKS, type Stage } from './stages';

const report_ = '.output/test-results.json';
mkdirSync('.output', { recursive: true });
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// Mozilla's linter over a release build of the Firefox add-on (CONTRIBUTING.md, "Firefox lint").
const FIREFOX_LINT: Stage = { name: 'firefox lint', command: ['tsx', 'tests/tools/lint-firefox.ts'] };

let vitest: ReturnType<typeof spawn> | null = null;
let besideFailed = false;
/**
 * Stops the tests. vitest ends its workers, and they their browsers and servers, as on a Ctrl-C.
 * Not a process group of their own: Linux schedules each session as one group (autogroup), which
 * would weigh all the tests together as much as Prettier alone, whatever its priority.
 */
function stopTests(): void {
  vitest?.kill('SIGTERM');
}

const beside = Promise.all(
  [
    ...STATIC_CHECKS.filter((stage) => stage.besideTests).map((stage) => runStage(stage, { lowPriority: true })),
    runStage(FIREFOX_LINT),
  ].map((outcome) =>
    outcome.then((done) => {
      report(done);
      if (!done.ok && !besideFailed) {
        besideFailed = true;
        stopTests();
      }
      return done.ok;
    }),
  ),
);

if (!(await runAll(STATIC_CHECKS.filter((stage) => !stage.besideTests)))) {
  await beside;
  console.log(`checks failed (${elapsed()}); no test was run`);
  process.exit(1);
}

const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report_}`, ...process.argv.slice(2)];
// undefined: the tests never started; null: they were stopped by a signal.
const exit = besideFailed
  ? undefined
  : await new Promise<number | null>((resolve) => {
      const child = spawn('node_modules/.bin/vitest', args, { stdio: 'inherit' });
      vitest = child;
      child.on('close', (code) => resolve(code));
    });
if (!(await beside).every(Boolean)) {
  console.log(`checks failed (${elapsed()}); ${exit === undefined ? 'no test was run' : 'the tests were stopped'}`);
  process.exit(1);
}

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const results = JSON.parse(readFileSync(report_, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed = results.numPassedTests;
  failed = results.numFailedTests;
  skipped = results.numPendingTests + results.numTodoTests;
} catch {
  failed = Math.max(failed, 1);
}
console.log(`npm test took ${elapsed()}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(exit === 0 && failed === 0 && passed > 0 ? 0 : 1);
