// @vitest-environment node
/**
 * An answer speaks for one copy of the request: the panel may answer a re-sent copy at once while
 * the first copy commits a moment later under the same `Idempotency-Key`. Only a refusal that the
 * panel's own answer and an unmoved balance, both read, back is "nothing charged"; everything else
 * waits for the history. Against the sandbox over real HTTP, with storage answering late.
 */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CHECK_ALARM, onCheckAlarm } from '../../../entrypoints/background/redemption/service';
import { recoverAfterStop } from '../../../entrypoints/background/recover';
import { connect } from '../../../entrypoints/background/session/session';
import { ledgerItem, preferencesItem, unsettledItem, type LedgerEntry } from '../../../utils/storage-items';
import type { Sandbox } from '../../sandbox/server';
import { SEED_A } from '../accounts';
import { armFault, redeemNow, runEveryCheck, slowReads, twoAccountHooks, until } from '../background-helpers';
import { did, parsed, rid } from '../test-ids';
import { redemptionKey } from '../../../utils/ids';
import type { RewardId } from '../../../utils/ids';

const REDEEM = '/v1/panel/redemption';
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500
const BOOKS = rid(102);
const REWARDS = '/v1/panel/rewards';

let a: Sandbox;
twoAccountHooks(
  (accounts) => ({ a } = accounts),
  async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
    await connect(a.url, a.token);
    await a.idle();
    return slowReads(3);
  },
);

const seeded = (rewardId: RewardId) => SEED_A.redemptions.filter((r) => r.reward.id === Number(rewardId)).length;
const madeOf = (rewardId: RewardId) =>
  a.state.redemptions.filter((r) => r.reward.id === Number(rewardId)).length - seeded(rewardId);

/** A Confirm of another reward whose check is due now: one alarm serves it and every other. */
function dueElsewhere(now: number): LedgerEntry {
  return {
    requestId: 'other',
    rewardId: BOOKS,
    rewardName: 'Books',
    points: 1000,
    startedAt: now - 30_000,
    knownRedemptionIds: a.state.redemptions.map((r) => did(r.id)),
    idempotencyKey: 'other',
    state: 'unknown',
    answer: 'unclear',
    answeredAt: now - 29_000,
    checks: { done: 0, nextAt: now, lastAt: null },
  };
}

/** The first copy of the Confirm, committing late under its key (a slow gift-card provider). */
const firstCopyCommits = (rewardId: RewardId, key: string) =>
  fetch(`${a.url}${REDEEM}?id=${rewardId}`, {
    headers: { Authorization: `Bearer ${a.token}`, 'Idempotency-Key': `"${key}"` },
  });

describe('an answer speaks for one copy', () => {
  it('a 429 to a copy is unclear like a 409: never "nothing charged", and the first copy committing later is found', async () => {
    await armFault(a, { path: REDEEM, status: 429, headers: { 'Retry-After': '1' } });
    const entry = await redeemNow(COFFEE);
    // Nothing is in the history yet and the balance has not moved: still, a rate limit refused one copy only.
    expect(madeOf(COFFEE)).toBe(0);
    expect(entry).toMatchObject({ state: 'unknown', answer: 'unclear', error: { status: 429 } });
    expect(entry.error?.nothingCharged).toBeUndefined();
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
    // The first copy commits under the same key, a moment later.
    expect((await firstCopyCommits(COFFEE, entry.idempotencyKey!)).status).toBe(200);
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'done' });
  });
});

describe('a balance that could not be read is ruled only by a read taken for that Confirm', () => {
  it('a refusal whose balance after the answer was unread is not ruled "nothing charged" by another Confirm’s check', async () => {
    const due = Date.now();
    await unsettledItem.setValue([dueElsewhere(due)]);
    await armFault(a, { path: REDEEM, status: 402, body: '{"message":"Insufficient points."}', delayMs: 100 });
    const confirming = redeemNow(COFFEE);
    await until(() => a.requests.some((r) => r.path === REDEEM));
    await armFault(a, { path: REWARDS, status: 500, times: 10 });
    const entry = await confirming;
    expect(entry).toMatchObject({ state: 'unknown', answer: 'refused', balanceUnread: true });
    await fetch(`${a.url}/__sandbox/faults`, { method: 'DELETE' });
    // The alarm fires for the other Confirm's check, seconds after this answer.
    await onCheckAlarm({ name: CHECK_ALARM, scheduledTime: due });
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'unknown' });
    expect((await unsettledItem.getValue())[0]?.checks).toMatchObject({ done: 1 });
    // Its own check reads the balance for it: unmoved, and the history shows nothing new.
    await onCheckAlarm({ name: CHECK_ALARM, scheduledTime: entry.checks!.nextAt! });
    expect(await ledgerItem.getValue()).toMatchObject({
      requestId: entry.requestId,
      state: 'failed',
      error: { nothingCharged: true },
    });
  });
});

describe('a worker stopped after a refusal was written', () => {
  it('keeps its balance unread: the first history read at restart rules nothing, its own check with a balance read does', async () => {
    // The stopped worker had written the 402 and not yet read the balance after it.
    const startedAt = Date.now() - 2_000;
    const stopped: LedgerEntry = {
      requestId: 'stopped',
      rewardId: COFFEE,
      rewardName: 'Coffee',
      points: 500,
      startedAt,
      baseline: a.state.redemptions.filter((r) => r.reward.id === Number(COFFEE)).map((r) => redemptionKey(parsed(r))),
      balanceBefore: a.state.balance,
      idempotencyKey: 'stopped',
      state: 'pending',
      answer: 'refused',
      answeredAt: startedAt + 500,
      error: { kind: 'rejected', message: 'Insufficient points.', status: 402 },
    };
    await ledgerItem.setValue(stopped);
    await recoverAfterStop();
    const restarted = await ledgerItem.getValue();
    expect(restarted).toMatchObject({ requestId: 'stopped', state: 'unknown', answer: 'refused', balanceUnread: true });
    expect(restarted?.error?.nothingCharged).toBeUndefined();
    await onCheckAlarm({ name: CHECK_ALARM, scheduledTime: restarted!.checks!.nextAt! });
    expect(await ledgerItem.getValue()).toMatchObject({ state: 'failed', error: { nothingCharged: true } });
  });
});
