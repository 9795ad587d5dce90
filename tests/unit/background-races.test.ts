// @vitest-environment node
/**
 * Races of the money path and of accounts, each reproduced with storage that answers a few
 * milliseconds late or a panel that holds an answer, against two sandbox accounts over real HTTP.
 * The races of signed-in sessions are in background-renewal-faults.test.ts; the browser's own
 * re-send of a Confirm in tests/e2e/resend.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { watchBalance, balanceIdle } from '../../entrypoints/background/balance-history';
import { notificationsIdle, watchNotifications } from '../../entrypoints/background/notify/notifications';
import { recoverAfterStop } from '../../entrypoints/background/recover';
import { dismissRedemption } from '../../entrypoints/background/redemption/service';
import { CHECK_ALARM, checkOutcomes, checkRedemption } from '../../entrypoints/background/redemption/service';
import { onStored } from '../../entrypoints/background/store/stored-reads';
import type { Redemption } from '../../utils/types';
import { connect } from '../../entrypoints/background/session/session';
import { refreshHistory, refreshRewards } from '../../entrypoints/background/sync/sync';
import {
  balanceHistoryItem,
  duplicatesItem,
  historyItem,
  ledgerItem,
  preferencesItem,
  rewardsItem,
  sessionItem,
  settledItem,
  syncItem,
  unsettledItem,
  type LedgerEntry,
} from '../../utils/storage-items';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { isAccountB, SEED_A } from './accounts';
import {
  apiRequests,
  armFault as fault,
  closeSandboxes,
  fakeNotifications,
  runEveryCheck,
  type Shown,
  slowReads,
  firstReadsDone,
  startTwoAccounts,
  redeemNow,
  releaseHeld,
  until,
} from './background-helpers';
import { did, rid } from './test-ids';
import { redemptionKey, type RewardId } from '../../utils/ids';

const REDEEM = '/v1/panel/redemption';
const HISTORY = '/v1/panel/redemptions';
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500
const BOOKS = rid(102);
const PAYWAVE = rid(109); // 1,000 points

let a: Sandbox;
let b: Sandbox;
let created: Shown[];
let stopWatching: Array<() => void> = [];

beforeAll(async () => {
  // No test here is about the client's time-out: it stays far longer than any answer the sandbox
  // holds or delays, which a loaded machine stretches (400 ms timed the held Check now out).
  ({ a, b } = await startTwoAccounts({ timeoutMs: 3000, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));
beforeEach(async () => {
  fakeBrowser.reset();
  a.reset();
  b.reset();
  created = fakeNotifications();
  stopWatching = [watchNotifications(), watchBalance()];
  await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
  await connect(a.url, a.token);
  await settle();
});
afterEach(() => {
  stopWatching.forEach((stop) => stop());
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets every request still out land, and what follows from it be written. */
async function settle(): Promise<void> {
  // What a connect reads after answering starts after it returned, maybe before any of it is out.
  if ((await sessionItem.getValue()).connected) await firstReadsDone();
  await Promise.all([a.idle(), b.idle()]);
  await sleep(20);
  await Promise.all([balanceIdle(), notificationsIdle()]);
}

const redeemsOf = (sandbox: Sandbox, rewardId: RewardId) =>
  sandbox.requests.filter((r) => r.path === REDEEM && r.query.id === String(rewardId)).length;
const commitsOf = (sandbox: Sandbox, rewardId: RewardId) =>
  sandbox.state.redemptions.filter((r) => r.reward.id === Number(rewardId)).length;

/** A redeem whose connection dropped before the panel committed it, which it then did: unknown until checked. */
async function lostThenCommitted(rewardId: RewardId): Promise<LedgerEntry> {
  await fault(a, { path: REDEEM, drop: true });
  const entry = await redeemNow(rewardId);
  expect(entry.state).toBe('unknown');
  await fetch(`${a.url}${REDEEM}?id=${rewardId}`, { headers: { Authorization: `Bearer ${a.token}` } });
  return entry;
}

