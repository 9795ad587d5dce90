// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import { dismissRedemption, reconcilePendingRedemption, redeem, settleUnknownFrom } from '../../entrypoints/background/redeem';
import { refreshHistory, refreshRewards, setSync } from '../../entrypoints/background/sync';
import { ledgerItem, syncItem, type LedgerEntry } from '../../utils/storage-items';
import { apiRequests, connectedSandbox } from './background-helpers';

const REDEEM = '/v1/panel/redemption';
const COFFEE = 101; // 500 points; the seeded balance is 2,500
const TRAVEL = 108; // 11,000 points: more than the balance

const env = connectedSandbox();
beforeEach(async () => {
  await refreshRewards(true);
});

async function fault(rule: object): Promise<void> {
  await fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
}

describe('redeeming', () => {
  it('redeems once and records the outcome, the new balance and the history entry', async () => {
    const before = env.sandbox.state.redemptions.length;
    const entry = await redeem(COFFEE);
    expect(entry).toMatchObject({ state: 'done', rewardId: COFFEE, points: 500, balanceAfter: 2000 });
    expect(entry.redemption?.reward.id).toBe(COFFEE);
    expect(env.sandbox.state.redemptions).toHaveLength(before + 1);
    expect(env.sandbox.state.balance).toBe(2000);
    expect(await ledgerItem.getValue()).toEqual(entry);
  });

  it('lets only one of several simultaneous redemptions through', async () => {
    const outcomes = await Promise.allSettled([redeem(COFFEE), redeem(COFFEE), redeem(COFFEE)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.map((o) => o.reason.error.kind)).toEqual(['busy', 'busy']);
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
    expect(env.sandbox.state.balance).toBe(2000);
  });

  it('refuses to start while the ledger holds a pending redemption', async () => {
    await ledgerItem.setValue({ requestId: 'r', rewardId: COFFEE, rewardName: 'x', points: 500, startedAt: Date.now(), state: 'pending' });
    await expect(redeem(COFFEE)).rejects.toMatchObject({ error: { kind: 'busy' } });
    expect(apiRequests(env.sandbox, REDEEM)).toBe(0);
  });

  it('never retries a redeem that met a server error, and says nothing was spent once the history confirms it', async () => {
    await fault({ path: REDEEM, status: 500, body: '{"message":"Internal error"}' });
    const entry = await redeem(COFFEE);
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
    expect(entry.state).toBe('failed');
    expect(entry.error).toMatchObject({ nothingCharged: true });
    expect(entry.error?.message).toMatch(/did not go through/);
    expect(env.sandbox.state.balance).toBe(2500);
  });

  it('shows the server’s reason when points are short', async () => {
    const entry = await redeem(TRAVEL);
    expect(entry).toMatchObject({ state: 'failed', error: { kind: 'rejected', nothingCharged: true } });
    expect(entry.error?.message).toMatch(/Insufficient points/);
    expect(env.sandbox.state.balance).toBe(2500);
  });

  it('settles a lost answer from the history: a dropped connection with no new redemption is a failure', async () => {
    await fault({ path: REDEEM, drop: true });
    const entry = await redeem(COFFEE);
    expect(entry.state).toBe('failed');
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });

  it('waits for a slow redeem instead of resending it', async () => {
    await fault({ path: REDEEM, delayMs: 300 });
    const entry = await redeem(COFFEE);
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
      knownRedemptionIds: env.sandbox.state.redemptions.map((r) => r.id),
      state: 'pending',
    };
  }

  it('marks it done when the history shows a new redemption of that reward, without resending', async () => {
    await ledgerItem.setValue(pending(Date.now() - 1000));
    await fetch(`${env.sandbox.url}${REDEEM}?id=${COFFEE}`, { headers: { Authorization: `Bearer ${env.sandbox.token}` } });
    await reconcilePendingRedemption();
    expect(await ledgerItem.getValue()).toMatchObject({ state: 'done', balanceAfter: 2000 });
    expect(apiRequests(env.sandbox, REDEEM)).toBe(1);
  });

  it('marks the outcome unknown when the history does not show it', async () => {
    await ledgerItem.setValue(pending(Date.now()));
    await reconcilePendingRedemption();
    const entry = await ledgerItem.getValue();
    expect(entry?.state).toBe('unknown');
    expect(entry?.error?.message).toMatch(/Check your history/);
    expect(apiRequests(env.sandbox, REDEEM)).toBe(0);
  });

  it('dismissing forgets a finished outcome but never a pending one', async () => {
    await ledgerItem.setValue(pending(Date.now()));
    await dismissRedemption();
    expect(await ledgerItem.getValue()).not.toBeNull();
    await reconcilePendingRedemption();
    await dismissRedemption();
    expect(await ledgerItem.getValue()).toBeNull();
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
    await ledgerItem.setValue({
      requestId: 'lost',
      rewardId: COFFEE,
      rewardName: 'Bluefin Coffee $5 Gift Card',
      points: 500,
      startedAt,
      knownRedemptionIds: env.sandbox.state.redemptions.map((r) => r.id),
      state: 'unknown',
    });
    await settleUnknownFrom(env.sandbox.state.redemptions);
    expect((await ledgerItem.getValue())?.state).toBe('unknown');

    await fetch(`${env.sandbox.url}${REDEEM}?id=${COFFEE}`, { headers: { Authorization: `Bearer ${env.sandbox.token}` } });
    await settleUnknownFrom(env.sandbox.state.redemptions);
    const entry = await ledgerItem.getValue();
    expect(entry?.state).toBe('done');
    expect(entry?.redemption?.reward.id).toBe(COFFEE);
  });
});

describe('sync state', () => {
  it('keeps every area’s update when areas finish at the same moment', async () => {
    const loading = { loading: true, error: null, attemptedAt: 1 };
    await syncItem.setValue({ rewards: loading, history: loading, profile: loading });
    await Promise.all([setSync('rewards', { loading: false }), setSync('history', { loading: false }), setSync('profile', { loading: false })]);
    const sync = await syncItem.getValue();
    expect([sync.rewards.loading, sync.history.loading, sync.profile.loading]).toEqual([false, false, false]);
  });
});

describe('the history cache', () => {
  it('keeps of each nested reward only what the history shows, so 10,000 redemptions fit in storage', async () => {
    const history = await refreshHistory(true);
    const seeded = env.sandbox.state.redemptions;
    expect(history).toHaveLength(seeded.length);
    for (const [i, r] of history.entries()) {
      const source = seeded[i]!;
      expect(r.reward).toEqual({
        id: source.reward.id,
        name: source.reward.name,
        cost: source.reward.cost,
        cost_currency: source.reward.cost_currency,
        type: source.reward.type,
        image_url: source.reward.image_url || source.reward.meta_data.image_url,
        meta_data: {},
        reward_point_cost: null,
      });
      expect(r).toMatchObject({ id: source.id, created_at: source.created_at, processed: source.processed });
    }
    const perEntry = JSON.stringify(history).length / history.length;
    // storage.local holds 10 MiB in Chrome without unlimitedStorage.
    expect(perEntry * 10_000).toBeLessThan(6 * 1024 * 1024);
  });
});
