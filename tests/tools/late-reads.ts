/**
 * `npm run test:late-reads [-- key…]`: the unit project's page tests (tests/unit/*.test.tsx), run
 * once for each item of utils/storage-items.ts with that item's reads answering late
 * (tests/unit/late-reads.ts), then
 * the tests that failed, by item. Each is a test that asserted a state it had not waited for: on a
 * busy machine it fails now and then in `npm test`. Not part of `npm test` (about a minute an item).
 *
 * Left out: the files whose tests read back what their stand-in background wrote, where that
 * stand-in answers a message by reading storage and writing it back (the profile draft's
 * `draftMessage`, the preferences' `setPreferences`), stepped by `settle()`. Made late, those reads
 * delay the stand-in, not the page, and two stand-in writes then interleave as no background's
 * would (it writes each in its own turn).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import * as items from '../../utils/storage-items';

const stored = Object.values(items).flatMap((value) =>
  value && typeof value === 'object' && 'key' in value && typeof value.key === 'string' ? [value.key] : [],
);
const keys = process.argv.length > 2 ? process.argv.slice(2) : stored;
const STAND_IN_WRITES = new Set([
  'options-profile.test.tsx',
  'options-answer-flow.test.tsx',
  'options-preferences.test.tsx',
  'options-notify-prefs.test.tsx',
  'variable-names-as-data.test.tsx',
]);
const files = readdirSync('tests/unit')
  .filter((name) => name.endsWith('.test.tsx') && !STAND_IN_WRITES.has(name))
  .map((name) => `tests/unit/${name}`);
const report = '.output/late-reads.json';

interface Result {
  assertionResults: { status: string; fullName: string }[];
  name: string;
  status: string;
}

const failures = new Map<string, string[]>();
for (const key of keys) {
  rmSync(report, { force: true });
  const args = [
    'run',
    '--project',
    'unit',
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...files,
  ];
  spawnSync('node_modules/.bin/vitest', args, { stdio: 'ignore', env: { ...process.env, LATE_READS: key } });
  let failed: string[];
  try {
    const results = JSON.parse(readFileSync(report, 'utf8')) as { testResults: Result[]; numTotalTests: number };
    failed = results.testResults.flatMap((file) => {
      const path = file.name.replace(`${process.cwd()}/`, '');
      const tests = file.assertionResults.filter((test) => test.status === 'failed');
      // A file that failed with no test failing failed as a whole (an import, a hook): said as such.
      if (tests.length === 0 && file.status === 'failed') return [`${path} (the file failed before its tests)`];
      return tests.map((test) => `${path} > ${test.fullName}`);
    });
    if (results.numTotalTests === 0) failed.push('(no test ran)');
  } catch {
    failed = ['(vitest wrote no report)'];
  }
  console.log(`${key}: ${failed.length === 0 ? 'every test passed' : `${failed.length} failed`}`);
  for (const name of failed) console.log(`  ${name}`);
  if (failed.length > 0) failures.set(key, failed);
}
rmSync(report, { force: true });
console.log(
  failures.size === 0
    ? `No test failed with any of ${keys.length} items read late.`
    : `Failed with ${failures.size} of ${keys.length} items read late.`,
);
process.exit(failures.size === 0 ? 0 : 1);
