// @vitest-environment node
/**
 * Every request belongs to the session it started under, and a read
 * asked for after a write never reuses a request that left before it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { saveValues } from '../../entrypoints/background/profile/profile';
import { connect, disconnect, getSession } from '../../entrypoints/background/session/session';
import { refreshHistory, refreshProfile, refreshRewards } from '../../entrypoints/background/sync/sync';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import {
  draftDiscardedItem,
  goalItem,
  historyItem,
  popupViewItem,
  profileDraftItem,
  profileItem,
  rewardsItem,
  sessionItem,
  syncItem,
} from '../../utils/storage-items';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { isAccountB, SEED_A } from './accounts';
import {
  activeSessionId,
  apiRequests,
  closeSandboxes,
  firstReadsDone,
  startTwoAccounts,
  redeemNow,
} from './background-helpers';
import { rid } from './test-ids';

let a: Sandbox;
let b: Sandbox;
beforeAll(async () => {
  ({ a, b } = await startTwoAccounts({ timeoutMs: 2000, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));
beforeEach(async () => {
  fakeBrowser.reset();
  a.reset();
  b.reset();
  await connect(a.url, a.token);
  await firstReadsDone();
  await settle();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets every request still out (up to the slowest fault below) land. */
const settle = () => sleep(400);

async function fault(sandbox: Sandbox, rule: object): Promise<void> {
  await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
}

/** Every reward and redemption id in storage, and the balance: whose are they? */
async function stored(): Promise<{ ids: string[]; balance: number | null | undefined }> {
  const rewards = await rewardsItem.getValue();
  const history = await historyItem.getValue();
  return {
    ids: [...(rewards?.data.rewards ?? []).map((r) => r.id), ...(history?.data ?? []).map((r) => r.reward.id)],
    balance: rewards?.data.balance.points,
  };
}

describe('sessions', () => {
  it('a refresh that was out when the panelist disconnected writes nothing afterwards', async () => {
    await fault(a, { path: '/v1/panel/redemptions', delayMs: 200 });
    const late = refreshHistory(true).catch((err) => err);
    await sleep(50);
    await disconnect();
    expect((await late).error?.kind).toBe('not_connected');
    await settle();
    expect(await historyItem.getValue()).toBeNull();
    expect(await rewardsItem.getValue()).toBeNull();
    expect((await syncItem.getValue()).history.loading).toBe(false);
  });

  it('connecting another account neither joins the old account’s refresh nor keeps what it brings', async () => {
    await fault(a, { path: '/v1/panel/redemptions', delayMs: 250 });
    await fault(a, { path: '/v1/panel/rewards', delayMs: 250 });
    const late = Promise.all([refreshHistory(true), refreshRewards(true)].map((read) => read.catch(() => undefined)));
    await sleep(50);
    await connect(b.url, b.token);
    // The old account’s answers have landed (at least their 250 ms) and were judged; then the new
    // account’s first reads, however late a busy machine brings them.
    await late;
    await firstReadsDone();
    await settle();
    await vi.waitFor(
      async () => {
        expect(apiRequests(b, '/v1/panel/redemptions')).toBe(1);
        expect((await syncItem.getValue()).history.loading).toBe(false);
      },
      { timeout: 10_000, interval: 10 },
    );
    const { ids, balance } = await stored();
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every(isAccountB)).toBe(true);
    expect(balance).toBe(9000);
    expect(apiRequests(b, '/v1/panel/redemptions')).toBe(1);
  });

  it('a late 401 of the old account does not mark the new session rejected', async () => {
    await fault(a, { path: '/v1/panel/rewards', delayMs: 200, status: 401 });
    const late = refreshRewards(true).catch((err) => err);
    await sleep(50);
    await connect(b.url, b.token);
    await late;
    await settle();
    expect(await sessionItem.getValue()).toMatchObject({ connected: true, baseUrl: b.url, rejected: false });
    expect((await syncItem.getValue()).rewards.error).toBeNull();
  });

  it('a refused token while connecting says nothing about the session in place', async () => {
    await expect(connect(b.url, 'not-the-token')).rejects.toMatchObject({ error: { kind: 'unauthorized' } });
    expect(await sessionItem.getValue()).toMatchObject({ baseUrl: a.url, rejected: false });
  });

  it('keeps the profile draft for the same account and discards it, with a notice, for another', async () => {
    await profileDraftItem.setValue({ FIRST_NAME: 'Jo' });
    await connect(a.url, a.token);
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Jo' });
    expect(await draftDiscardedItem.getValue()).toBeNull();
    await connect(b.url, b.token);
    expect(await profileDraftItem.getValue()).toEqual({});
    expect(await draftDiscardedItem.getValue()).toMatchObject({ count: 1 });
  });

  it('keeps the draft when a rejected session reconnects with a new token to the same panel', async () => {
    await profileDraftItem.setValue({ FIRST_NAME: 'Jo' });
    await sessionItem.setValue({ ...(await sessionItem.getValue()), rejected: true });
    // The same panel; the panelist pasted the token again (a renewed one would do the same).
    await connect(a.url, ` ${a.token} `);
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Jo' });
  });
});

