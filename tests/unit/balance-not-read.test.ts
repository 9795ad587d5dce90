// @vitest-environment node
/**
 * A balance not read never takes the catalogue with it, and is never evidence (design §2, §5). The
 * real background against the sandbox over real HTTP, on a panel that gives the balance in the
 * values answer, whose read fails while the rewards read does not:
 *
 * - the catalogue is stored and shown, the balance stored as not read (never "none" or 0), the
 *   rewards' sync state carries the failure, and nothing enters the balance history; a session
 *   ended or a key refused (401) still fails the whole read, as before;
 * - a Confirm still leaves (the panel decides), and a refusal whose balance was not read before
 *   sending nor after is never ruled "nothing charged" by two such reads, at any of its checks.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceIdle, watchBalance } from '../../entrypoints/background/balance-history';
import { refreshRewards } from '../../entrypoints/background/sync/sync';
import { notFoundWords } from '../../utils/points-taken';
import {
  balanceHistoryItem,
  ledgerItem,
  popupViewItem,
  rewardsItem,
  sessionItem,
  syncItem,
} from '../../utils/storage-items';
import type { FaultRule } from '../sandbox/types';
import { apiRequests, armFault, connectedSandbox, redeemNow, runEveryCheck } from './background-helpers';
import { rid } from './test-ids';

const VALUES = '/v1/panel/variables/data';
const REDEEM = '/v1/panel/redemption';
const UNREAD = { points: null, source: 'unread' };
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500
const TRAVEL = rid(108); // 11,000 points: the panel refuses it

const env = connectedSandbox({ timeoutMs: 1000, retryBaseDelayMs: 1 });
let unwatch: () => void;
beforeEach(() => {
  env.sandbox.state.balanceIn = 'variables';
  unwatch = watchBalance();
});
afterEach(() => unwatch());

/** Every values read fails this way from now on, its retries included. */
const valuesFail = (rule: Omit<FaultRule, 'path'>) => armFault(env.sandbox, { ...rule, path: VALUES, times: 1000 });

describe('a values read that fails beside a rewards read that does not', () => {
  it.each<[string, Omit<FaultRule, 'path'>, string]>([
    ['a 5xx after its retries', { status: 503 }, 'server'],
    ['no answer', { drop: true }, 'network'],
    ['a 403', { status: 403, body: '{"message":"Not for you."}' }, 'not_allowed'],
    ['an answer of an unknown shape', { status: 200, body: '{"data":5}' }, 'unexpected'],
  ])('%s: the catalogue is stored, the balance not read, the failure in the sync state', async (_, rule, kind) => {
    await valuesFail(rule);
    const data = await refreshRewards(true);
    expect(data.rewards.map((r) => r.id)).toEqual(env.sandbox.state.rewards.map((r) => String(r.id)));
    expect(data.balance).toEqual(UNREAD);
    const stored = (await rewardsItem.getValue())?.data;
    expect(stored?.rewards.map((r) => r.id)).toEqual(data.rewards.map((r) => r.id));
    expect(stored?.balance).toEqual(UNREAD);
    expect((await popupViewItem.getValue())?.rewards?.balance).toEqual(UNREAD);
    expect((await syncItem.getValue()).rewards).toMatchObject({ loading: false, error: { kind } });
    await balanceIdle();
    expect(await balanceHistoryItem.getValue()).toEqual([]);
  });

  it('over a cached copy: the new catalogue lands, and the balance read once the values answer again', async () => {
    expect((await refreshRewards(true)).balance).toEqual({ points: 2500, source: 'variables' });
    env.sandbox.state.rewards[0]!.name = 'Renamed Coffee';
    await valuesFail({ status: 500 });
    const data = await refreshRewards(true);
    expect(data.rewards[0]?.name).toBe('Renamed Coffee');
    expect(data.balance).toEqual(UNREAD);
    // The last balance read stays in the history; the one not read adds nothing to it.
    await balanceIdle();
    expect((await balanceHistoryItem.getValue()).map((s) => s.points)).toEqual([2500]);
    env.sandbox.reset();
    env.sandbox.state.balanceIn = 'variables';
    // Read whole again: a 304 for a balance not read would confirm nothing.
    expect((await refreshRewards(true)).balance).toEqual({ points: 2500, source: 'variables' });
    expect((await syncItem.getValue()).rewards.error).toBeNull();
  });

  it('a key refused (401) at the values read still fails the whole read and asks to reconnect', async () => {
    await armFault(env.sandbox, { path: VALUES, status: 401 });
    await expect(refreshRewards(true)).rejects.toMatchObject({ error: { kind: 'unauthorized' } });
    expect((await sessionItem.getValue()).rejected).toBe(true);
    expect((await syncItem.getValue()).rewards.error).toMatchObject({ kind: 'unauthorized' });
  });
});

describe('a Confirm while the balance cannot be read', () => {
  beforeEach(async () => {
    await refreshRewards(true);
    await valuesFail({ status: 503 });
  });

  it('is sent all the same, and the panel decides', async () => {
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({ state: 'done', points: 500 });
    expect(entry).not.toHaveProperty('balanceBefore');
    expect(env.sandbox.state.balance).toBe(2000);
  });

  it('a refusal whose balance was read neither before sending nor after is never "nothing charged" by it', async () => {
    const entry = await redeemNow(TRAVEL);
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
    expect(entry).toMatchObject({ state: 'unknown', answer: 'refused', balanceUnread: true });
    expect(entry.error).not.toHaveProperty('nothingCharged');
    // Each due check reads the balance for this Confirm, and each read fails: no check may rule.
    await runEveryCheck();
    const settled = await ledgerItem.getValue();
    expect(settled).toMatchObject({ requestId: entry.requestId, state: 'not_found', balanceUnread: true });
    expect(settled!.error).not.toHaveProperty('nothingCharged');
    expect(notFoundWords(settled!)).toBe('balance-unread');
    // Not read is no "none": a null before sending would say the panel shows no balance.
    expect(settled).not.toHaveProperty('balanceBefore');
  });
});
