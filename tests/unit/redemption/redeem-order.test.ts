// @vitest-environment node
/**
 * What a Confirm carries from the popup and what the background checks before anything leaves:
 * the session the popup showed (a Confirm is never carried out for whichever account is connected
 * by then) and the points cost the panelist confirmed (compared with the catalogue read just before
 * sending), through the message door, against the sandbox over real HTTP.
 */
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { registerHandlers } from '../../../entrypoints/background/handlers';
import { ledgerItem, rewardsItem } from '../../../utils/storage-items';
import type { Sandbox } from '../../sandbox/server';
import { activeSessionId, armFault, deliver, twoAccountHooks, until } from '../background-helpers';

const REDEEM = '/v1/panel/redemption';

let a: Sandbox;
let b: Sandbox;
twoAccountHooks(
  (accounts) => ({ a, b } = accounts),
  async () => {
    b.reset();
    // @webext-core/messaging listens through the `chrome` global.
    vi.stubGlobal('chrome', fakeBrowser);
    const unregister = registerHandlers();
    await deliver('connect', { baseUrl: a.url, token: a.token });
    // "Connected" comes once the key is accepted and the catalogue lands after it (session.ts):
    // the tests below name a reward by the catalogue the background stored.
    await vi.waitFor(async () => expect(await rewardsItem.getValue()).not.toBeNull(), { timeout: 10_000 });
    await a.idle();
    return () => {
      unregister();
      vi.unstubAllGlobals();
    };
  },
);

const redeems = (sandbox: Sandbox) => sandbox.requests.filter((r) => r.path === REDEEM).length;

