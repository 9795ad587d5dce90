// @vitest-environment node
/**
 * A model-based test of the background. Random
 * interleavings of redeems (the panel committing late, committing then failing, dropping, refusing,
 * the browser re-sending one), refreshes, alarms, worker restarts and stops between any two storage
 * or network calls, account switches (pasted keys and OAuth sign-in, whose tokens expire and rotate
 * and whose token endpoint may answer 429, 500, invalid_grant or nothing), storage that is nearly
 * full, profile writes, draft edits from two pages at once or from a page of an ended session,
 * two preference changes at once, goals set while a balance read is out, and a second key of the
 * same account after a refusal, against the real background modules and two sandbox accounts over real
 * HTTP. The panels also answer a re-sent copy 429 while the first commits, reprice a reward between
 * the list and Confirm, give a reward no cost or its id twice at two costs, respell every created_at
 * between reads, fail the history reads of checks, give the balance in the values answer and fail
 * its reads while the rewards answer comes, and give a deleted redemption's id to the next
 * within the same second (the Confirm's own too); the worker stops after any one of a Confirm's
 * calls. Storage and the network answer after random small delays, in any order; each panel runs its
 * own clock, up to 10 minutes off. After every step and at the end, the invariants in
 * model/invariants.ts are checked against the sandboxes' own records.
 *
 * Trusted because it failed on deliberate breakages (each with a fresh seed, a few hundred runs at
 * most): a 429 read as a refusal ("nothing charged" said on a 429, in 15 runs); the price check
 * removed (a Confirm at 11,000 points carried out at 11,001, in 14 runs); created_at compared as the
 * panel's text (2 redemptions reported done where the panel made none, in 28 runs); a balance not
 * read taken for one the panel does not show (a Confirm's balance before sending stored as null, in
 * 61 runs of the fixed seed); and, earlier,
 * the history read once, 409 as a refusal, a success with nothing recorded reported done.
 *
 * MODEL_RUNS sets the number of runs (npm run soak: 10,000). A failure prints its seed, path and
 * replayPath: MODEL_SEED, MODEL_PATH and MODEL_REPLAY replay that shrunk command list.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS, RUN_SETTINGS } from './model/commands';
import { checkFinal, initialModel } from './model/invariants';
import { sleep, World } from './model/world';

const RUNS = Number(process.env.MODEL_RUNS ?? 80);
/**
 * `npm test` replays the same 80 command lists every time (a fixed seed, so CI is reproducible);
 * `npm run soak` draws new ones on every run.
 */
const SEED =
  process.env.MODEL_SEED !== undefined
    ? Number(process.env.MODEL_SEED)
    : process.env.MODEL_RUNS === undefined
      ? 20_261_123
      : Date.now() ^ (Math.random() * 0x7fffffff);

let world: World;
/** A run with no clock skew, tokens that outlive it, a panel ignoring Idempotency-Key, plain ids. */
const QUIET = {
  seed: 1,
  skew: { A: 0, B: 0 },
  tokenSeconds: 3600,
  idempotency: false,
  ids: 'numbers',
  sharedNumbering: false,
  historyLagMs: 0,
  balanceIn: 'rewards',
} as const;
beforeAll(async () => {
  world = await World.create();
});
afterAll(() => world.close());

it(
  `keeps every money and account invariant over ${RUNS} random runs`,
  async () => {
    const started = performance.now();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        RUN_SETTINGS,
        fc.commands(COMMANDS, {
          maxCommands: 30,
          size: 'medium',
          ...(process.env.MODEL_REPLAY ? { replayPath: process.env.MODEL_REPLAY } : {}),
        }),
        async (settings, commands) => {
          runs += 1;
          // A soak that must be stopped early can still say how far it got clean.
          if (RUNS >= 1_000 && runs % 250 === 0) console.log(`model-based test: run ${runs} of ${RUNS} (seed ${SEED})`);
          await world.begin(settings);
          const model = initialModel();
          await fc.asyncModelRun(() => ({ model, real: world }), commands);
          await checkFinal(model, world);
        },
      ),
      {
        numRuns: RUNS,
        seed: SEED,
        ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
        // The message names the seed and the shrunk command list; print it whole.
        verbose: 1,
        // A run that hangs is a failure with its command list, not a stalled suite.
        timeout: 60_000,
        // MODEL_NO_SHRINK=1 replays a failure as it came (shrinking a long list can take an hour).
        ...(process.env.MODEL_NO_SHRINK ? { endOnFailure: true } : {}),
      },
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `model-based test: ${runs} runs, ${world.steps} steps, ${world.checks} invariant checks, ${seconds.toFixed(1)} s (seed ${SEED})`,
    );
    if (!process.env.MODEL_PATH) expect(runs).toBeGreaterThanOrEqual(RUNS);
  },
  Math.max(600_000, RUNS * 2_000),
);

