// @vitest-environment node
/**
 * Storage an earlier version wrote, with reward and redemption ids as numbers, reads in this
 * version's form (the ids' exact digits) once the worker has started: a Confirm it left open still
 * matches its redemption, the goal still names its reward.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { applyRead } from '../../entrypoints/background/redemption/machine';
import { settleStorage } from '../../entrypoints/background/store/store';
import { IDS_FORM, idsFormItem, idUpgrade, withIdDigits } from '../../entrypoints/background/store/stored-ids';
import { duplicatesItem, goalItem, historyItem, ledgerItem, rewardsItem, sessionItem } from '../../utils/storage-items';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { at, did, rid } from './test-ids';

const redemption = (id: number, reward: number) => ({
  id,
  cost: 5,
  currency: 'USD',
  reward_point_cost: 500,
  reward: {
    id: reward,
    name: 'Coffee',
    cost: 5,
    cost_currency: 'USD',
    type: 'g',
    image_url: '',
    meta_data: {},
    reward_point_cost: null,
  },
  approved: false,
  processed: false,
  created_at: '2026-11-20T10:00:00',
  updated_at: '2026-11-20T10:00:00',
  failed: false,
  refunded: false,
  partner_status: null,
  failed_reason: null,
  transaction_id: null,
});

/** Connected as session `s`: a start while disconnected would clear the session's items anyway. */
const CONNECTED = {
  [credentialsItem.key]: { session: 's', baseUrl: 'https://panel.example', token: 'key' },
  [sessionItem.key]: {
    connected: true,
    baseUrl: 'https://panel.example',
    origin: 'https://panel.example',
    tokenHint: 'key',
    rejected: false,
    id: 's',
  },
};

beforeEach(() => fakeBrowser.reset());

describe('ids an earlier version stored as numbers', () => {
  it('read as digits after the worker starts, once; a Confirm it left open still finds its redemption', async () => {
    await fakeBrowser.storage.local.set({
      ...CONNECTED,
      ledger: {
        requestId: 'r',
        rewardId: 101,
        rewardName: 'Coffee',
        points: 500,
        startedAt: 1,
        knownRedemptionIds: [5001, 5002],
        idempotencyKey: 'r',
        state: 'unknown',
        checks: { done: 0, nextAt: 2, lastAt: null },
      },
      'ledger:duplicates': [{ requestId: 'x', rewardName: 'Coffee', points: 500, redemptionIds: [5003, 5004] }],
      goal: { account: 'a', rewardId: 101, rewardName: 'Coffee', setAt: 1 },
      'cache:rewards': {
        data: { rewards: [{ ...redemption(0, 0).reward, id: 101 }], balance: { points: 1, source: 'rewards' } },
        fetchedAt: 1,
      },
      'cache:history': { fetchedAt: 1, total: 1, pages: 1 },
      'cache:history:0': [redemption(5001, 101)],
    });
    await settleStorage();
    const entry = (await ledgerItem.getValue())!;
    expect(entry).toMatchObject({ rewardId: '101', knownRedemptionIds: ['5001', '5002'] });
    expect((await goalItem.getValue())?.rewardId).toBe('101');
    expect((await duplicatesItem.getValue())[0]?.redemptionIds).toEqual(['5003', '5004']);
    expect((await rewardsItem.getValue())?.data.rewards[0]?.id).toBe('101');
    expect((await historyItem.getValue())?.data[0]).toMatchObject({ id: '5001', reward: { id: '101' } });
    expect(await idsFormItem.getValue()).toBe(2);

    // The open Confirm matches a new redemption of its reward, and not one its old baseline knew.
    const history = [5001, 5005].map((id) => ({
      ...redemption(id, 101),
      id: did(id),
      reward: { ...redemption(id, 101).reward, id: rid(101) },
      created_at: at('2026-11-20T10:00:00'),
    }));
    const after = applyRead(
      { current: entry, awaitingCheck: [], recentlySettled: [] },
      { history, requestedAt: 10 },
      null,
      11,
    );
    expect(after.current).toMatchObject({ state: 'done', redemption: { id: '5005' } });

    // Written once: a later start reads nothing again, and what this version writes is left alone.
    await fakeBrowser.storage.local.set({ goal: { account: 'a', rewardId: 102, rewardName: 'x', setAt: 2 } });
    await settleStorage();
    expect((await goalItem.getValue())?.rewardId).toBe(102);
  });

  it('timestamps as the panel spelled them read as instants, baselines too: an old redemption is never taken for new', async () => {
    const spelled = '2026-11-20 10:00:00';
    const old = { ...redemption(5001, 101), id: '5001', reward: { ...redemption(5001, 101).reward, id: '101' } };
    await fakeBrowser.storage.local.set({
      ...CONNECTED,
      // Ids already as digits (the form before timestamps were instants).
      [idsFormItem.key]: 1,
      ledger: {
        requestId: 'r',
        rewardId: '101',
        rewardName: 'Coffee',
        points: 500,
        startedAt: 1,
        baseline: [`5001 101 ${spelled}`],
        idempotencyKey: 'r',
        state: 'unknown',
        checks: { done: 0, nextAt: 2, lastAt: null },
      },
      'cache:history': { fetchedAt: 1, total: 1, pages: 1 },
      'cache:history:0': [{ ...old, created_at: spelled }],
    });
    await settleStorage();
    const entry = (await ledgerItem.getValue())!;
    expect(entry.baseline).toEqual(['5001 101 2026-11-20T10:00:00Z']);
    expect((await historyItem.getValue())?.data[0]?.created_at).toBe('2026-11-20T10:00:00Z');
    expect(await idsFormItem.getValue()).toBe(2);
    // The panel now writes it Laravel's way: the same redemption, not this Confirm's.
    const read = [
      { ...old, id: did(5001), reward: { ...old.reward, id: rid(101) }, created_at: at('2026-11-20T10:00:00.000000Z') },
    ];
    const after = applyRead(
      { current: entry, awaitingCheck: [], recentlySettled: [] },
      { history: read, requestedAt: 10 },
      null,
      11,
    );
    expect(after.current).toMatchObject({ state: 'unknown' });
  });
});

describe('the upgrade of stored ids, value by value', () => {
  it('writes only what an earlier version wrote: an item already in this form is left alone', () => {
    const current = { ledger: { requestId: 'r', rewardId: '101', baseline: ['5001 101 2026-11-20T10:00:00Z'] } };
    expect(idUpgrade(current)).toEqual([{ key: idsFormItem.key, value: IDS_FORM }]);
    const kept = { id: '7', rewardId: '8', created_at: '2026-11-20T10:00:00Z', knownRedemptionIds: ['9'] };
    expect(withIdDigits(kept)).toBe(kept);
  });

  it('an id is an integer: other numbers and text are kept as they are', () => {
    expect(withIdDigits({ id: 1.5, rewardId: 'abc', duplicates: [2.5, 'x'] })).toEqual({
      id: 1.5,
      rewardId: 'abc',
      duplicates: [2.5, 'x'],
    });
    expect(withIdDigits({ id: 12, duplicates: [3] })).toEqual({ id: '12', duplicates: ['3'] });
  });

  it('a baseline key gets its time as an instant; a key of no whole redemption, or text before it, is kept', () => {
    expect(withIdDigits({ baseline: ['5001 101 2026-11-20 10:00:00'] })).toEqual({
      baseline: ['5001 101 2026-11-20T10:00:00Z'],
    });
    const odd = { baseline: ['5001 101 yesterday', 'one', ' 5001 101 2026-11-20 10:00:00'] };
    expect(withIdDigits(odd)).toBe(odd);
  });
});
