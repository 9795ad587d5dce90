// @vitest-environment node
/**
 * A new key on the same panel is the same account only on evidence (its own redemption history
 * holds every redemption stored, whole: id, reward and date), never because the old key was
 * refused; the same key is, unless its history contradicts it. Without it the unsaved profile
 * draft, the goal and the balance history go, with a notice for the draft.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setGoal } from '../../entrypoints/background/goal';
import { readEvidence } from '../../entrypoints/background/session/same-account';
import { connect } from '../../entrypoints/background/session/session';
import type { PanelApi } from '../../utils/api/client';
import { refreshHistory } from '../../entrypoints/background/sync/sync';
import {
  balanceHistoryItem,
  draftDiscardedItem,
  goalItem,
  historyItem,
  ledgerItem,
  notifyStateItem,
  profileDraftItem,
  questionsItem,
  sessionItem,
} from '../../utils/storage-items';
import type { Sandbox } from '../sandbox/server';
import { closeSandboxes, redeemNow, startTwoAccounts } from './background-helpers';
import { rid } from './test-ids';

let a: Sandbox;
let b: Sandbox;
beforeAll(async () => {
  ({ a, b } = await startTwoAccounts({ timeoutMs: 2000, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));

const NEW_KEY = 'token-account-a-second-key';

/** Account A connected, its history read, a goal set, a balance recorded, a profile edit unsaved; then the panel stops accepting the key. */
beforeEach(async () => {
  fakeBrowser.reset();
  a.reset();
  b.reset();
  await connect(a.url, a.token);
  await refreshHistory(true);
  await setGoal(rid(101));
  await balanceHistoryItem.setValue([
    { at: Date.now() - 86_400_000, points: 2000 },
    { at: Date.now(), points: 2500 },
  ]);
  await profileDraftItem.setValue({ FIRST_NAME: 'Jo' });
  await sessionItem.setValue({ ...(await sessionItem.getValue()), rejected: true });
  await a.idle();
});

async function carried(): Promise<{ draft: object; goal: unknown; balances: number; notice: unknown }> {
  return {
    draft: await profileDraftItem.getValue(),
    goal: (await goalItem.getValue())?.rewardId ?? null,
    balances: (await balanceHistoryItem.getValue()).length,
    notice: (await draftDiscardedItem.getValue())?.count ?? null,
  };
}

describe('a new key on the same panel after the old one was refused', () => {
  it('keeps the draft, goal and balance history when its own history holds every stored redemption', async () => {
    expect((await balanceHistoryItem.getValue()).length).toBeGreaterThan(0);
    a.otherKeys.add(NEW_KEY);
    await connect(a.url, NEW_KEY);
    expect(await carried()).toMatchObject({ draft: { FIRST_NAME: 'Jo' }, goal: '101', notice: null });
    expect((await carried()).balances).toBe(2);
  });

  it('keeps nothing when the key is another person’s on the same panel (their history shares none of it)', async () => {
    a.otherKeys.add(NEW_KEY);
    // The same server, but what the new key reads is someone else's history.
    a.state.redemptions = a.state.redemptions.map((r) => ({ ...r, id: r.id + 10_000 }));
    await connect(a.url, NEW_KEY);
    expect(await carried()).toEqual({ draft: {}, goal: null, balances: 0, notice: 1 });
  });

  it('keeps nothing when the stored history is empty: no evidence either way', async () => {
    await historyItem.setValue({ data: [], fetchedAt: Date.now() });
    a.otherKeys.add(NEW_KEY);
    await connect(a.url, NEW_KEY);
    expect(await carried()).toEqual({ draft: {}, goal: null, balances: 0, notice: 1 });
  });

  it('keeps nothing when the new key’s history cannot be read', async () => {
    a.otherKeys.add(NEW_KEY);
    await fetch(`${a.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/panel/redemptions', status: 500, times: 5 }),
    });
    await connect(a.url, NEW_KEY);
    expect(await carried()).toEqual({ draft: {}, goal: null, balances: 0, notice: 1 });
  });

  it('keeps nothing when the new key’s history has the same ids with other rewards and dates (a panel numbering each panelist’s redemptions apart)', async () => {
    a.otherKeys.add(NEW_KEY);
    // Another person: their redemptions are numbered like ours, but are of other rewards, on other days.
    a.state.redemptions = a.state.redemptions.map((r) => ({
      ...r,
      reward: { ...r.reward, id: r.reward.id === 101 ? 102 : 101 },
      created_at: '2019-06-01T10:00:00',
    }));
    await connect(a.url, NEW_KEY);
    expect(await carried()).toEqual({ draft: {}, goal: null, balances: 0, notice: 1 });
  });

  it('keeps everything for the same key again, and when its history cannot be read', async () => {
    await connect(a.url, a.token);
    expect(await carried()).toMatchObject({ draft: { FIRST_NAME: 'Jo' }, goal: '101', notice: null });
    await fetch(`${a.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/panel/redemptions', status: 500, times: 5 }),
    });
    await connect(a.url, a.token);
    expect(await carried()).toMatchObject({ draft: { FIRST_NAME: 'Jo' }, goal: '101', notice: null });
  });

  it('keeps nothing for the same key whose history holds none of the stored redemptions: the read contradicts it', async () => {
    a.state.redemptions = a.state.redemptions.map((r) => ({ ...r, id: r.id + 10_000 }));
    await connect(a.url, a.token);
    expect(await carried()).toEqual({ draft: {}, goal: null, balances: 0, notice: 1 });
  });

  it('the new questions and what was notified go with the account: kept, under the new key’s account, or not at all', async () => {
    const record = {
      account: `${a.url}|${a.token.slice(-4)}`,
      known: ['PETS'],
      fresh: [{ name: 'PETS', text: 'Pets?' }],
    };
    await questionsItem.setValue(record);
    await notifyStateItem.setValue({ states: { '5001': 'complete' }, goal: null, told: ['outcome:x'] });
    a.otherKeys.add(NEW_KEY);
    await connect(a.url, NEW_KEY);
    expect(await questionsItem.getValue()).toEqual({ ...record, account: `${a.url}|${NEW_KEY.slice(-4)}` });
    expect((await notifyStateItem.getValue()).told).toEqual(['outcome:x']);
    await connect(b.url, b.token);
    expect(await questionsItem.getValue()).toBeNull();
    expect((await notifyStateItem.getValue()).told).toEqual([]);
  });

  it('never carries anything to another panel', async () => {
    await connect(b.url, b.token);
    expect(await carried()).toEqual({ draft: {}, goal: null, balances: 0, notice: 1 });
  });
});

