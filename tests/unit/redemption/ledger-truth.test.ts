// @vitest-environment node
/**
 * The panel's history is the ledger: each case in which one answer to the redeem used to tell the
 * panelist something false about their points, reproduced against the sandbox over real HTTP
 * (a browser's re-send, an idempotent panel's 409, a second client on the account, a panel that
 * answers one thing and records another) with storage answering a few milliseconds late. What the
 * popup and the history rows say of these is pinned by the component tests.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { notificationsIdle, watchNotifications } from '../../../entrypoints/background/notify/notifications';
import { checkOutcomes, dismissRedemption } from '../../../entrypoints/background/redemption/service';
import { onStored } from '../../../entrypoints/background/store/stored-reads';
import { CHECK_ALARM } from '../../../entrypoints/background/redemption/service';
import { connect } from '../../../entrypoints/background/session/session';
import { refreshHistory } from '../../../entrypoints/background/sync/sync';
import {
  duplicatesItem,
  historyItem,
  ledgerItem,
  preferencesItem,
  settledItem,
  unsettledItem,
} from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import type { Sandbox } from '../../sandbox/server';
import { SEED_A } from '../accounts';
import {
  armFault,
  closeSandboxes,
  fakeNotifications,
  runEveryCheck,
  type Shown,
  slowReads,
  startTwoAccounts,
  redeemNow,
  releaseHeld,
  until,
  withClientTimeout,
} from '../background-helpers';
import { did, rid } from '../test-ids';
import type { RewardId } from '../../../utils/ids';

const REDEEM = '/v1/panel/redemption';
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500
const BOOKS = rid(102);
const PAYWAVE = rid(109); // 1,000 points

let a: Sandbox;
let b: Sandbox;
let shown: Shown[];
let stopWatching: () => void;
let restoreReads: () => void;

beforeAll(async () => {
  // Only case 4 is about the client's time-out, and sets its own around the redeem it times out:
  // 300 ms for the file raced the panel's ordinary answers on a busy machine (case 1's 402 came late).
  ({ a, b } = await startTwoAccounts({ timeoutMs: 3000, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));
beforeEach(async () => {
  fakeBrowser.reset();
  a.reset();
  shown = fakeNotifications();
  stopWatching = watchNotifications();
  await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
  await connect(a.url, a.token);
  await settle();
  restoreReads = slowReads(3);
});
afterEach(() => {
  restoreReads();
  stopWatching();
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function settle(): Promise<void> {
  await a.idle();
  await sleep(20);
  await notificationsIdle();
}

const ignoreKeys = () =>
  fetch(`${a.url}/__sandbox/idempotency`, { method: 'PATCH', body: JSON.stringify({ honour: false }) });
const seeded = (rewardId: RewardId) => SEED_A.redemptions.filter((r) => r.reward.id === Number(rewardId)).length;
const madeOf = (rewardId: RewardId) =>
  a.state.redemptions.filter((r) => r.reward.id === Number(rewardId)).length - seeded(rewardId);
const redeemElsewhere = (rewardId: RewardId, key?: string) =>
  fetch(`${a.url}${REDEEM}?id=${rewardId}`, {
    headers: { Authorization: `Bearer ${a.token}`, ...(key ? { 'Idempotency-Key': `"${key}"` } : {}) },
  });

describe('the history settles every Confirm, never one answer', () => {
  it('case 1: the browser re-sends a committed redeem and the copy is refused for lack of points: told as redeemed, never "nothing charged"', async () => {
    await ignoreKeys();
    a.state.balance = 1500;
    await armFault(a, { path: REDEEM, repeat: true });
    const entry = await redeemNow(PAYWAVE);
    // The panel answered 402 to the copy; its first copy had already spent 1,000 points.
    expect(a.requests.filter((r) => r.path === REDEEM).map((r) => r.repeated ?? false)).toEqual([false, true]);
    expect(madeOf(PAYWAVE)).toBe(1);
    expect(entry).toMatchObject({ state: 'done', answer: 'refused', balanceAfter: 500 });
    expect(entry.error).toBeUndefined();
    expect(entry.redemption?.id).toBe(did(a.state.redemptions.at(-1)!.id));
    expect(entry.duplicates).toBeUndefined();
    // The card stays true once it is closed: the outcome is kept among the recent ones, as done.
    await dismissRedemption();
    expect(await settledItem.getValue()).toEqual([
      expect.objectContaining({ requestId: entry.requestId, state: 'done' }),
    ]);
  });

  it('case 1, refused outright: a 402 the history confirms (no new redemption in the read after it) is "nothing charged"', async () => {
    a.state.balance = 400;
    const entry = await redeemNow(COFFEE);
    expect(madeOf(COFFEE)).toBe(0);
    expect(entry).toMatchObject({
      state: 'failed',
      answer: 'refused',
      error: { status: 402, nothingCharged: true },
      balanceAfter: 400,
    });
  });

  it('case 2: a 409 for a copy still being processed is unknown, and the first copy is found by the checks, never "failed"', async () => {
    await armFault(a, { path: REDEEM, repeat: 'overlapping', delayMs: 600 });
    const entry = await redeemNow(BOOKS);
    expect(entry).toMatchObject({ state: 'unknown', answer: 'unclear', error: { status: 409 } });
    expect(entry.error?.nothingCharged).toBeUndefined();
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
    await a.idle();
    expect(madeOf(BOOKS)).toBe(1);
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'done' });
    await settle();
    expect(shown.map((n) => n.id)).toEqual([`outcome:${entry.requestId}`]);
  });

  it('case 3: a success the history did not show yet, then recorded twice after its card was closed, is told as recorded twice', async () => {
    await ignoreKeys();
    // The panel says success but has not recorded it yet.
    await armFault(a, { path: REDEEM, status: 200, body: '{"message":"success"}' });
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({ state: 'unknown', answer: 'success' });
    await dismissRedemption();
    expect(await unsettledItem.getValue()).toEqual([expect.objectContaining({ requestId: entry.requestId })]);
    // Both copies of that one Confirm land; the next check is the first read to show them.
    await redeemElsewhere(COFFEE, entry.idempotencyKey);
    await redeemElsewhere(COFFEE, entry.idempotencyKey);
    await runEveryCheck();
    const [settled] = await settledItem.getValue();
    expect(settled).toMatchObject({ requestId: entry.requestId, state: 'done', duplicates: [expect.any(String)] });
    expect(await duplicatesItem.getValue()).toEqual([expect.objectContaining({ requestId: entry.requestId })]);
    await settle();
    expect(shown.map((n) => n.id).sort()).toEqual([`duplicate:${entry.requestId}`, `outcome:${entry.requestId}`]);
  });

  it('case 4: a redemption made on the website after the Confirm was found is one more in the history, never its repeat', async () => {
    // The answer is lost (the client's time-out) and the panel commits after the read that followed
    // it: the redeem is held by the panel until that read is over. The time-out bounds the reads
    // before sending too, so it is long enough for them on a busy machine; the hold makes the order.
    await armFault(a, { path: REDEEM, held: true });
    const entry = await withClientTimeout(1000, () => redeemNow(COFFEE));
    expect(entry.state).toBe('unknown');
    await releaseHeld(a);
    await a.idle();
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'done' });
    // Minutes later the panelist redeems the same reward on the panel's website.
    await redeemElsewhere(COFFEE);
    await refreshHistory(true);
    await runEveryCheck();
    await settle();
    expect((await ledgerItem.getValue())?.duplicates).toBeUndefined();
    expect(await duplicatesItem.getValue()).toEqual([]);
    expect(shown.map((n) => n.id)).not.toContain(`duplicate:${entry.requestId}`);
  });

  it('case 4b: a copy the panel reversed, whose id, reward and second it gives the next Confirm: that Confirm’s own is no copy', async () => {
    await ignoreKeys();
    await armFault(a, { path: REDEEM, repeat: true });
    const first = await redeemNow(COFFEE);
    expect(first).toMatchObject({ state: 'done', duplicates: [expect.any(String)] });
    const copy = a.state.redemptions.at(-1)!;
    expect(await duplicatesItem.getValue()).toEqual([expect.objectContaining({ requestId: first.requestId })]);
    // The panel reverses the copy; numbering max + 1 within the same second, the next redemption is
    // whole-identical to it. No read shows the copy gone before the next Confirm's baseline.
    a.state.redemptions = a.state.redemptions.filter((r) => r !== copy);
    // Its answer waits until the panel has given it the copy's second too.
    await armFault(a, { path: REDEEM, answerHeld: true });
    const confirming = redeemNow(COFFEE);
    await until(() => a.state.redemptions.at(-1)?.id === copy.id);
    a.state.redemptions.at(-1)!.created_at = copy.created_at;
    await releaseHeld(a);
    const second = await confirming;
    // Its baseline, read after the copy was gone, did not show it: this Confirm's claim is the later
    // evidence about that whole redemption, and the history no longer marks it as the first's copy.
    expect(second).toMatchObject({ state: 'done', redemption: { id: did(copy.id) } });
    expect(await duplicatesItem.getValue()).toEqual([]);
  });

  it('case 4c: a worker stopped right after storing the read that shows the copy reversed, then its id, reward and second given again: the mark still goes', async () => {
    // What index.ts registers: each stored history read is checked against the open Confirms.
    const stopChecks = onStored(
      (area, data, sid) =>
        void (area === 'history' && checkOutcomes(null, { sid, history: data as Redemption[] }).catch(() => undefined)),
    );
    try {
      await ignoreKeys();
      await armFault(a, { path: REDEEM, repeat: true });
      const first = await redeemNow(COFFEE);
      const copy = a.state.redemptions.at(-1)!;
      expect(await duplicatesItem.getValue()).toEqual([expect.objectContaining({ requestId: first.requestId })]);
      await dismissRedemption();
      // The panel reverses the copy; a refresh stores the read that shows it gone, and the worker
      // stops right after that write: nothing else it would write reaches storage.
      a.state.redemptions = a.state.redemptions.filter((r) => r !== copy);
      const local = fakeBrowser.storage.local;
      const set = local.set.bind(local);
      let stopped = false;
      const writes = vi.spyOn(local, 'set').mockImplementation(async (items) => {
        if (stopped) throw new Error('the worker stopped');
        await set(items);
        if (historyItem.head.key in items) stopped = true;
      });
      await refreshHistory(true);
      await settle();
      expect(stopped).toBe(true);
      writes.mockRestore();
      // Numbering max + 1 within the same second, the panel gives the copy's whole key to a
      // redemption made elsewhere, before the next read: that read shows both keys again.
      await redeemElsewhere(COFFEE);
      const next = a.state.redemptions.at(-1)!;
      expect(next.id).toBe(copy.id);
      next.created_at = copy.created_at;
      await refreshHistory(true);
      await settle();
      // The read that showed the copy gone was the evidence, and it was stored with its prune.
      expect(await duplicatesItem.getValue()).toEqual([]);
    } finally {
      stopChecks();
    }
  });

  it('case 5: redeeming another reward while one is being checked keeps the first open and checked until the history settles it', async () => {
    await armFault(a, { path: REDEEM, drop: true });
    const first = await redeemNow(BOOKS);
    expect(first.state).toBe('unknown');
    const second = await redeemNow(COFFEE);
    expect(second.state).toBe('done');
    expect(await unsettledItem.getValue()).toEqual([
      expect.objectContaining({ requestId: first.requestId, state: 'unknown' }),
    ]);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
    await runEveryCheck();
    expect(await settledItem.getValue()).toContainEqual(
      expect.objectContaining({ requestId: first.requestId, state: 'not_found' }),
    );
    await settle();
    expect(shown.map((n) => n.id)).toContain(`outcome:${first.requestId}`);
  });

  it('case 6: a success with nothing recorded is never "redeemed": unknown, checked, then not found, with the balance untouched', async () => {
    await armFault(a, { path: REDEEM, status: 200, body: '{"message":"success"}' });
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({ state: 'unknown', answer: 'success' });
    expect(entry.redemption).toBeUndefined();
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({
      requestId: entry.requestId,
      state: 'not_found',
      answer: 'success',
    });
    expect(a.state.balance).toBe(2500);
    // Told to ask the panel, not to redeem again: the panel did say it went through.
    await settle();
    expect(shown).toEqual([
      expect.objectContaining({
        id: `outcome:${entry.requestId}`,
        message: expect.stringMatching(
          /answered that .+ went through.*Contact Panel Rewards before redeeming it again/,
        ),
      }),
    ]);
  });

  it.each([422, 404])(
    'case 6: a %i after the panel charged is told as redeemed, not "nothing charged"',
    async (status) => {
      await armFault(a, { path: REDEEM, commit: true, status, body: '{"message":"The selected id is invalid."}' });
      const entry = await redeemNow(COFFEE);
      expect(madeOf(COFFEE)).toBe(1);
      expect(entry).toMatchObject({ state: 'done', answer: 'refused', balanceAfter: 2000 });
      expect(entry.error).toBeUndefined();
    },
  );

  it('a reconnect of the same account keeps every Confirm still being settled; a key whose history is another person’s gets none', async () => {
    await armFault(a, { path: REDEEM, drop: true });
    const open = await redeemNow(BOOKS);
    expect(open.state).toBe('unknown');
    // The panel stopped accepting the key; the panelist pastes a new one: its history is the same account's.
    await connect(a.url, a.token);
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: open.requestId, state: 'unknown' });
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: open.requestId, state: 'not_found' });

    await armFault(a, { path: REDEEM, drop: true });
    const other = await redeemNow(COFFEE);
    expect(other.state).toBe('unknown');
    // Someone else's key on the same panel: none of the redemptions this account's Confirms knew.
    a.state.redemptions = a.state.redemptions.map((r) => ({ ...r, id: r.id + 10_000 }));
    await connect(a.url, a.token);
    expect([
      await ledgerItem.getValue(),
      ...(await unsettledItem.getValue()),
      ...(await settledItem.getValue()),
    ]).toEqual([null]);
  });
});
