/**
 * `npm test`: typecheck, import rules, lint (Oxlint, Knip), format check (Prettier), Firefox lint, then every
 * vitest project (unit, then browser), then one plain closing line "N passed, N failed" that CI can read (Vitest's
 * own summary is not a format it knows).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

const report = '.output/test-results.json';
mkdirSync('.output', { recursive: true });

const typecheck = spawnSync('npx', ['tsc', '--noEmit', '-p', '.'], { stdio: 'inherit' });
if (typecheck.status !== 0) {
  console.log('typecheck failed');
  process.exit(1);
}

// The import rules (no circle, shared code never reaching up, no build code in a bundle: tests/tools/lint-imports.ts),
// then the same commands as `npm run lint` and `npm run format:check`, each named when it fails.
for (const [name, command] of [
  ['import rules', ['tsx', 'tests/tools/lint-imports.ts']],
  ['oxlint', ['oxlint']],
  ['knip', ['knip']],
  ['format check (npm run format fixes it)', ['prettier', '--check', '--cache', '--cache-strategy', 'content', '.']],
] as const) {
  const step = spawnSync('npx', command, { stdio: 'inherit' });
  if (step.status !== 0) {
    console.log(`${name} failed`);
    process.exit(1);
  }
}

// Mozilla's linter over a release build of the Firefox add-on (CONTRIBUTING.md, "Firefox lint").
const firefoxLint = spawnSync('npx', ['tsx', 'tests/tools/lint-firefox.ts'], { stdio: 'inherit' });
if (firefoxLint.status !== 0) {
  console.log('firefox lint failed');
  process.exit(1);
}

const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];
const run = spawnSync('npx', args, { stdio: 'inherit' });

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const results = JSON.parse(readFileSync(report, 'utf8')) as {
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
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
