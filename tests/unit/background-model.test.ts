// @vitest-environment node
/**
 * Issue 10, point 6: a model-based test of the background. Random interleavings of redeems (the
 * panel committing late, committing then failing, dropping, refusing), refreshes, alarms, worker
 * restarts, account switches and profile writes, against the real background modules and two
 * sandbox accounts over real HTTP. After every step and at the end, the invariants in
 * model/invariants.ts are checked against the sandboxes' own records.
 *
 * MODEL_RUNS sets the number of runs (npm run soak: 10,000). A failure prints its seed, path and
 * replayPath: MODEL_SEED, MODEL_PATH and MODEL_REPLAY replay that shrunk command list.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS } from './model/commands';
import { checkFinal, initialModel } from './model/invariants';
import { World } from './model/world';

const RUNS = Number(process.env.MODEL_RUNS ?? 150);
/**
 * `npm test` replays the same 150 command lists every time (a fixed seed, so CI is reproducible);
 * `npm run soak` draws new ones on every run.
 */
const SEED =
  process.env.MODEL_SEED !== undefined
    ? Number(process.env.MODEL_SEED)
    : process.env.MODEL_RUNS === undefined
      ? 20_261_123
      : Date.now() ^ (Math.random() * 0x7fffffff);

let world: World;
beforeAll(async () => {
  world = await World.create();
});
afterAll(() => world.close());

it(`keeps every money and account invariant over ${RUNS} random runs`, async () => {
  const started = performance.now();
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 30, size: 'medium', ...(process.env.MODEL_REPLAY ? { replayPath: process.env.MODEL_REPLAY } : {}) }), async (commands) => {
      runs += 1;
      await world.begin();
      const model = initialModel();
      await fc.asyncModelRun(() => ({ model, real: world }), commands);
      await checkFinal(model, world);
    }),
    {
      numRuns: RUNS,
      seed: SEED,
      ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
      // The message names the seed and the shrunk command list; print it whole.
      verbose: 1,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `model-based test: ${runs} runs, ${world.steps} steps, ${world.checks} invariant checks, ${seconds.toFixed(1)} s (seed ${SEED})`,
  );
  if (!process.env.MODEL_PATH) expect(runs).toBeGreaterThanOrEqual(RUNS);
}, Math.max(600_000, RUNS * 2_000));
