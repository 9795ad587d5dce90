/**
 * The popup's first frame and its app, over arbitrary storage (popup-frames.tsx): the first frame
 * paints every state, Preact takes it over without a change a panelist could perceive (text,
 * accessible names, `aria-*` states, `hidden`, `disabled`, select values, focus), the page it takes
 * over is the one App renders alone, and both show what the snapshot says they must (the oracle,
 * `mustShow`, written from the rules, not from the popup's model).
 *
 * The snapshots: every failure the client reports (network, time-out, 429 with and without
 * Retry-After, 403, 4xx with the panel's words, 5xx, the panel's odd answer, ours, 401), all ten
 * languages, sessions by key and by sign-in, refused ones of each, the catalogue cached, not yet or
 * without a popup view (the last known balance), the balance shown, none or not read beside the
 * rewards, rewards listed alike (one choice in their brand's
 * picker), goals listed, gone or of a refused cost, outcome
 * cards in every state, redemptions still being checked (often of the goal's reward) or settled
 * unseen since the last opening (with and without a record of what was seen), balances
 * over time with tentative points, open profile questions.
 *
 * Deliberate breakages this test fails on within its run count from its fixed seed (checked by hand
 * in the production code on 2026-11-29, each failing the property within its 120 runs; and
 * popup-frames-breakages.test.tsx applies each, from this seed and another):
 *  1. the first frame ignoring the balance over time (a new input App reads and it does not);
 *  2. the first frame ignoring the redemptions still being checked (another such input);
 *  3. a failure kind the model does not know, told as any other failure (a time-out said as
 *     "something went wrong");
 *  4. the goal's Redeem ignoring the held list (usable while its reward's redemption is checked);
 *  5. the rows ignoring a not-found card that says to contact the panel first (its reward's Redeem
 *     usable beside it; added 2026-11-30);
 *  6. a hold ignoring the listing alike to its reward, which a brand's picker shows in its place
 *     (the Redeem shown usable while its twin's redemption is checked);
 *  7. the first frame ignoring the redemptions that settled unseen since the last opening (another
 *     input App reads: the frame paints rows where App puts the list).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LANGUAGES } from './i18n-setup';
import { framesAgree, newCounts, NOW, RUNS, SEED, snapshotArb } from './popup-frames';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

beforeAll(() => {
  // One clock for the frame and the app: "updated 3 min ago" must not tick between the two.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterAll(() => {
  vi.useRealTimers();
});

describe('the first frame and the app', () => {
  it('paint every snapshot the same, as the snapshot says they must', async () => {
    const counts = newCounts();
    await fc.assert(
      fc.asyncProperty(snapshotArb, (s) => framesAgree(s, counts)),
      // A fixed seed (SEED), as the model test's: the coverage bars below are counts of one random
      // draw, and a fresh one fell under them at times (28 of 60 connected with rows).
      { numRuns: RUNS, seed: SEED },
    );
    // What the run covered: most of it connected with rows, every language, most failures.
    expect(counts.connectedWithRows / counts.runs).toBeGreaterThanOrEqual(0.5);
    expect(counts.languages.size).toBe(LANGUAGES.length);
    expect(counts.errors.size).toBeGreaterThanOrEqual(6);
    // A balance not read beside the rewards, painted by both (with and without its failure stored).
    expect(counts.unreadBalances).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