/** Everything session-scoped is account B's. */
async function onlyAccountB(): Promise<void> {
  const rewards = await rewardsItem.getValue();
  const history = await historyItem.getValue();
  const ids = [...(rewards?.data.rewards ?? []).map((r) => r.id), ...(history?.data ?? []).map((r) => r.reward.id)];
  expect(ids.length).toBeGreaterThan(0);
  expect(ids.every(isAccountB)).toBe(true);
  expect(rewards?.data.balance.points).toBe(9000);
  const outcomes = [
    await ledgerItem.getValue(),
    ...(await unsettledItem.getValue()),
    ...(await settledItem.getValue()),
  ];
  expect(outcomes.every((entry) => entry === null || isAccountB(entry.rewardId))).toBe(true);
}

describe('money, with storage or the panel answering late', () => {
  it('a redeem waiting behind a slow Check now is never sent after another account connects', async () => {
    await fault(a, { path: REDEEM, drop: true });
    expect((await redeemNow(COFFEE)).state).toBe('unknown');
    // The check's history read is out and held by A's panel until B has connected: however slow
    // the machine, the redeem can only wait behind it (it joins that read, then needs a newer one).
    await fault(a, { path: HISTORY, held: true });
    const asked = apiRequests(a, HISTORY);
    const checking = checkRedemption().catch(() => undefined);
    await until(() => apiRequests(a, HISTORY) > asked);
    const waiting = redeemNow(BOOKS).catch((err) => err);
    // Its way to that read is storage and promises only: a timer's turn comes after it.
    await sleep(0);
    await connect(b.url, b.token);
    await releaseHeld(a);
    expect(await waiting).toMatchObject({ error: { kind: 'not_connected' } });
    await checking;
    await settle();
    // The first account was charged for nothing it did not confirm before the switch.
    expect(redeemsOf(a, BOOKS)).toBe(0);
    expect(commitsOf(a, BOOKS)).toBe(SEED_A.redemptions.filter((r) => r.reward.id === Number(BOOKS)).length);
    await onlyAccountB();
    expect(await ledgerItem.getValue()).toBeNull();
    // B is not refused as busy on A's account.
    expect((await redeemNow(rid(Number(BOOKS) + 1000))).state).toBe('done');
  });

  it('a redemption made elsewhere before this one is never taken for it', async () => {
    // The cached history is from before the panelist redeemed the same reward on the panel's site.
    await refreshHistory(true);
    await fetch(`${a.url}${REDEEM}?id=${COFFEE}`, { headers: { Authorization: `Bearer ${a.token}` } });
    await fault(a, { path: REDEEM, status: 500 });
    const entry = await redeemNow(COFFEE);
    expect(entry.state).toBe('unknown');
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'not_found' });
  });

  it('when the history cannot be read first, the redeem is not sent and the panelist is told why', async () => {
    await fault(a, { path: HISTORY, status: 503, times: 3 });
    await expect(redeemNow(COFFEE)).rejects.toMatchObject({
      error: { kind: 'rejected', message: expect.stringMatching(/not sent, so nothing was charged.*history/) },
    });
    expect(redeemsOf(a, COFFEE)).toBe(0);
    expect(await ledgerItem.getValue()).toBeNull();
  });

  it.each([
    ['3 minutes behind', -3],
    ['10 minutes behind', -10],
    ['10 minutes ahead', 10],
  ])('a committed redeem whose answer was lost is found when the panel’s clock is %s', async (_name, minutes) => {
    const skewed = await startSandbox({
      seed: SEED_A,
      token: 'token-skewed',
      now: () => new Date(Date.now() + minutes * 60_000),
    });
    try {
      await connect(skewed.url, skewed.token);
      await settle();
      await fault(skewed, { path: REDEEM, commit: true, status: 502 });
      const entry = await redeemNow(COFFEE);
      expect(entry).toMatchObject({ state: 'done', redemption: { reward: { id: COFFEE } } });
      expect(redeemsOf(skewed, COFFEE)).toBe(1);
    } finally {
      await skewed.close();
    }
  });

  it('a Confirm arriving during start-up recovery leaves no pending entry without its check', async () => {
    const stopped: LedgerEntry = {
      requestId: 'stopped-worker',
      rewardId: COFFEE,
      rewardName: 'Bluefin Coffee $5 Gift Card',
      points: 500,
      startedAt: Date.now() - 1000,
      knownRedemptionIds: a.state.redemptions.map((r) => did(r.id)),
      idempotencyKey: 'stopped-worker',
      state: 'pending',
    };
    await ledgerItem.setValue(stopped);
    const undo = slowReads(5);
    try {
      const recovering = recoverAfterStop();
      const confirmed = redeemNow(BOOKS);
      expect((await confirmed).state).toBe('done');
      await recovering;
    } finally {
      undo();
    }
    // The stopped worker's entry is still checked, and nothing is refused on its account.
    expect(await unsettledItem.getValue()).toEqual([
      expect.objectContaining({ requestId: 'stopped-worker', state: 'unknown' }),
    ]);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
    expect((await redeemNow(PAYWAVE)).state).not.toBe('busy');
    expect(redeemsOf(a, COFFEE)).toBe(0);
  });
});

