// @vitest-environment node
/**
 * Impossible numbers are neither shown nor acted on. The real API client and
 * background modules against the sandbox over real HTTP:
 *
 * - a reward whose `reward_point_cost` the panel cannot mean (below zero, a fraction, beyond 2^53,
 *   not a number) is quarantined: kept in the list with its cost null and `costRefused`, the rest of
 *   the list unchanged, and the background refuses to redeem it without sending anything;
 * - a balance the interface cannot mean (below zero, a fraction, beyond 2^53) is not read: the
 *   catalogue of its answer is stored all the same, the balance is neither shown nor stood in for by
 *   a later place, the sync state says why, and nothing enters the balance history;
 * - a plausible but absurd balance (123,456,789,012) read once does not stay in the history: a read
 *   enters it only when the next read agrees (utils/balance-trend.ts), and totals count only those.
 *
 * The pages' side (no "-500 points · Enough points", no "ZZZ 5.00") is in
 * impossible-numbers-pages.test.tsx.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceIdle, watchBalance } from '../../entrypoints/background/balance-history';
import { refreshProfile, refreshRewards } from '../../entrypoints/background/sync/sync';
import { balanceHistoryItem, rewardsItem, syncItem } from '../../utils/storage-items';
import { EARN_DAYS, flowOver } from '../../utils/balance-trend';
import { earnedText } from '../../utils/earned';
import type { Reward } from '../../utils/types';
import { apiRequests, connectedSandbox, redeemNow } from './background-helpers';
import { rid } from './test-ids';
import type { Reward as SandboxReward } from '../sandbox/types';

const REDEEM = '/v1/panel/redemption';
const env = connectedSandbox({ timeoutMs: 1000, retryBaseDelayMs: 1 });
let unwatch: () => void;
beforeEach(() => {
  unwatch = watchBalance();
});
afterEach(() => unwatch());

/** The seed's rewards with these point costs planted on the first few, as a panel might send them. */
function plantCosts(costs: unknown[]): SandboxReward[] {
  const rewards = structuredClone(env.sandbox.state.rewards);
  costs.forEach((cost, i) => ((rewards[i] as { reward_point_cost: unknown }).reward_point_cost = cost));
  env.sandbox.state.rewards = rewards;
  return rewards;
}

describe('a point cost the interface cannot mean', () => {
  const IMPOSSIBLE = [-500, 12.5, 2 ** 53, 1e21, '500', true];

  it('quarantines each such reward, and only it: the rest of the catalogue reads as before', async () => {
    const planted = plantCosts(IMPOSSIBLE);
    const data = await refreshRewards(true);
    expect(data.rewards).toHaveLength(planted.length);
    const [bad, good] = [data.rewards.slice(0, IMPOSSIBLE.length), data.rewards.slice(IMPOSSIBLE.length)];
    for (const reward of bad) expect(reward).toMatchObject({ reward_point_cost: null, costRefused: true });
    expect(good.map((r) => [r.id, r.reward_point_cost, r.costRefused])).toEqual(
      planted.slice(IMPOSSIBLE.length).map((r) => [String(r.id), r.reward_point_cost, undefined]),
    );
    // What is stored is what the pages show from.
    const costs = (rewards: readonly Reward[] | undefined) =>
      rewards?.map((r) => [r.id, r.reward_point_cost, r.costRefused ?? false]);
    expect(costs((await rewardsItem.getValue())?.data.rewards)).toEqual(costs(data.rewards));
  });

  it('a free reward (cost 0) is no impossible cost', async () => {
    plantCosts([0]);
    const [free] = (await refreshRewards(true)).rewards;
    expect(free).toMatchObject({ reward_point_cost: 0 });
    expect(free).not.toHaveProperty('costRefused');
  });

  it('the background refuses to redeem a quarantined reward and sends nothing; the others still redeem', async () => {
    const [negative] = plantCosts([-500]);
    await refreshRewards(true);
    const balance = env.sandbox.state.balance;
    await expect(redeemNow(rid(negative!.id))).rejects.toMatchObject({ error: { kind: 'invalid_input' } });
    expect(apiRequests(env.sandbox, REDEEM)).toBe(0);
    // A negative cost redeemed at the panel would have raised the balance by 500.
    expect(env.sandbox.state.balance).toBe(balance);
    const other = env.sandbox.state.rewards.find((r) => r.reward_point_cost === 1000)!;
    await expect(redeemNow(rid(other.id))).resolves.toMatchObject({ state: 'done', points: 1000 });
    expect(env.sandbox.state.balance).toBe(balance - 1000);
  });
});