/**
 * The soak's counterexample on a busy machine (seeds 899900461, 602062637, 284038034): the browser
 * re-sends a Confirm and the panel commits the copy a moment after the first, while its history
 * lags. The read that first shows the Confirm's own shows the first copy and not yet the second:
 * design §5 makes one a later read shows one more in the history, not a repeat, so the copy is owed
 * no telling. Here the copies are a second apart, and the read lands between them by the lag the
 * test sets, not by the machine's load.
 */
it('owes the telling only of the copies the read naming a Confirm could show', async () => {
  await world.begin({ ...QUIET, historyLagMs: 30 });
  const model = initialModel();
  const panel = world.sandbox('A');
  // Nothing new shows yet: the Confirm's answer is lost, and it stays open.
  panel.state.historyLagMs = 3_600_000;
  await world.fault('A', { path: '/v1/panel/redemption', repeat: true, delayMs: 1_000 });
  // Time-outs no busy machine reaches: the reads before sending answer, and so does the redeem.
  Object.assign(world.worker.mods.api.httpTuning, { timeoutMs: 5_000 });
  expect(await world.confirm('A', 101, false)).toMatchObject({ ok: true, data: { state: 'unknown' } });
  await panel.idle();
  const [first, copy] = world.made('A');
  // A second apart by the fault's delay (a timer may fire a millisecond early by the wall clock):
  // far more than a read takes to reach the panel.
  expect(copy!.at - first!.at).toBeGreaterThanOrEqual(900);
  // Check now, while the history shows the first copy and, lagging, not the second (for as long as
  // the read takes under a second to reach the panel).
  panel.state.historyLagMs = Date.now() - first!.at - 50;
  await world.worker.send('checkRedemption', undefined);
  expect([...world.confirmations.values()]).toEqual([expect.objectContaining({ state: 'done', duplicates: 0 })]);
  panel.state.historyLagMs = 30;
  await checkFinal(model, world);
});

/**
 * The soak's counterexample (seed -1104633016, shrunk to Check now, RedeemWhileReading with the
 * browser re-sending the Confirm, Wait): the panelist redeems a reward on the website, then Confirms
 * the same reward here within the history's lag. The first read to show anything new shows the
 * website's redemption and neither of the Confirm's two copies: nothing tells it apart from the
 * Confirm's own, which it is taken for (the limit the claim invariant names), and the copies come in
 * a later read as more in the history. The Confirm owes the telling of one redemption, not of both
 * copies. Here the read lands between them by the lag the test sets, not by the machine's load.
 */
it('owes a Confirm that took a redemption hidden by the lag for its own the telling of one', async () => {
  await world.begin({ ...QUIET, historyLagMs: 5_000 });
  const model = initialModel();
  const panel = world.sandbox('A');
  // Nothing new shows yet: the website's redemption is in no baseline, and the Confirm stays open.
  panel.state.historyLagMs = 3_600_000;
  await world.redeemElsewhere('A', 101);
  const [elsewhere] = world.made('A');
  await sleep(1_000);
  await world.fault('A', { path: '/v1/panel/redemption', repeat: true });
  Object.assign(world.worker.mods.api.httpTuning, { timeoutMs: 5_000 });
  expect(await world.confirm('A', 101, false)).toMatchObject({ ok: true, data: { state: 'unknown' } });
  await panel.idle();
  const copies = world.made('A').filter((r) => r.key !== null);
  expect(copies).toHaveLength(2);
  // Check now, while the history shows the website's redemption and, lagging, neither copy.
  panel.state.historyLagMs = Date.now() - elsewhere!.at - 50;
  await world.worker.send('checkRedemption', undefined);
  expect([...world.confirmations.values()]).toEqual([expect.objectContaining({ state: 'done', duplicates: 0 })]);
  // Both panels catch up, as the minutes between checks would let them.
  for (const account of ['A', 'B'] as const) world.sandbox(account).state.historyLagMs = 30;
  await checkFinal(model, world);
});
