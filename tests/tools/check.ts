/**
 * `npm run check`: the typecheck, the import rules, Oxlint, Knip and Prettier, side by side, in
 * well under a minute once their caches are warm (CONTRIBUTING.md, "Checking a change"). The same
 * stages open `npm test`. Exits 1 when any fails, after every one has said what it found.
 */
import { runAll, STATIC_CHECKS } from './stages';

const started = performance.now();
const ok = await runAll(STATIC_CHECKS);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(ok ? `All checks passed in ${seconds} s.` : `Checks failed (${seconds} s).`);
process.exit(ok ? 0 : 1);