describe('a switch keeps what the next switch needs', () => {
  const THIRD_KEY = 'token-account-a-third-key';
  const HISTORY = '/v1/panel/redemptions';

  it('the history that judged a new key survives it: a third key of the same account keeps the open Confirm even when no history read came between', async () => {
    // A Confirm whose answer was lost: open, and its reward held back until the history settles it.
    await fetch(`${a.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/panel/redemption', drop: true }),
    });
    const open = await redeemNow(rid(101));
    expect(open.state).toBe('unknown');
    // A second key of the same account: its history proves it, and the Confirm goes over. That
    // evidence read is answered; every history read after it (the new session's own) fails.
    a.otherKeys.add(NEW_KEY);
    await a.idle();
    for (const rule of [
      { path: HISTORY, delayMs: 1 },
      { path: HISTORY, status: 503, times: 20 },
    ])
      await fetch(`${a.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
    await connect(a.url, NEW_KEY);
    await a.idle();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: open.requestId, state: 'unknown' });
    // The history that judged it is still there to judge the next key.
    expect((await historyItem.getValue())?.data.length).toBeGreaterThan(0);
    await fetch(`${a.url}/__sandbox/faults`, { method: 'DELETE' });
    a.otherKeys.add(THIRD_KEY);
    await connect(a.url, THIRD_KEY);
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: open.requestId, state: 'unknown' });
    expect(await carried()).toMatchObject({ draft: { FIRST_NAME: 'Jo' }, goal: '101', notice: null });
  });
});

describe('the evidence read before a switch', () => {
  const panelApi = (listRedemptions: () => Promise<never[]>) => ({ listRedemptions }) as unknown as PanelApi;

  it('is read only when it can decide: the same panel, with a stored history to compare', async () => {
    let reads = 0;
    const api = panelApi(async () => {
      reads += 1;
      return [];
    });
    expect(
      await readEvidence(api, { baseUrl: 'https://other.example', token: 'x' }, { baseUrl: a.url, token: 'y' }),
    ).toBeNull();
    await historyItem.setValue(null);
    expect(await readEvidence(api, { baseUrl: a.url, token: 'x' }, { baseUrl: a.url, token: 'y' })).toBeNull();
    expect(reads).toBe(0);
  });

  it('counts a history stored whole (before pages) as stored redemptions, and reads the new key’s', async () => {
    let reads = 0;
    const api = panelApi(async () => {
      reads += 1;
      return [];
    });
    const stored = await historyItem.getValue();
    expect(stored?.data.length).toBeGreaterThan(0);
    // The form an earlier version kept: the whole list under the key, no head of pages.
    await fakeBrowser.storage.local.set({ [historyItem.key]: stored });
    expect(await historyItem.readHead()).not.toHaveProperty('total');
    expect(await readEvidence(api, { baseUrl: a.url, token: a.token }, { baseUrl: a.url, token: NEW_KEY })).toEqual(
      new Set(),
    );
    expect(reads).toBe(1);
  });

  it('is none, not an empty history, when the new key’s history cannot be read', async () => {
    const api = panelApi(() => Promise.reject(new Error('503')));
    expect(await readEvidence(api, { baseUrl: a.url, token: a.token }, { baseUrl: a.url, token: NEW_KEY })).toBeNull();
  });
});