describe('the session travels with the redeem', () => {
  it('a Confirm names the session the popup showed, and is carried out for it', async () => {
    const session = await activeSessionId();
    const earlier = a.state.redemptions.filter((r) => r.reward.id === 101).length;
    await armFault(a, { path: REDEEM, delayMs: 200 });
    const confirming = deliver('redeem', { session, rewardId: '101', points: 500 });
    await until(() => redeems(a) === 1);
    // Its baseline holds this reward's earlier redemptions, whole, and no other reward's.
    const baseline = (await ledgerItem.getValue())?.baseline;
    expect(baseline).toHaveLength(earlier);
    expect(baseline?.every((key) => key.split(' ')[1] === '101')).toBe(true);
    expect(await confirming).toMatchObject({ ok: true, data: { rewardId: '101', state: 'done' } });
    expect(redeems(a)).toBe(1);
  });

  it('a Confirm of a session that has ended is refused, and nothing reaches either panel', async () => {
    const shown = await activeSessionId();
    // Another account connects while the Confirm dialog is still open (a popup opened as a tab).
    await deliver('connect', { baseUrl: b.url, token: b.token });
    await b.idle();
    const reply = await deliver('redeem', { session: shown, rewardId: '101', points: 500 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/another account/i);
    expect(redeems(a) + redeems(b)).toBe(0);
    expect(await ledgerItem.getValue()).toBeNull();
  });

  it('a Confirm that names no session is refused at the door', async () => {
    const reply = await deliver('redeem', { rewardId: '101', points: 500 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(redeems(a)).toBe(0);
  });
});

describe('the price confirmed is the price sent', () => {
  const coffee = () => a.state.rewards.find((r) => r.id === 101)!;

  it('a cost that rose since the list is not charged: nothing is sent, and the refusal names the new cost', async () => {
    const session = await activeSessionId();
    // The list said 500; the operator changes it to 800 before Confirm is pressed.
    coffee().reward_point_cost = 800;
    const reply = await deliver('redeem', { session, rewardId: '101', points: 500 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'price_changed', points: 800 } });
    expect((reply as { error: { message: string } }).error.message).toContain('800');
    expect(redeems(a)).toBe(0);
    expect(a.state.balance).toBe(2500);
    expect(await ledgerItem.getValue()).toBeNull();
    // Confirmed again at the new cost, it goes through, and the Confirm says what it cost.
    const again = await deliver('redeem', { session, rewardId: '101', points: 800 });
    expect(again).toMatchObject({ ok: true, data: { state: 'done', points: 800, balanceAfter: 1700 } });
    expect(redeems(a)).toBe(1);
  });

  it('a cost that fell is asked again too: the panelist confirms the figure that is charged', async () => {
    const session = await activeSessionId();
    coffee().reward_point_cost = 300;
    const reply = await deliver('redeem', { session, rewardId: '101', points: 500 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'price_changed', points: 300 } });
    expect(redeems(a)).toBe(0);
  });

  it('a reward the catalogue read just before sending no longer lists is not sent', async () => {
    const session = await activeSessionId();
    a.state.rewards = a.state.rewards.filter((r) => r.id !== 101);
    const reply = await deliver('redeem', { session, rewardId: '101', points: 500 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect((reply as { error: { message: string } }).error.message).toBe(
      'Bluefin Coffee $5 Gift Card was not redeemed: the panel no longer offers it. Nothing was sent, so nothing was charged.',
    );
    expect(redeems(a)).toBe(0);
  });

  it('a reward the popup listed under no name it still has is named by its number', async () => {
    const session = await activeSessionId();
    a.state.rewards = a.state.rewards.filter((r) => r.id !== 101);
    for (const [stored, rewardId] of [
      [true, '999'],
      [false, '101'],
    ] as const) {
      if (!stored) await rewardsItem.setValue(null);
      const reply = await deliver('redeem', { session, rewardId, points: 500 });
      expect((reply as { error: { message: string } }).error.message).toBe(
        `Reward #${rewardId} was not redeemed: the panel no longer offers it. Nothing was sent, so nothing was charged.`,
      );
    }
    expect(redeems(a)).toBe(0);
  });

  it('a catalogue that cannot be read just before sending sends nothing: the cost cannot be compared', async () => {
    const session = await activeSessionId();
    await fetch(`${a.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/panel/rewards', status: 503, times: 10 }),
    });
    const reply = await deliver('redeem', { session, rewardId: '101', points: 500 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'rejected' } });
    const message = (reply as { error: { message: string } }).error.message;
    // Only the cost stops it: a balance it could not read beside the catalogue does not.
    expect(message).toMatch(
      /^The redemption was not sent, so nothing was charged: the reward's cost has to be read just before sending, and that failed\. /,
    );
    expect(message).not.toMatch(/balance/);
    // The reason in plain words, once: no status code or advice nested in brackets.
    expect(message).not.toMatch(/\(.*\(|HTTP/);
    expect(redeems(a)).toBe(0);
  });

  it('a reward the catalogue gives no points cost is never sent, whatever figure a page sends', async () => {
    const session = await activeSessionId();
    (coffee() as { reward_point_cost: number | null }).reward_point_cost = null;
    for (const points of [0, 500]) {
      const reply = await deliver('redeem', { session, rewardId: '101', points });
      expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect((reply as { error: { message: string } }).error.message).toMatch(/gives it no points cost/);
    }
    expect(redeems(a)).toBe(0);
  });

  it('a reward the catalogue gives no value in money is never sent, and the refusal says the value is missing', async () => {
    const session = await activeSessionId();
    delete (coffee() as { cost?: unknown }).cost;
    const reply = await deliver('redeem', { session, rewardId: '101', points: 500 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/gives it no value in money/);
    expect(redeems(a)).toBe(0);
  });

  it('an id the catalogue lists twice with different costs is never sent: the panel would charge one of them', async () => {
    const session = await activeSessionId();
    a.state.rewards.push({ ...structuredClone(coffee()), reward_point_cost: 50 });
    const reply = await deliver('redeem', { session, rewardId: '101', points: 50 });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect((reply as { error: { message: string } }).error.message).toMatch(/twice with different costs/);
    expect(redeems(a)).toBe(0);
  });

  it('a Confirm without the cost it was confirmed at is refused at the door', async () => {
    const session = await activeSessionId();
    for (const points of [undefined, null, -1, 1.5, '500'])
      expect(
        await deliver('redeem', { session, rewardId: '101', ...(points === undefined ? {} : { points }) }),
      ).toMatchObject({
        ok: false,
        error: { kind: 'bad_request' },
      });
    expect(redeems(a)).toBe(0);
  });
});
