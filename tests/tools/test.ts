/**
 * `npm test`, what CI runs: the checks of `npm run check` and Mozilla's lint of a release Firefox
 * build side by side (tests/tools/stages.ts), then, once they pass, both vitest projects in one pool
 * (vitest.config.ts), and one plain closing line "N passed, N failed" that CI can read (Vitest's own
 * summary is not a format it knows). Arguments go to vitest (`npm test -- -t 'redeem'`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { closingLine, type Closing, type VitestReport } from './closing-line';
import { MODULE_TIMES, type ModuleTime } from './module-times';
import { runAll, STATIC_CHECKS } from './stages';

const report = '.output/test-results.json';
mkdirSync('.output', { recursive: true });
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;

// Mozilla's linter over a release build of the Firefox add-on (CONTRIBUTING.md, "Firefox lint").
const checked = await runAll([
  ...STATIC_CHECKS,
  { name: 'firefox lint', command: ['tsx', 'tests/tools/lint-firefox.ts'] },
]);
if (!checked) {
  console.log(`checks failed (${elapsed()}); no test was run`);
  process.exit(1);
}

const args = [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  // Where each file's time went, hooks and builds included (module-times.ts).
  '--reporter=./tests/tools/module-times.ts',
  ...process.argv.slice(2),
];
// A report left by an earlier run must not speak for this one.
rmSync(report, { force: true });
const run = spawnSync('node_modules/.bin/vitest', args, { stdio: 'inherit' });

let closing: Closing | null = null;
try {
  closing = closingLine(JSON.parse(readFileSync(report, 'utf8')) as VitestReport, process.cwd());
} catch {
  // No report: nothing is known of the tests, and the run does not pass.
}
printTimeByPart();
console.log(`npm test took ${elapsed()}`);
for (const note of closing?.notes ?? []) console.log(note);
console.log(closing?.line ?? `no test report in ${report}: the tests' results are unknown`);
process.exit(run.status === 0 && closing?.failed === 0 && closing.passed > 0 ? 0 : 1);

/** The workers' time by project and part, summed over files (two workers share the wall clock). */
function printTimeByPart(): void {
  let times: ModuleTime[];
  try {
    times = JSON.parse(readFileSync(MODULE_TIMES, 'utf8')) as ModuleTime[];
  } catch {
    return;
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  for (const project of [...new Set(times.map((m) => m.project))].toSorted()) {
    const of = times.filter((m) => m.project === project);
    const sum = (part: (m: ModuleTime) => number) => of.reduce((total, m) => total + part(m), 0);
    console.log(
      `${project} (${of.length} files): tests ${s(sum((m) => m.tests))}, hooks ${s(sum((m) => m.testsAndHooks - m.tests))}, ` +
        `setup files ${s(sum((m) => m.setup))}, imports ${s(sum((m) => m.import))}`,
    );
  }
}