describe('a balance the interface cannot mean', () => {
  it.each([
    ['below zero', -50],
    ['a fraction', 1200.5],
    ['beyond 2^53', 2 ** 60],
  ])(
    '%s keeps the catalogue: stored with the balance not read, the sync state says why, the history gains nothing',
    async (_, balance) => {
      const before = await refreshRewards(true);
      await balanceIdle();
      expect(before.balance).toEqual({ points: 2500, source: 'rewards' });
      const history = await balanceHistoryItem.getValue();
      env.sandbox.state.balance = balance;
      env.sandbox.state.rewards[0]!.name = 'Renamed Coffee';
      const read = await refreshRewards(true);
      expect(read.rewards[0]?.name).toBe('Renamed Coffee');
      expect(read.balance).toEqual({ points: null, source: 'unread' });
      const stored = await rewardsItem.getValue();
      expect(stored?.data.rewards.map((r) => r.name)).toEqual(read.rewards.map((r) => r.name));
      expect(stored?.data.balance).toEqual({ points: null, source: 'unread' });
      expect((await syncItem.getValue()).rewards.error).toMatchObject({
        kind: 'unexpected',
        endpoint: '/v1/panel/rewards',
        message: expect.stringContaining('points: not a points balance'),
      });
      await balanceIdle();
      expect(await balanceHistoryItem.getValue()).toEqual(history);
    },
  );

  it('in the values answer, the stored variable does not stand in for it, and the profile reads as ever', async () => {
    env.sandbox.state.balanceIn = 'variables';
    env.sandbox.state.balance = -40;
    env.sandbox.state.values = { ...env.sandbox.state.values, POINTS_BALANCE: '900' };
    expect((await refreshRewards(true)).balance).toEqual({ points: null, source: 'unread' });
    expect((await syncItem.getValue()).rewards.error).toMatchObject({ endpoint: '/v1/panel/variables/data' });
    expect((await refreshProfile(true)).values).toMatchObject({ POINTS_BALANCE: '900' });
  });
});

describe('one absurd balance read never poisons the history', () => {
  const points = async () =>
    (await balanceHistoryItem.getValue()).map((s) => (s.tentative ? `${s.points}?` : s.points));
  const earned = async () =>
    earnedText(flowOver(await balanceHistoryItem.getValue(), EARN_DAYS, Date.now()), EARN_DAYS);
  const read = async (balance: number) => {
    env.sandbox.state.balance = balance;
    await refreshRewards(true);
    await balanceIdle();
  };

  it('123,456,789,012 in one refresh: tentative while alone, dropped when the next read says 2,500; nothing "earned"', async () => {
    await read(2500);
    await read(2500);
    expect(await points()).toEqual([2500]);
    await read(123_456_789_012);
    expect(await points()).toEqual([2500, '123456789012?']);
    expect(await earned()).toBeNull();
    await read(2500);
    expect(await points()).toEqual([2500]);
    expect(await earned()).toBeNull();
  });

  it('a real rise counts once a second read agrees: "1,000 points earned"', async () => {
    await read(2500);
    await read(2500);
    await read(3500);
    expect(await earned()).toBeNull();
    await read(3500);
    expect(await points()).toEqual([2500, 3500]);
    expect(await earned()).toMatch(/^1,000 points earned /);
  });
});
