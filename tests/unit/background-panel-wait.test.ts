// @vitest-environment node
/**
 * A panel that answers 429 with `Retry-After` is not asked again before that time (design §5,
 * "429: wait"), over real HTTP against the sandbox: the refreshes a popup opening or an alarm
 * starts meanwhile are refused unsent, saying how long is left; after the wait they leave. A
 * Confirm in the wait sends nothing and says so. The wait is the session's own, and no longer than
 * an hour whatever the panel says. A redeem's own 429 speaks for one copy and sets no wait, so the
 * checks that settle it read at once (redemption/one-copy-answers.test.ts).
 *
 * Deliberate breakages it failed on: the wait never set (the second refresh reaches the panel);
 * the wait kept past its time (the refresh after it is refused); the wait shared by every session
 * (the new session's first read is refused); no cap in parseRetryAfter (the refresh an hour later is
 * refused).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshHistory, refreshProfile, refreshRewards } from '../../entrypoints/background/sync/sync';
import { LONGEST_RETRY_AFTER_SECONDS } from '../../utils/api/http';
import { AppErrorException, type AppError } from '../../utils/errors';
import { syncItem } from '../../utils/storage-items';
import { SEED_A } from './accounts';
import { apiRequests, armFault, connectTo, connectedSandbox, redeemNow } from './background-helpers';
import { rid } from './test-ids';

const env = connectedSandbox();
const REWARDS = '/v1/panel/rewards';
const HISTORY = '/v1/panel/redemptions';
const REDEEM = '/v1/panel/redemption';

afterEach(() => {
  vi.useRealTimers();
});

/** The AppError a call rejected with, or a failure of the test when it resolved. */
async function refusal(call: Promise<unknown>): Promise<AppError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppErrorException)) throw new Error(`expected a refusal, got ${String(err)}`);
  return err.error;
}

/** Every request to the panel's API so far, its answers to OPTIONS aside. */
const sent = () => env.sandbox.requests.filter((r) => r.method !== 'OPTIONS').length;

/** A 429 with `Retry-After: seconds` for the next catalogue read, then the clock frozen where it is. */
async function busyFor(seconds: string): Promise<AppError> {
  await armFault(env.sandbox, { path: REWARDS, status: 429, headers: { 'Retry-After': seconds } });
  const first = await refusal(refreshRewards(true));
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now());
  return first;
}

describe('a panel that asks to wait', () => {
  it('is not asked again before the time it named: every read is refused unsent, saying how long is left', async () => {
    const first = await busyFor('120');
    expect(first).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 120 });
    const before = sent();

    vi.setSystemTime(Date.now() + 30_000);
    for (const refresh of [refreshRewards, refreshHistory, refreshProfile]) {
      const held = await refusal(refresh(true));
      expect(held).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 90 });
      expect(held.message).toBe('The panel is receiving too many requests. Try again in 90 s.');
    }
    expect(sent()).toBe(before);
    // What the pages show: the area's failure, with the seconds left.
    expect((await syncItem.getValue()).rewards.error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 90 });

    // Once the time has passed, the next refresh leaves and lands.
    vi.setSystemTime(Date.now() + 90_000);
    await refreshRewards(true);
    expect(apiRequests(env.sandbox, REWARDS)).toBeGreaterThan(0);
    expect(sent()).toBeGreaterThan(before);
    expect((await syncItem.getValue()).rewards.error).toBeNull();
  });

  it('a Confirm in the wait sends nothing, and says nothing was charged', async () => {
    await busyFor('300');
    const entryOrError = await redeemNow(rid(SEED_A.rewards[0]!.id)).then(
      (entry) => entry,
      (e: unknown) => e,
    );
    expect(apiRequests(env.sandbox, REDEEM)).toBe(0);
    expect(entryOrError).toBeInstanceOf(AppErrorException);
    const error = (entryOrError as AppErrorException).error;
    expect(error.message).toMatch(/^The redemption was not sent, so nothing was charged/);
    expect(error.message).toContain('Try again in 300 seconds.');
  });

  it('a 429 without Retry-After sets no wait: the next refresh is sent', async () => {
    await armFault(env.sandbox, { path: HISTORY, status: 429, times: 2 });
    await refusal(refreshHistory(true));
    const before = apiRequests(env.sandbox, HISTORY);
    await refreshHistory(true);
    expect(apiRequests(env.sandbox, HISTORY)).toBe(before + 1);
  });

  it('is the session’s own: the next session’s reads leave at once', async () => {
    await busyFor('600');
    await refusal(refreshRewards(true));
    const before = apiRequests(env.sandbox, REWARDS);
    await connectTo(env.sandbox);
    await refreshRewards(true);
    expect(apiRequests(env.sandbox, REWARDS)).toBe(before + 1);
  });

  it('lasts an hour at most, whatever the panel says', async () => {
    const first = await busyFor('999999999');
    // Told as it is held: an hour.
    expect(first).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 3_600 });
    expect(first.message).toBe('The panel is receiving too many requests. Try again in 3600 s.');
    vi.setSystemTime(Date.now() + (LONGEST_RETRY_AFTER_SECONDS - 60) * 1000);
    expect(await refusal(refreshRewards(true))).toMatchObject({ retryAfterSeconds: 60 });
    vi.setSystemTime(Date.now() + 61_000);
    const before = apiRequests(env.sandbox, REWARDS);
    await refreshRewards(true);
    expect(apiRequests(env.sandbox, REWARDS)).toBe(before + 1);
  });
});