describe('accounts and privacy, with storage or the panel answering late', () => {
  it('while B connects, nothing of A is stored as B’s, and B’s first read joins nothing of A’s', async () => {
    const undo = slowReads(4);
    try {
      await fault(a, { path: '/v1/panel/rewards', delayMs: 60 });
      await fault(a, { path: HISTORY, delayMs: 60 });
      await fault(b, { path: '/v1/panel/rewards', delayMs: 30 });
      const connecting = connect(b.url, b.token);
      const late = [refreshRewards(true), refreshHistory(true)].map((p) => p.catch(() => undefined));
      await connecting;
      // B's first history read (connect warms it) is B's own, not A's still out.
      expect((await refreshHistory(false)).every((r) => isAccountB(r.reward.id))).toBe(true);
      await Promise.all(late);
      await settle();
    } finally {
      undo();
    }
    await onlyAccountB();
    expect((await balanceHistoryItem.getValue()).map((s) => s.points)).toEqual([9000]);
    expect(apiRequests(b, HISTORY)).toBeGreaterThanOrEqual(1);
  });

  it('a history check of A that lands after B connected writes nothing into B’s session', async () => {
    await lostThenCommitted(COFFEE);
    // The check's read reaches A's panel and is held there until B has connected: it lands after, by construction.
    await fault(a, { path: HISTORY, held: true });
    const before = apiRequests(a, HISTORY);
    const checking = checkRedemption().catch(() => undefined);
    await until(() => apiRequests(a, HISTORY) > before);
    await connect(b.url, b.token);
    await releaseHeld(a);
    await checking;
    await settle();
    await onlyAccountB();
    expect(await ledgerItem.getValue()).toBeNull();
    expect(await unsettledItem.getValue()).toEqual([]);
    expect(await settledItem.getValue()).toEqual([]);
    expect(created.filter((n) => n.id.startsWith('outcome:'))).toEqual([]);
  });

  it('each Confirm sends its own Idempotency-Key, kept in its ledger entry', async () => {
    const first = await redeemNow(COFFEE);
    await dismissRedemption();
    const second = await redeemNow(COFFEE);
    const keys = a.requests.filter((r) => r.path === REDEEM).map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([`"${first.idempotencyKey}"`, `"${second.idempotencyKey}"`]);
    expect(first.idempotencyKey).not.toBe(second.idempotencyKey);
  });

  it('a re-sent Confirm that the panel recorded twice is told in the ledger, the history and one notification', async () => {
    await fetch(`${a.url}/__sandbox/idempotency`, { method: 'PATCH', body: JSON.stringify({ honour: false }) });
    await fault(a, { path: REDEEM, repeat: true });
    const entry = await redeemNow(COFFEE);
    expect(commitsOf(a, COFFEE) - SEED_A.redemptions.filter((r) => r.reward.id === Number(COFFEE)).length).toBe(2);
    expect(entry).toMatchObject({ state: 'done', duplicates: [expect.any(String)], balanceAfter: 1500 });
    expect(entry.duplicates).not.toContain(redemptionKey(entry.redemption!));
    expect(await duplicatesItem.getValue()).toEqual([
      {
        requestId: entry.requestId,
        rewardName: entry.rewardName,
        points: 500,
        redemptions: [redemptionKey(entry.redemption!), ...entry.duplicates!],
      },
    ]);
    await checkRedemption();
    await dismissRedemption();
    await settle();
    expect(created.map((n) => n.id)).toEqual([`duplicate:${entry.requestId}`]);
    // Closing its card moves it to the recent outcomes: not a second record of the same Confirm.
    expect(await duplicatesItem.getValue()).toHaveLength(1);
  });

  it('the record of a Confirm recorded twice goes once the history no longer shows the copies (the panel reversed one)', async () => {
    const stop = onStored(
      (area, data, sid) =>
        void (area === 'history' && checkOutcomes(null, { sid, history: data as Redemption[] }).catch(() => undefined)),
    );
    try {
      await fetch(`${a.url}/__sandbox/idempotency`, { method: 'PATCH', body: JSON.stringify({ honour: false }) });
      await fault(a, { path: REDEEM, repeat: true });
      const entry = await redeemNow(COFFEE);
      expect(await duplicatesItem.getValue()).toHaveLength(1);
      // Still two in the history: the record stays.
      await refreshHistory(true);
      await settle();
      expect(await duplicatesItem.getValue()).toHaveLength(1);
      // The panel reverses the copy: the history shows one.
      const copy = entry.duplicates!.map((key) => key.split(' ')[0]);
      a.state.redemptions = a.state.redemptions.filter((r) => !copy.includes(String(r.id)));
      await refreshHistory(true);
      await settle();
      expect(await duplicatesItem.getValue()).toEqual([]);
    } finally {
      stop();
    }
  });

  it('a panel that honours the key makes one redemption of the re-sent Confirm, and nothing is said', async () => {
    await fault(a, { path: REDEEM, repeat: true });
    const entry = await redeemNow(COFFEE);
    expect(a.requests.filter((r) => r.path === REDEEM)).toHaveLength(2);
    expect(commitsOf(a, COFFEE) - SEED_A.redemptions.filter((r) => r.reward.id === Number(COFFEE)).length).toBe(1);
    expect(entry.state).toBe('done');
    expect(entry.duplicates).toBeUndefined();
    expect(await duplicatesItem.getValue()).toEqual([]);
  });

  it('a refresh whose cache write storage refuses as full ends with the error shown and loading off', async () => {
    const local = fakeBrowser.storage.local;
    const set = local.set.bind(local);
    local.set = async (items: Record<string, unknown>) => {
      if ('cache:rewards' in items) throw new Error('QUOTA_BYTES quota exceeded');
      return set(items);
    };
    try {
      await expect(refreshRewards(true)).rejects.toThrow(/quota/);
    } finally {
      local.set = set;
    }
    const sync = (await syncItem.getValue()).rewards;
    expect(sync.loading).toBe(false);
    expect(sync.error?.message).toMatch(/storage is full.*Disconnect and connect again/);
  });

  it('an outcome the panel confirmed at once is not announced again when its card closes or the next redeem is refused', async () => {
    expect((await redeemNow(COFFEE)).state).toBe('done');
    await dismissRedemption();
    await settle();
    expect((await redeemNow(PAYWAVE)).state).toBe('done');
    a.state.balance = 10;
    expect((await redeemNow(BOOKS)).state).toBe('failed');
    await dismissRedemption();
    await settle();
    expect(created.filter((n) => n.id.startsWith('outcome:'))).toEqual([]);
  });

  it('an unknown outcome that a check settles is announced exactly once', async () => {
    const entry = await lostThenCommitted(COFFEE);
    expect((await checkRedemption())?.state).toBe('done');
    await dismissRedemption();
    await checkRedemption();
    await settle();
    expect(created.map((n) => n.id)).toEqual([`outcome:${entry.requestId}`]);
  });
});
