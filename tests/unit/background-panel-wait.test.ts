// @vitest-environment node
/**
 * A panel that answers 429 with `Retry-After` is not asked again before that time (design §5,
 * "429: wait"), over real HTTP against the sandbox: the refreshes a popup opening or an alarm
 * starts meanwhile are refused unsent, saying how long is left; after the wait they leave. A
 * Confirm in the wait sends nothing and says so. The wait is stored, so a worker started again keeps
 * it; it is the session's own, and no longer than an hour whatever the panel says. A redeem's own 429 speaks for one copy and sets no wait, so the
 * checks that settle it read at once (redemption/one-copy-answers.test.ts).
 *
 * Deliberate breakages it failed on: the wait never set (the second refresh reaches the panel);
 * the wait kept past its time (the refresh after it is refused); the wait kept in the worker's
 * memory only (a fresh worker's refresh reaches the panel); the wait not emptied by a switch (the
 * new session's first read is refused); an old session's late 429 stored for the next; a wait
 * stored before the clock was put back kept (the next real wait swallowed by it); no cap in parseRetryAfter (the refresh an hour later is
 * refused).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshHistory, refreshProfile, refreshRewards } from '../../entrypoints/background/sync/sync';
import { LONGEST_RETRY_AFTER_SECONDS } from '../../utils/api/http';
import { AppErrorException, isAppError, type AppError } from '../../utils/errors';
import { ledgerItem, panelWaitItem, syncItem } from '../../utils/storage-items';
import { SEED_A } from './accounts';
import { connect } from '../../entrypoints/background/session/session';
import { CHECK_ALARM, checkRedemption, onCheckAlarm } from '../../entrypoints/background/redemption/service';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  apiRequests,
  armFault,
  connectedSandbox,
  firstReadsDone,
  redeemNow,
  releaseHeld,
  until,
} from './background-helpers';
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
  // By shape: a worker's modules loaded again have their own AppErrorException class.
  const error = (err as { error?: unknown } | null)?.error;
  if (!isAppError(error)) throw new Error(`expected a refusal, got ${String(err)}`);
  return error;
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

  it('an outcome being checked is checked again once the wait is over, and Check now names that time', async () => {
    // A Confirm whose answer was a 500: unknown, its history checked on alarms.
    await armFault(env.sandbox, { path: REDEEM, status: 500 });
    const entry = await redeemNow(rid(SEED_A.rewards[0]!.id));
    expect(entry.state).toBe('unknown');
    await busyFor('600');
    const reads = apiRequests(env.sandbox, HISTORY);
    await onCheckAlarm({ name: CHECK_ALARM, scheduledTime: entry.checks!.nextAt! });
    expect(apiRequests(env.sandbox, HISTORY)).toBe(reads);
    const checks = (await ledgerItem.getValue())!.checks!;
    expect(checks.nextAt).toBe(Math.max(entry.checks!.nextAt!, Date.now()) + 600_000);
    expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(checks.nextAt);
    // Check now in the wait: refused unsent too, naming the check after the wait.
    const when = new Date(checks.nextAt!).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' });
    expect((await refusal(checkRedemption())).message).toContain(when);
    expect(apiRequests(env.sandbox, HISTORY)).toBe(reads);
  });

  it('a 429 without Retry-After sets no wait: the next refresh is sent', async () => {
    await armFault(env.sandbox, { path: HISTORY, status: 429, times: 2 });
    await refusal(refreshHistory(true));
    const before = apiRequests(env.sandbox, HISTORY);
    await refreshHistory(true);
    expect(apiRequests(env.sandbox, HISTORY)).toBe(before + 1);
  });

  it('is kept in storage: a worker the browser stopped and started again still waits', async () => {
    await busyFor('120');
    // Stored at the answer, a moment before the clock was frozen.
    const until = (await panelWaitItem.getValue())!;
    expect(until).toBeGreaterThan(Date.now() + 119_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 120_000);
    // A fresh worker: every module loaded again, nothing kept in memory.
    vi.resetModules();
    const fresh = await import('../../entrypoints/background/sync/sync');
    const before = sent();
    expect(await refusal(fresh.refreshRewards(true))).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 120 });
    expect(sent()).toBe(before);
  });

  it('is the session’s own: connecting again starts without it, and an old session’s late 429 sets none', async () => {
    await busyFor('600');
    await refusal(refreshRewards(true));
    vi.useRealTimers();
    // The panelist connects again: the new session's reads leave at once.
    await connect(env.sandbox.url, env.sandbox.token);
    await firstReadsDone();
    let before = apiRequests(env.sandbox, REWARDS);
    await refreshRewards(true);
    expect(apiRequests(env.sandbox, REWARDS)).toBe(before + 1);

    // A read of this session the panel holds, then answers 429 once the next session is active.
    await armFault(env.sandbox, { path: REWARDS, status: 429, headers: { 'Retry-After': '600' }, held: true });
    before = apiRequests(env.sandbox, REWARDS);
    const late = refusal(refreshRewards(true));
    await until(() => apiRequests(env.sandbox, REWARDS) > before);
    await connect(env.sandbox.url, env.sandbox.token);
    await firstReadsDone();
    await releaseHeld(env.sandbox);
    await late;
    expect(await panelWaitItem.getValue()).toBeNull();
    before = apiRequests(env.sandbox, REWARDS);
    await refreshRewards(true);
    expect(apiRequests(env.sandbox, REWARDS)).toBe(before + 1);
  });

  it('a wait stored before the clock was put back is neither honoured nor kept', async () => {
    // Stored two hours ahead of the clock as it now reads: no panel can have asked for that.
    await panelWaitItem.setValue(Date.now() + 2 * 3_600_000);
    const before = apiRequests(env.sandbox, REWARDS);
    await refreshRewards(true);
    expect(apiRequests(env.sandbox, REWARDS)).toBe(before + 1);
    // The panel's next wait is the one kept, and it holds.
    const first = await busyFor('120');
    expect(first.retryAfterSeconds).toBe(120);
    expect(await panelWaitItem.getValue()).toBeLessThanOrEqual(Date.now() + 120_000);
    expect(await refusal(refreshRewards(true))).toMatchObject({ retryAfterSeconds: 120 });
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
