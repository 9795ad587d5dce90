// @vitest-environment node
/**
 * Each record checked on its own at the door (utils/api/records.ts), through the real API client
 * and the background's own refreshes against the sandbox over real HTTP. A hostile-panel fuzz found
 * one reward with a null or array `cost` or a numeric currency refusing the whole rewards read
 * ("Couldn't get an update"), a `cost` of 1e308 printed as 400 characters of pounds beside an
 * enabled Redeem, and a redemption's `reward_point_cost` of -500 shown as "-500 points". Now a
 * reward, redemption or question the extension cannot mean is quarantined by itself: kept, shown
 * without the figure, never offered nor acted on, and the rest of the read stands.
 */
import { describe, expect, it } from 'vitest';
import { refreshHistory, refreshProfile, refreshRewards } from '../../entrypoints/background/sync/sync';
import { returnsOf } from '../../utils/balance-trend';
import { formatMoney } from '../../utils/format';
import { completeness } from '../../utils/profile-completeness';
import { historyItem, profileItem, rewardsItem, syncItem } from '../../utils/storage-items';
import { saveValues } from '../../entrypoints/background/profile/profile';
import { activeSessionId, apiRequests, armFault, connectedSandbox, redeemNow } from './background-helpers';
import type { Reward as SandboxReward } from '../sandbox/types';
import { rid } from './test-ids';

const REDEEM = '/v1/panel/redemption';
const env = connectedSandbox({ timeoutMs: 1000, retryBaseDelayMs: 1 });

/** The seed's rewards with these fields planted on the first few, as a hostile panel might send them. */
function plant(fields: Array<Record<string, unknown>>): SandboxReward[] {
  const rewards = structuredClone(env.sandbox.state.rewards);
  fields.forEach((extra, i) => Object.assign(rewards[i]!, extra));
  env.sandbox.state.rewards = rewards;
  return rewards;
}

describe('a reward the extension cannot mean is quarantined by itself, never the whole read', () => {
  const DEFECTS = [
    { cost: null },
    { cost: [5] },
    { cost: '5.00' },
    { cost: 1e308 },
    { cost: -5 },
    { cost_currency: 840 },
    { cost_currency: null },
  ];

  it('the catalogue reads and is stored; each such reward is kept without its value and refused, the rest as sent', async () => {
    const planted = plant(DEFECTS);
    const data = await refreshRewards(true);
    expect((await syncItem.getValue()).rewards.error).toBeNull();
    expect(data.rewards.map((r) => r.id)).toEqual(planted.map((r) => String(r.id)));
    for (const [i, reward] of data.rewards.slice(0, DEFECTS.length).entries()) {
      expect(reward, JSON.stringify(DEFECTS[i])).toMatchObject({ costRefused: true });
      expect(formatMoney(reward.cost, reward.cost_currency), JSON.stringify(DEFECTS[i])).toBeNull();
    }
    for (const reward of data.rewards.slice(DEFECTS.length)) expect(reward).not.toHaveProperty('costRefused');
    expect((await rewardsItem.getValue())?.data.rewards.map((r) => r.costRefused ?? false)).toEqual(
      data.rewards.map((r) => r.costRefused ?? false),
    );
  });

  it('a name, type, image or meta_data of the wrong type is read as none, and the reward stays offered', async () => {
    plant([{ name: null, type: 7, image_url: ['x'], meta_data: 'none' }]);
    const [first] = (await refreshRewards(true)).rewards;
    expect(first).toMatchObject({ name: `Reward #${first!.id}`, type: '', image_url: '', meta_data: {} });
    expect(first).not.toHaveProperty('costRefused');
  });

  it('the background refuses to redeem a reward whose value is 1e308, and sends nothing', async () => {
    const [huge] = plant([{ cost: 1e308 }]);
    await refreshRewards(true);
    const balance = env.sandbox.state.balance;
    await expect(redeemNow(rid(huge!.id))).rejects.toMatchObject({ error: { kind: 'invalid_input' } });
    expect(apiRequests(env.sandbox, REDEEM)).toBe(0);
    expect(env.sandbox.state.balance).toBe(balance);
  });
});

