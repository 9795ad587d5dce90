// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterAll, beforeAll } from 'vitest';
import { httpTuning } from '../../../entrypoints/background/auth/api';
import { recoverAfterStop } from '../../../entrypoints/background/recover';
import { dismissRedemption } from '../../../entrypoints/background/redemption/service';
import {
  CHECK_AFTER_MS,
  CHECK_ALARM,
  checkOutcomes,
  checkRedemption,
  onCheckAlarm,
} from '../../../entrypoints/background/redemption/service';
import { refreshHistory, refreshRewards, setSync } from '../../../entrypoints/background/sync/sync';
import {
  ledgerItem,
  rewardsItem,
  sessionItem,
  settledItem,
  syncItem,
  unsettledItem,
  type LedgerEntry,
} from '../../../utils/storage-items';
import { activeSessionId, apiRequests, closeSandboxes, connectedSandbox, redeemNow } from '../background-helpers';
import { at, did, parsed, rid } from '../test-ids';
import type { RewardId } from '../../../utils/ids';
import { notFoundWords } from '../../../utils/points-taken';
import { uiLocale } from '../../../utils/i18n';

const REDEEM = '/v1/panel/redemption';
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500
const TRAVEL = rid(108); // 11,000 points: more than the balance

const env = connectedSandbox();
beforeAll(() => {
  // Real time-outs, only shorter: a panel that answers after 1.5 s answers too late, one that takes
  // 100 ms is slow but in time, on a machine however busy (the time-out sits well between the two).
  Object.assign(httpTuning, { timeoutMs: 600, retryBaseDelayMs: 1 });
});
afterAll(() => closeSandboxes());
beforeEach(async () => {
  await refreshRewards(true);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fires the history-check alarm at the time it was set for, as the browser would. */
async function fireCheckAlarm(): Promise<void> {
  const alarm = await fakeBrowser.alarms.get(CHECK_ALARM);
  expect(alarm, 'a history check is scheduled').toBeDefined();
  await onCheckAlarm(alarm!);
}

const sandboxRedemptionsOf = (rewardId: RewardId) =>
  env.sandbox.state.redemptions.filter((r) => r.reward.id === Number(rewardId)).length;

/** Waits for the sandbox's late commit, so it never lands in the next test's state. */
async function lateCommit(rewardId: RewardId, before: number): Promise<void> {
  while (sandboxRedemptionsOf(rewardId) === before) await sleep(20);
}

async function fault(rule: object): Promise<void> {
  await fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
}

describe('redeeming', () => {
  it('redeems once and records the outcome, the new balance and the history entry', async () => {
    const before = env.sandbox.state.redemptions.length;
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({ state: 'done', rewardId: COFFEE, points: 500, balanceAfter: 2000 });
    expect(entry.redemption?.reward.id).toBe(COFFEE);
    expect(env.sandbox.state.redemptions).toHaveLength(before + 1);
    expect(env.sandbox.state.balance).toBe(2000);
    expect(await ledgerItem.getValue()).toEqual(entry);
  });

  it('lets only one of several simultaneous redemptions through', async () => {
    const outcomes = await Promise.allSettled([redeemNow(COFFEE), redeemNow(COFFEE), redeemNow(COFFEE)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.map((o) => o.reason.error.kind)).toEqual(['busy', 'busy']);
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
    expect(env.sandbox.state.balance).toBe(2000);
  });

  it('a Confirm pressed while another of the account is out is refused at once, never sent once that one answers', async () => {
    await fault({ path: REDEEM, delayMs: 100 });
    const first = redeemNow(COFFEE);
    while (apiRequests(env.sandbox, REDEEM) === 0) await sleep(5);
    // Were the second let through to its reads, this slow one would outlast the first's answer.
    await fault({ path: '/v1/panel/redemptions', delayMs: 450 });
    await expect(redeemNow(COFFEE)).rejects.toMatchObject({
      error: { kind: 'busy', message: expect.stringMatching(/^A redemption is already in progress\./) },
    });
    expect((await first).state).toBe('done');
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });

  it('a pending entry no redeem has in flight (a stopped worker’s) blocks nothing: it is an unknown outcome, checked', async () => {
    const known = env.sandbox.state.redemptions.map((r) => did(r.id));
    await ledgerItem.setValue({
      requestId: 'r',
      rewardId: COFFEE,
      rewardName: 'Coffee beans',
      points: 500,
      startedAt: Date.now(),
      knownRedemptionIds: known,
      state: 'pending',
    });
    await expect(redeemNow(COFFEE)).rejects.toMatchObject({
      error: { kind: 'unsettled', message: expect.stringMatching(/^Your redemption of Coffee beans sent at /) },
    });
    expect(apiRequests(env.sandbox, REDEEM)).toBe(0);
    expect((await redeemNow(COFFEE, true)).state).toBe('done');
    expect(await unsettledItem.getValue()).toEqual([expect.objectContaining({ requestId: 'r', state: 'unknown' })]);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
  });

  it('never retries a redeem that met a server error, never says nothing was charged, and checks the history on alarms', async () => {
    await fault({ path: REDEEM, status: 500, body: '{"message":"Internal error"}' });
    const entry = await redeemNow(COFFEE);
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
    expect(entry).toMatchObject({ state: 'unknown', checks: { done: 0, nextAt: entry.startedAt + CHECK_AFTER_MS[0] } });
    expect(entry.error?.nothingCharged).toBeUndefined();
    const reads = apiRequests(env.sandbox, '/v1/panel/redemptions');
    for (const [i] of CHECK_AFTER_MS.entries()) {
      expect((await ledgerItem.getValue())?.state).toBe('unknown');
      expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(entry.startedAt + CHECK_AFTER_MS[i]!);
      await fireCheckAlarm();
    }
    // Each scheduled check read the history afresh (a read the client retried after a time-out on a
    // busy machine reaches the panel twice); only the last may conclude.
    expect(apiRequests(env.sandbox, '/v1/panel/redemptions')).toBeGreaterThanOrEqual(reads + CHECK_AFTER_MS.length);
    expect(await ledgerItem.getValue()).toMatchObject({ state: 'not_found', balanceAfter: 2500 });
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeUndefined();
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
    expect(env.sandbox.state.balance).toBe(2500);
  });

  it('settles as done at once when the panel committed and then answered 500', async () => {
    await fault({ path: REDEEM, commit: true, status: 500 });
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({ state: 'done', balanceAfter: 2000 });
    expect(entry.redemption?.reward.id).toBe(COFFEE);
    expect(entry.error).toBeUndefined();
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });

  it('a panel that commits after the time-out: unknown first, then done at the next check with the new balance', async () => {
    const before = sandboxRedemptionsOf(COFFEE);
    await fault({ path: REDEEM, delayMs: 1500 });
    const entry = await redeemNow(COFFEE);
    expect(entry.state).toBe('unknown');
    expect(sandboxRedemptionsOf(COFFEE)).toBe(before);
    await lateCommit(COFFEE, before);
    await fireCheckAlarm();
    expect(await ledgerItem.getValue()).toMatchObject({
      state: 'done',
      balanceAfter: 2000,
      redemption: { reward: { id: COFFEE } },
    });
    expect((await rewardsItem.getValue())?.data.balance.points).toBe(2000);
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });

  it('a dropped connection is unknown, never a failure', async () => {
    await fault({ path: REDEEM, drop: true });
    const entry = await redeemNow(COFFEE);
    expect(entry.state).toBe('unknown');
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });

  it('refuses to redeem a reward again while its earlier outcome is unknown, unless confirmed', async () => {
    await fault({ path: REDEEM, drop: true });
    const first = await redeemNow(COFFEE);
    await expect(redeemNow(COFFEE)).rejects.toMatchObject({ error: { kind: 'unsettled' } });
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
    const second = await redeemNow(COFFEE, true);
    expect(second.state).toBe('done');
    expect(apiRequests(env.sandbox, REDEEM)).toBe(2);
    // The first is still checked, and the second's redemption is not taken for it.
    expect((await unsettledItem.getValue()).map((e) => e.requestId)).toEqual([first.requestId]);
    await checkOutcomes(first.checks!.nextAt);
    expect((await unsettledItem.getValue())[0]).toMatchObject({
      requestId: first.requestId,
      state: 'unknown',
      checks: { done: 1 },
    });
  });

  it('reads the balance again after a refusal, so the rows show what the panel said', async () => {
    env.sandbox.state.balance = 300;
    expect((await rewardsItem.getValue())?.data.balance.points).toBe(2500);
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({
      state: 'failed',
      balanceAfter: 300,
      error: { kind: 'rejected', nothingCharged: true },
    });
    expect((await rewardsItem.getValue())?.data.balance.points).toBe(300);
  });

  it('a refusal whose history read then fails reads the balance at once all the same, and says nothing about points yet', async () => {
    env.sandbox.state.balance = 300;
    await fault({ path: '/v1/panel/redemption', delayMs: 100 });
    const redeeming = redeemNow(COFFEE);
    // Once the redeem has left (its baseline read done), the history stops answering.
    while (!env.sandbox.requests.some((r) => r.path === '/v1/panel/redemption')) await sleep(5);
    await fault({ path: '/v1/panel/redemptions', status: 503, times: 5 });
    const entry = await redeeming;
    expect(entry).toMatchObject({ state: 'unknown', answer: 'refused', error: { status: 402 } });
    expect(entry.error).not.toHaveProperty('nothingCharged');
    expect((await rewardsItem.getValue())?.data.balance.points).toBe(300);
  });

  it('a 401 to the redeem is a refusal that marks the session rejected', async () => {
    await fault({ path: REDEEM, status: 401 });
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({ state: 'failed', error: { kind: 'unauthorized', nothingCharged: true } });
    expect((await sessionItem.getValue()).rejected).toBe(true);
  });

  it('Check now settles an unknown outcome as soon as the history shows it', async () => {
    const before = sandboxRedemptionsOf(COFFEE);
    await fault({ path: REDEEM, delayMs: 1500 });
    await redeemNow(COFFEE);
    expect((await checkRedemption())?.state).toBe('unknown');
    await lateCommit(COFFEE, before);
    expect(await checkRedemption()).toMatchObject({ state: 'done', balanceAfter: 2000 });
  });

  it('a scheduled check that cannot read the history counts for nothing and comes again', async () => {
    await fault({ path: REDEEM, drop: true });
    const entry = await redeemNow(COFFEE);
    await fault({ path: '/v1/panel/redemptions', status: 503, times: 3 });
    await fireCheckAlarm();
    const after = await ledgerItem.getValue();
    expect(after).toMatchObject({ state: 'unknown', checks: { done: 0 } });
    expect(after!.checks!.nextAt!).toBeGreaterThan(entry.startedAt + CHECK_AFTER_MS[0]);
  });

  it('Check now whose history read fails says so, with the next try: never "checked, not there"', async () => {
    await fault({ path: REDEEM, drop: true });
    const entry = await redeemNow(COFFEE);
    // Another Confirm still being checked, its next check 20 minutes after this one's.
    const nextAt = (await ledgerItem.getValue())!.checks!.nextAt!;
    const later = {
      ...entry,
      requestId: 'later',
      rewardId: TRAVEL,
      checks: { done: 1, nextAt: nextAt + 1_200_000, lastAt: null },
    };
    await unsettledItem.setValue([later]);
    await fault({ path: '/v1/panel/redemptions', status: 503, times: 3 });
    const checked = checkRedemption();
    await expect(checked).rejects.toMatchObject({ error: { kind: 'server' } });
    const message = await checked.catch((err: { error: { message: string } }) => err.error.message);
    expect(message).toMatch(/^Your history could not be read, so nothing was checked\. .+ has a problem right now\. /);
    // The soonest check, in hours and minutes as the panelist's clock shows them.
    const hhmm = new Date(nextAt).toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit' });
    expect(message).toMatch(new RegExp(`The next check is at ${hhmm}\\.$`));
    expect(message).not.toMatch(/HTTP|\(/);
    // Nothing moved: the Confirm is open as it was.
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'unknown' });
  });

  it('a scheduled check whose read fails is marked, so the card can say the history could not be read', async () => {
    await fault({ path: REDEEM, drop: true });
    await redeemNow(COFFEE);
    await fault({ path: '/v1/panel/redemptions', status: 503, times: 3 });
    const alarm = (await fakeBrowser.alarms.get(CHECK_ALARM))!;
    await fireCheckAlarm();
    expect((await ledgerItem.getValue())?.checks).toMatchObject({ unreadAt: alarm.scheduledTime, lastAt: null });
    // A check that reads it again clears the mark.
    await fireCheckAlarm();
    expect((await ledgerItem.getValue())?.checks).not.toHaveProperty('unreadAt');
  });

  it('not found at the last check with the balance lower by its cost, on the card or off it: never "redeem it again"', async () => {
    await fault({ path: REDEEM, drop: true });
    const entry = await redeemNow(COFFEE);
    // Off the card: the panelist closed it; the checks go on.
    await dismissRedemption();
    // The panel took the points and never wrote the redemption into the history.
    env.sandbox.state.balance -= 500;
    for (let i = 0; i < 4; i++) await fireCheckAlarm();
    const [settled] = await settledItem.getValue();
    expect(settled).toMatchObject({
      requestId: entry.requestId,
      state: 'not_found',
      balanceBefore: 2500,
      balanceAfter: 2000,
    });
    expect(notFoundWords(settled!)).toBe('points-taken');
  });

  it('shows the server’s reason when points are short', async () => {
    const entry = await redeemNow(TRAVEL);
    expect(entry).toMatchObject({ state: 'failed', error: { kind: 'rejected', nothingCharged: true } });
    expect(entry.error?.message).toMatch(/Insufficient points/);
    expect(env.sandbox.state.balance).toBe(2500);
  });

  it('waits for a slow redeem instead of resending it', async () => {
    await fault({ path: REDEEM, delayMs: 100 });
    const entry = await redeemNow(COFFEE);
    expect(entry.state).toBe('done');
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });
});

describe('after the worker restarts with a pending entry', () => {
  function pending(startedAt: number): LedgerEntry {
    return {
      requestId: 'restart',
      rewardId: COFFEE,
      rewardName: 'Bluefin Coffee $5 Gift Card',
      points: 500,
      startedAt,
      knownRedemptionIds: env.sandbox.state.redemptions.map((r) => did(r.id)),
      state: 'pending',
    };
  }

  it('marks it done when the history shows a new redemption of that reward, without resending', async () => {
    await ledgerItem.setValue(pending(Date.now() - 1000));
    await fetch(`${env.sandbox.url}${REDEEM}?id=${COFFEE}`, {
      headers: { Authorization: `Bearer ${env.sandbox.token}` },
    });
    await recoverAfterStop();
    expect(await ledgerItem.getValue()).toMatchObject({ state: 'done', balanceAfter: 2000 });
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });

  it('marks the outcome unknown when the history does not show it', async () => {
    await ledgerItem.setValue(pending(Date.now()));
    await recoverAfterStop();
    const entry = await ledgerItem.getValue();
    expect(entry?.state).toBe('unknown');
    expect(entry?.error?.message).toMatch(/history is being checked/);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
    expect(apiRequests(env.sandbox, REDEEM)).toBe(0);
  });

  it('dismissing forgets a finished outcome but never one in flight, and keeps checking an unknown one', async () => {
    await fault({ path: REDEEM, delayMs: 100 });
    const inFlight = redeemNow(COFFEE);
    while ((await ledgerItem.getValue())?.state !== 'pending') await sleep(5);
    await dismissRedemption();
    expect((await ledgerItem.getValue())?.state).toBe('pending');
    expect((await inFlight).state).toBe('done');
    await dismissRedemption();
    expect(await ledgerItem.getValue()).toBeNull();

    await ledgerItem.setValue(pending(Date.now()));
    await recoverAfterStop();
    await dismissRedemption();
    expect(await ledgerItem.getValue()).toBeNull();
    expect((await unsettledItem.getValue()).map((e) => e.requestId)).toEqual(['restart']);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
  });
});

describe('refreshing', () => {
  it('serves a fresh cache without a request and shares one request between simultaneous callers', async () => {
    env.sandbox.requests.length = 0;
    await refreshRewards(false);
    expect(apiRequests(env.sandbox, '/v1/panel/rewards')).toBe(0);
    await Promise.all([refreshRewards(true), refreshRewards(true), refreshRewards(true)]);
    expect(apiRequests(env.sandbox, '/v1/panel/rewards')).toBe(1);
  });
});

describe('an unknown outcome', () => {
  it('becomes done when a later history refresh shows the redemption', async () => {
    const startedAt = Date.now() - 1000;
    const lost: LedgerEntry = {
      requestId: 'lost',
      rewardId: COFFEE,
      rewardName: 'Bluefin Coffee $5 Gift Card',
      points: 500,
      startedAt,
      knownRedemptionIds: env.sandbox.state.redemptions.map((r) => did(r.id)),
      state: 'unknown',
      checks: { done: 0, nextAt: startedAt + CHECK_AFTER_MS[0], lastAt: null },
    };
    await ledgerItem.setValue(lost);
    await checkOutcomes(null, { sid: await activeSessionId(), history: env.sandbox.state.redemptions.map(parsed) });
    expect((await ledgerItem.getValue())?.state).toBe('unknown');

    await fetch(`${env.sandbox.url}${REDEEM}?id=${COFFEE}`, {
      headers: { Authorization: `Bearer ${env.sandbox.token}` },
    });
    await checkOutcomes(null, { sid: await activeSessionId(), history: env.sandbox.state.redemptions.map(parsed) });
    const entry = await ledgerItem.getValue();
    expect(entry?.state).toBe('done');
    expect(entry?.redemption?.reward.id).toBe(COFFEE);
  });

  it('a history refresh without the redemption never concludes anything', async () => {
    await fault({ path: REDEEM, drop: true });
    await redeemNow(COFFEE);
    for (let i = 0; i < 6; i++) await refreshHistory(true);
    await checkOutcomes(null);
    expect(await ledgerItem.getValue()).toMatchObject({ state: 'unknown', checks: { done: 0 } });
  });
});

describe('sync state', () => {
  it('keeps every area’s update when areas finish at the same moment', async () => {
    const loading = { loading: true, error: null, attemptedAt: 1 };
    await syncItem.setValue({ rewards: loading, history: loading, profile: loading });
    const gen = await activeSessionId();
    await Promise.all([
      setSync(gen, 'rewards', { loading: false }),
      setSync(gen, 'history', { loading: false }),
      setSync(gen, 'profile', { loading: false }),
    ]);
    const sync = await syncItem.getValue();
    expect([sync.rewards.loading, sync.history.loading, sync.profile.loading]).toEqual([false, false, false]);
  });

  it('goes on after one write failed (a full storage once does not stop every later refresh)', async () => {
    const gen = await activeSessionId();
    await refusingSyncWrites(1, async () => {
      await expect(setSync(gen, 'rewards', { loading: true })).rejects.toThrow(/quota/);
      await setSync(gen, 'rewards', { loading: false });
      expect((await syncItem.getValue()).rewards.loading).toBe(false);
    });
  });

  it('at start, a storage too full to turn a stopped worker’s flags off empties every area’s state instead', async () => {
    const loading = { loading: true, error: null, attemptedAt: 1 };
    await syncItem.setValue({ rewards: loading, history: loading, profile: loading });
    await refusingSyncWrites(Infinity, () => recoverAfterStop());
    const sync = await syncItem.getValue();
    expect([sync.rewards.loading, sync.history.loading, sync.profile.loading]).toEqual([false, false, false]);
  });
});

/**
 * Storage refuses the next `times` writes of the sync state as too full while `body` runs; emptying
 * it frees room, so that is never refused (as in the browsers).
 */
async function refusingSyncWrites(times: number, body: () => Promise<unknown>): Promise<void> {
  const set = fakeBrowser.storage.local.set.bind(fakeBrowser.storage.local);
  let left = times;
  fakeBrowser.storage.local.set = async (items: Record<string, unknown>) => {
    if (left > 0 && 'sync' in items && items.sync !== null) {
      left -= 1;
      throw new Error('QUOTA_BYTES quota exceeded');
    }
    return set(items);
  };
  try {
    await body();
  } finally {
    fakeBrowser.storage.local.set = set;
  }
}

describe('the history cache', () => {
  it('keeps of each nested reward only what the history shows, so 10,000 redemptions fit in storage', async () => {
    const history = await refreshHistory(true);
    const seeded = env.sandbox.state.redemptions;
    expect(history).toHaveLength(seeded.length);
    for (const [i, r] of history.entries()) {
      const source = seeded[i]!;
      expect(r.reward).toEqual({
        id: rid(source.reward.id),
        name: source.reward.name,
        cost: source.reward.cost,
        cost_currency: source.reward.cost_currency,
        type: source.reward.type,
        image_url: source.reward.image_url || source.reward.meta_data.image_url,
        meta_data: {},
        reward_point_cost: null,
      });
      expect(r).toMatchObject({
        id: String(source.id),
        created_at: at(source.created_at),
        processed: source.processed,
      });
    }
    const perEntry = JSON.stringify(history).length / history.length;
    // storage.local holds 10 MiB in Chrome without unlimitedStorage.
    expect(perEntry * 10_000).toBeLessThan(6 * 1024 * 1024);
  });
});