describe('a read asked for after a write', () => {
  it('the balance after a redemption comes from a request that left after it', async () => {
    await fault(a, { path: '/v1/panel/rewards', holdMs: 250 });
    const before = refreshRewards(true);
    await sleep(30);
    const entry = await redeemNow(rid(101));
    expect(entry).toMatchObject({ state: 'done', balanceAfter: 2000 });
    expect((await before).balance.points).toBe(2500);
    await settle();
    expect((await rewardsItem.getValue())?.data.balance.points).toBe(2000);
  });

  it('a saved value is never shown reverted by a read that left before the save', async () => {
    await refreshProfile(true);
    await fault(a, { path: '/v1/panel/variables/data', method: 'GET', holdMs: 250 });
    const before = refreshProfile(true);
    await sleep(30);
    const shown: unknown[] = [];
    const stop = profileItem.watch((cached) => shown.push(cached?.data.values.FIRST_NAME));
    await saveValues(await activeSessionId(), { FIRST_NAME: 'Sam' });
    stop();
    // From the moment the saved value showed, it never went back, not even for a moment.
    expect(shown.slice(shown.indexOf('Sam'))).toEqual(shown.slice(shown.indexOf('Sam')).map(() => 'Sam'));
    expect(shown).toContain('Sam');
    expect((await before).values.FIRST_NAME).toBe('Jordan');
    await settle();
    expect((await profileItem.getValue())?.data.values.FIRST_NAME).toBe('Sam');
  });

  it('the check after a lost answer reads a history from after the redeem', async () => {
    await fault(a, { path: '/v1/panel/redemptions', holdMs: 250 });
    void refreshHistory(true);
    await sleep(30);
    await fault(a, { path: '/v1/panel/redemption', commit: true, status: 502 });
    const entry = await redeemNow(rid(101));
    expect(entry).toMatchObject({ state: 'done', balanceAfter: 2000 });
    expect(apiRequests(a, '/v1/panel/redemptions')).toBeGreaterThanOrEqual(3);
  });
});