describe('a redemption the extension cannot mean keeps its place in the history, without the figure', () => {
  it('-500, 1.5 or "500" points spent: the history reads, those points are unknown and counted nowhere', async () => {
    const redemptions = structuredClone(env.sandbox.state.redemptions);
    const spent = [-500, 1.5, '500'];
    spent.forEach((points, i) =>
      Object.assign(redemptions[i]!, { reward_point_cost: points, refunded: true, cost: 1e308 }),
    );
    env.sandbox.state.redemptions = redemptions;
    const history = await refreshHistory(true);
    expect((await syncItem.getValue()).history.error).toBeNull();
    expect(new Set(history.map((r) => r.id))).toEqual(new Set(redemptions.map((r) => String(r.id))));
    expect(history).toHaveLength(redemptions.length);
    const planted = history.filter((r) => redemptions.slice(0, spent.length).some((p) => String(p.id) === r.id));
    expect(planted.map((r) => [r.reward_point_cost, r.cost])).toEqual(spent.map(() => [null, null]));
    // A refund of points the panel gave as no number of points is not counted as points returned.
    expect(returnsOf(planted)).toEqual([]);
    const head = (await historyItem.readHead())!;
    const stored = await historyItem.readEntries(head, 0, redemptions.length);
    expect(stored.filter((r) => r.reward_point_cost === null)).toHaveLength(spent.length);
  });

  it('state flags that are not booleans: the history reads, that one redemption’s state left unread', async () => {
    const redemptions = structuredClone(env.sandbox.state.redemptions);
    Object.assign(redemptions[0]!, { failed: 'true', approved: 1 });
    env.sandbox.state.redemptions = redemptions;
    const history = await refreshHistory(true);
    expect(history.find((r) => r.id === String(redemptions[0]!.id))).toMatchObject({
      stateUnreadable: true,
      failed: false,
    });
    expect(history.filter((r) => r.stateUnreadable)).toHaveLength(1);
  });
});

describe('a profile question the extension cannot mean is shown, never offered', () => {
  it('a writable that is not a boolean, a type that is not text, a broken option: the profile reads, those are read-only', async () => {
    const variables = structuredClone(env.sandbox.state.variables);
    const writable = variables.filter((d) => d.writable);
    Object.assign(writable[0]!, { writable: 'yes' });
    Object.assign(writable[1]!, { type: 5 });
    const choice = writable.find((d, i) => i > 1 && d.options.length > 0)!;
    Object.assign(choice, { options: [...choice.options, { id: 'x', name: 'BROKEN' }] });
    variables.push({ id: 999, name: '', text: 'Nameless', uuid: 'u', type: 'text', writable: true, options: [] });
    env.sandbox.state.variables = variables;
    const profile = await refreshProfile(true);
    expect((await syncItem.getValue()).profile.error).toBeNull();
    const broken = [writable[0]!.name, writable[1]!.name, choice.name];
    for (const name of broken)
      expect(
        profile.definitions.find((d) => d.name === name),
        name,
      ).toMatchObject({
        writable: false,
        unreadable: true,
      });
    expect(profile.definitions.map((d) => d.name)).not.toContain('');
    expect(profile.definitions).toHaveLength(variables.length - 1);
    // Never counted as an open question, never offered for an answer.
    for (const name of broken) expect(completeness(profile.definitions, profile.values).open).not.toContain(name);
    expect((await profileItem.getValue())?.data.definitions.filter((d) => d.unreadable)).toHaveLength(3);
  });
});

describe('a stored answer the extension cannot read is an answer held, never "none" nor open', () => {
  it('named as held in the cache, not counted open; saving an answer there makes it an answer like any other', async () => {
    const question = env.sandbox.state.variables.find((d) => d.writable && d.type === 'text')!;
    // A shape no value can mean (an object), where a panel holds an answer.
    Object.assign(env.sandbox.state.values, { [question.name]: { option_id: 3 } });
    const profile = await refreshProfile(true);
    expect(profile.unreadable).toEqual([question.name]);
    expect(profile.values[question.name]).toBeUndefined();
    expect(completeness(profile.definitions, profile.values, profile.unreadable).open).not.toContain(question.name);
    await saveValues(await activeSessionId(), { [question.name]: 'Written here' });
    const after = (await profileItem.getValue())!.data;
    expect(after.unreadable).toBeUndefined();
    expect(after.values[question.name]).toBe('Written here');
  });
});

describe('stored answers with a record that names no variable are unknown, never "no answers"', () => {
  it('the read is refused whole: the answers last read stay, and the profile says the read failed', async () => {
    const before = (await refreshProfile(true)).values;
    await armFault(env.sandbox, {
      path: '/v1/panel/variables/data',
      status: 200,
      body: JSON.stringify({ message: 'success', data: [{ variable_id: 12, value: '34' }] }),
    });
    await expect(refreshProfile(true)).rejects.toMatchObject({
      error: { kind: 'unexpected', endpoint: '/v1/panel/variables/data' },
    });
    expect((await syncItem.getValue()).profile.error).toMatchObject({ kind: 'unexpected' });
    expect((await profileItem.getValue())?.data.values).toEqual(before);
  });
});
