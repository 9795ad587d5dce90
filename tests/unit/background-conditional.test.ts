// @vitest-environment node
/**
 * The background's refreshes send the validators of the cached copy: unchanged data costs a 304
 * and keeps the cache (its time renewed); changed data, a write in between, a cache that is not
 * the one the validators came with, or another session's validators never give a 304.
 */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { connect } from '../../entrypoints/background/session/session';
import { refreshHistory, refreshProfile, refreshRewards } from '../../entrypoints/background/sync/sync';
import { historyItem, profileItem, rewardsItem, validatorItems } from '../../utils/storage-items';
import { startSandbox } from '../sandbox/server';
import { connectedSandbox, redeemNow } from './background-helpers';
import { rid } from './test-ids';

const env = connectedSandbox();

/** The requests to `path` since the last call, as [status-relevant header] pairs. */
function sent(path: string) {
  const list = env.sandbox.requests.filter((r) => r.path === path && r.method === 'GET');
  env.sandbox.requests.length = 0;
  return list.map((r) => r.headers['if-none-match'] ?? null);
}

describe('conditional refreshes', () => {
  it('a second refresh of unchanged history is a 304 and keeps the cache', async () => {
    await refreshHistory(true);
    const first = (await historyItem.getValue())!;
    expect(sent('/v1/panel/redemptions')).toEqual([null]);
    const stored = (await validatorItems.history.getValue())!;
    expect(stored.fetchedAt).toBe(first.fetchedAt);
    expect(stored.reads.redemptions?.etag).toBeTruthy();

    await new Promise((r) => setTimeout(r, 5));
    const again = await refreshHistory(true);
    expect(sent('/v1/panel/redemptions')).toEqual([stored.reads.redemptions!.etag]);
    const second = (await historyItem.getValue())!;
    expect(again).toEqual(first.data);
    expect(second.data).toEqual(first.data);
    expect(second.fetchedAt).toBeGreaterThan(first.fetchedAt);
    expect((await validatorItems.history.getValue())!.fetchedAt).toBe(second.fetchedAt);
  });

  it('rewards and profile: a 304 keeps the balance and the coerced values', async () => {
    const rewards = await refreshRewards(true);
    const profile = await refreshProfile(true);
    env.sandbox.requests.length = 0;
    expect(await refreshRewards(true)).toEqual(rewards);
    expect(await refreshProfile(true)).toEqual(profile);
    const statuses = env.sandbox.requests.map((r) => [r.path, r.headers['if-none-match'] !== undefined]);
    expect(statuses.every(([, conditional]) => conditional)).toBe(true);
    expect(statuses.length).toBeGreaterThanOrEqual(3);
  });

  it('changed data is read whole and replaces the cache', async () => {
    await refreshRewards(true);
    env.sandbox.state.balance = 777;
    expect((await refreshRewards(true)).balance.points).toBe(777);
    expect((await rewardsItem.getValue())!.data.balance.points).toBe(777);
  });

  it('new definitions with unchanged values: the values are read again whole and coerced by the new definitions', async () => {
    await refreshProfile(true);
    const def = env.sandbox.state.variables.find((d) => d.writable)!;
    def.text = `${def.text} (changed)`;
    env.sandbox.requests.length = 0;
    const profile = await refreshProfile(true);
    expect(profile.definitions.find((d) => d.name === def.name)?.text).toBe(def.text);
    const values = env.sandbox.requests.filter((r) => r.path === '/v1/panel/variables/data');
    expect(values.map((r) => r.headers['if-none-match'] !== undefined)).toEqual([true, false]);
    expect((await profileItem.getValue())!.data).toEqual(profile);
  });

  it('the baseline before a redeem may be a 304; after it the history and the balance are read whole, never confirmed by a validator from before it', async () => {
    await refreshHistory(true);
    await refreshRewards(true);
    const etag = (await validatorItems.history.getValue())!.reads.redemptions!.etag;
    sent('/v1/panel/redemptions');
    await redeemNow(rid(101));
    const gets = env.sandbox.requests.filter((r) => r.method === 'GET');
    const order = gets.filter((r) => r.path.startsWith('/v1/panel/redemption'));
    const redeemAt = order.findIndex((r) => r.path === '/v1/panel/redemption');
    const validator = (r: (typeof order)[number]) => r.headers['if-none-match'] ?? null;
    expect(order.slice(0, redeemAt).map(validator)).toEqual([etag]);
    expect(order.slice(redeemAt + 1).map(validator)).toEqual([null]);
    // The balance read after the answer is evidence of a charge (machine.ts): a validator from before
    // the redeem could have it confirmed unmoved.
    const rewardsAfter = gets
      .slice(gets.findIndex((r) => r.path === '/v1/panel/redemption'))
      .filter((r) => r.path === '/v1/panel/rewards');
    expect(rewardsAfter.length).toBeGreaterThan(0);
    expect(rewardsAfter.map(validator)).toEqual(rewardsAfter.map(() => null));
  });

  it('validators that do not belong to the cached copy are not sent', async () => {
    await refreshHistory(true);
    const cached = (await historyItem.getValue())!;
    await historyItem.setValue({ ...cached, fetchedAt: cached.fetchedAt - 1 });
    sent('/v1/panel/redemptions');
    await refreshHistory(true);
    expect(sent('/v1/panel/redemptions')).toEqual([null]);
  });

  it('are kept in storage (a restarted worker finds them) and go with the session: another account is read whole', async () => {
    await refreshHistory(true);
    await refreshRewards(true);
    const keys = Object.keys(await fakeBrowser.storage.local.get(null));
    expect(keys).toEqual(expect.arrayContaining(['validators:history', 'validators:rewards']));
    const other = await startSandbox({ token: 'token-of-another-account' });
    try {
      await connect(other.url, other.token);
      await other.idle();
      await refreshHistory(true);
      const reads = other.requests.filter((r) => r.method === 'GET');
      expect(reads.map((r) => r.path)).toEqual(expect.arrayContaining(['/v1/panel/rewards', '/v1/panel/redemptions']));
      // Only the read after the other account's own first answer may be conditional.
      const history = reads.filter((r) => r.path === '/v1/panel/redemptions');
      expect(history[0]!.headers['if-none-match']).toBeUndefined();
      expect(reads.filter((r) => r.path === '/v1/panel/rewards')[0]!.headers['if-none-match']).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