describe('connecting (session.ts)', () => {
  it('refuses what cannot be a panel address or a key, naming the field, before any request', async () => {
    a.requests.length = 0;
    await expect(connect('not a url', a.token)).rejects.toMatchObject({
      error: { kind: 'invalid_input', field: 'baseUrl' },
    });
    await expect(connect(a.url, '   ')).rejects.toMatchObject({
      error: { kind: 'invalid_input', field: 'token', message: expect.stringMatching(/key/i) },
    });
    await expect(connect(a.url, 'two words')).rejects.toMatchObject({
      error: { kind: 'invalid_input', field: 'token', message: expect.stringMatching(/space/i) },
    });
    expect(a.requests).toHaveLength(0);
  });

  it('stores the checked key trimmed, with the panel, its origin, the key’s last four characters and a new session id; the catalogue follows', async () => {
    const before = (await sessionItem.getValue()).id;
    const session = await connect(`${b.url}/`, `  ${b.token} `);
    expect(session).toEqual({
      connected: true,
      baseUrl: b.url,
      origin: b.url,
      tokenHint: b.token.slice(-4),
      rejected: false,
      id: expect.any(String),
    });
    expect(session.id).not.toBe(before);
    expect(await sessionItem.getValue()).toEqual(session);
    expect(await getSession()).toEqual(session);
    expect(await credentialsItem.getValue()).toEqual({ session: session.id, baseUrl: b.url, token: b.token });
    // Answered once the key was accepted: the catalogue is read after, under the new session.
    await firstReadsDone();
    expect((await rewardsItem.getValue())?.data.balance.points).toBe(9000);
    expect((await popupViewItem.getValue())?.rewards?.balance.points).toBe(9000);
    // Its history too: the latest redemption the popup shows is the new account's.
    expect(isAccountB((await popupViewItem.getValue())!.latest!.reward.id)).toBe(true);
  });

  it('checks the key with the panelist’s own stored values, not the catalogue, and answers before the catalogue is read', async () => {
    // The catalogue held back: the connect answers without it, the key checked by the values.
    await fault(b, { path: '/v1/panel/rewards', holdMs: 1_000 });
    await connect(b.url, b.token);
    expect(apiRequests(b, '/v1/panel/variables/data')).toBeGreaterThan(0);
    expect(await rewardsItem.getValue()).toBeNull();
    // The popup shows nothing of the last session meanwhile: its catalogue and goal unread, not empty.
    expect(await popupViewItem.getValue()).toMatchObject({ rewards: null, goal: null });
    await firstReadsDone();
    expect((await rewardsItem.getValue())?.data.balance.points).toBe(9000);
    expect((await syncItem.getValue()).rewards).toMatchObject({ loading: false, error: null });
  });

  it('the same key again keeps the goal and the draft; another account loses them, with a notice counting the edits', async () => {
    await goalItem.setValue({
      account: `${a.url}|${a.token.slice(-4)}`,
      rewardId: rid(101),
      rewardName: 'x',
      setAt: 1,
    });
    await profileDraftItem.setValue({ FIRST_NAME: 'Jo', LAST_NAME: 'Doe' });
    const other = await startSandbox({ seed: SEED_A, token: 'token-account-c' });
    try {
      // A key the panel refuses changes nothing.
      await expect(connect(a.url, other.token)).rejects.toMatchObject({ error: { kind: 'unauthorized' } });
      await connect(a.url, a.token);
      expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Jo', LAST_NAME: 'Doe' });
      expect(await goalItem.getValue()).not.toBeNull();
      await connect(other.url, other.token);
      expect(await goalItem.getValue()).toBeNull();
      expect(await draftDiscardedItem.getValue()).toMatchObject({ count: 2, at: expect.any(Number) });
    } finally {
      await other.close();
    }
  });

  it('reconnecting a rejected session with a new key keeps its goal, under the new key’s account', async () => {
    await goalItem.setValue({
      account: `${a.url}|${a.token.slice(-4)}`,
      rewardId: rid(101),
      rewardName: 'x',
      setAt: 1,
    });
    await sessionItem.setValue({ ...(await sessionItem.getValue()), rejected: true, tokenHint: 'old!' });
    await connect(a.url, a.token);
    expect(await goalItem.getValue()).toMatchObject({ rewardId: '101', account: `${a.url}|${a.token.slice(-4)}` });
    expect(await draftDiscardedItem.getValue()).toBeNull();
  });

  it('a new key for a rejected session on the same panel keeps its goal under the new key’s account, shown in the popup with the catalogue', async () => {
    const id = (await sessionItem.getValue()).id!;
    await fakeBrowser.storage.local.set({
      [credentialsItem.key]: { session: id, baseUrl: a.url, token: 'refused-key-0ld!' },
      [sessionItem.key]: { ...(await sessionItem.getValue()), rejected: true, tokenHint: '0ld!' },
    });
    await goalItem.setValue({ account: `${a.url}|0ld!`, rewardId: rid(101), rewardName: 'x', setAt: 1 });
    await connect(a.url, a.token);
    const account = `${a.url}|${a.token.slice(-4)}`;
    expect(await goalItem.getValue()).toMatchObject({ rewardId: '101', account });
    await firstReadsDone();
    expect((await popupViewItem.getValue())?.goal).toMatchObject({ reward: { id: '101' } });
  });

  it('another key on the same panel whose history is another person’s is another account: its draft goes, with a notice', async () => {
    await refreshHistory(true);
    const id = (await sessionItem.getValue()).id!;
    await credentialsItem.setValue({ session: id, baseUrl: a.url, token: 'another-key' });
    await profileDraftItem.setValue({ FIRST_NAME: 'Jo' });
    a.state.redemptions = a.state.redemptions.map((r) => ({ ...r, id: r.id + 10_000 }));
    await connect(a.url, a.token);
    expect(await profileDraftItem.getValue()).toEqual({});
    expect(await draftDiscardedItem.getValue()).toMatchObject({ count: 1 });
  });

  it('the same key on another panel is another account: its draft goes, with a notice', async () => {
    const twin = await startSandbox({ seed: SEED_A, token: a.token });
    try {
      await profileDraftItem.setValue({ FIRST_NAME: 'Jo' });
      await connect(twin.url, a.token);
      expect(await profileDraftItem.getValue()).toEqual({});
      expect(await draftDiscardedItem.getValue()).toMatchObject({ count: 1 });
    } finally {
      await twin.close();
    }
  });

  it('disconnecting leaves no credentials and nothing of the session', async () => {
    await refreshHistory(true);
    expect(await disconnect()).toEqual({ connected: false, baseUrl: '', origin: '', tokenHint: '', rejected: false });
    expect(await credentialsItem.getValue()).toBeNull();
    expect(await historyItem.getValue()).toBeNull();
    expect(await popupViewItem.getValue()).toBeNull();
  });
});
