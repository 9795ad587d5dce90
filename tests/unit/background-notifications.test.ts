// @vitest-environment node
/**
 * Notifications from the background's own reads of the sandbox over real HTTP. Each
 * change is told once (also after a worker restart), none on a session's first sync, none when
 * turned off, none for a kind switched off, none without the permission.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { httpTuning } from '../../entrypoints/background/auth/api';
import { balanceIdle, watchBalance } from '../../entrypoints/background/balance-history';
import { setGoal } from '../../entrypoints/background/goal';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import {
  notificationsIdle,
  onGoalSet,
  onRewards,
  watchNotifications,
} from '../../entrypoints/background/notify/notifications';
import { dismissRedemption } from '../../entrypoints/background/redemption/service';
import { checkOutcomes, checkRedemption, CHECK_AFTER_MS } from '../../entrypoints/background/redemption/service';
import { markRejected } from '../../entrypoints/background/auth/rejected';
import { connect, disconnect } from '../../entrypoints/background/session/session';
import { put } from '../../entrypoints/background/store/store';
import { refreshHistory, refreshRewards } from '../../entrypoints/background/sync/sync';
import { installI18n } from './i18n-setup';
import {
  balanceHistoryItem,
  goalItem,
  historyItem,
  notifyStateItem,
  preferencesItem,
  rewardsItem,
  sessionItem,
  type Preferences,
} from '../../utils/storage-items';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { SEED_B } from './accounts';
import {
  activeSessionId,
  apiRequests,
  closeSandboxes,
  fakeNotifications,
  firstReadsDone,
  type Shown,
  redeemNow,
  releaseHeld,
  until,
  withClientTimeout,
} from './background-helpers';
import { rid } from './test-ids';
import { redemptionKey } from '../../utils/ids';

let sandbox: Sandbox;
let stop: Array<() => void> = [];
let created: Shown[];
let granted: boolean;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const idle = async () => {
  await balanceIdle();
  await notificationsIdle();
};
const ON: Partial<Preferences> = { notify: true };

/** A worker start: the listeners index.ts registers, with everything else only in storage. */
function startWorker(): void {
  stop.forEach((s) => s());
  stop = [watchBalance(), watchNotifications()];
}

async function fault(rule: object): Promise<void> {
  await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
}

/** A redemption's whole key (id, reward, created_at) as the stored history holds it, as notification ids name it. */
const keyOf = async (id: number) =>
  redemptionKey((await historyItem.getValue())!.data.find((r) => r.id === String(id))!);

function redemption(id: number) {
  const found = sandbox.state.redemptions.find((r) => r.id === id);
  if (!found) throw new Error(`no redemption ${id}`);
  return found;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  // No test here is about the client's time-out but the one that sets it (withClientTimeout): a
  // short one for the file raced every read the sandbox answered, the first sync's included, on a busy machine.
  Object.assign(httpTuning, { timeoutMs: 3000, retryBaseDelayMs: 1 });
});
afterAll(() => closeSandboxes(sandbox));
beforeEach(async () => {
  fakeBrowser.reset();
  installI18n('en');
  sandbox.reset();
  granted = true;
  created = fakeNotifications(() => granted);
  startWorker();
  await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
  await connect(sandbox.url, sandbox.token);
  await firstSync();
});

/** connect() warms the history without waiting for it: that read is the session's first sync. Joined, not timed. */
async function firstSync(): Promise<void> {
  await refreshHistory(false);
  await idle();
}
afterEach(() => {
  stop.forEach((s) => s());
  stop = [];
  vi.restoreAllMocks();
});

describe('redemption state changes', () => {
  it('says nothing on the first sync after connecting, then tells a change from pending to complete once', async () => {
    expect((await notifyStateItem.getValue()).states).not.toBeNull();
    expect(created).toEqual([]);

    Object.assign(redemption(5009), { approved: true, processed: true });
    await refreshHistory(true);
    await idle();
    expect(created).toEqual([
      {
        id: `redemption:${await keyOf(5009)}:complete`,
        title: 'Your redemption changed',
        message: 'PayWave $10 Transfer: Complete',
      },
    ]);

    await refreshHistory(true);
    await idle();
    expect(created).toHaveLength(1);
  });

  it.each([
    [
      'failed with the reason',
      { failed: true, failed_reason: 'Card provider declined' },
      'PayWave $10 Transfer: Failed: Card provider declined',
    ],
    ['refunded', { failed: true, refunded: true }, 'PayWave $10 Transfer: Points returned'],
    ['approved', { approved: true }, 'PayWave $10 Transfer: Approved'],
    ['a known partner state in words', { partner_status: 'IN_REVIEW' }, 'PayWave $10 Transfer: In review'],
    ['an unknown partner state readable', { partner_status: 'ON_HOLD' }, 'PayWave $10 Transfer: On hold'],
  ])('tells a redemption that became %s', async (_name, patch, message) => {
    Object.assign(redemption(5009), patch);
    await refreshHistory(true);
    await idle();
    expect(created.map((c) => c.message)).toEqual([message]);
  });

  it('in a right-to-left language each figure is isolated as one unit (the reward’s $10), left as it is in English', async () => {
    installI18n('ar');
    Object.assign(redemption(5009), { approved: true, processed: true });
    await refreshHistory(true);
    await idle();
    expect(created).toHaveLength(1);
    expect(created[0]!.message).toContain('PayWave \u2068$10\u2069 Transfer');
    expect(created[0]!.message).not.toContain('PayWave $10');
  });

  it('does not tell a change again after the worker restarts, and tells the next one', async () => {
    Object.assign(redemption(5008), { processed: true });
    await refreshHistory(true);
    await idle();
    startWorker();
    await refreshHistory(true);
    await idle();
    expect(created.map((c) => c.id)).toEqual([`redemption:${await keyOf(5008)}:complete`]);
    Object.assign(redemption(5008), { refunded: true });
    await refreshHistory(true);
    await idle();
    expect(created.map((c) => c.id)).toEqual([
      `redemption:${await keyOf(5008)}:complete`,
      `redemption:${await keyOf(5008)}:refunded`,
    ]);
  });

  it('a redemption new to the history is not a change: the panelist just made it', async () => {
    await redeemNow(rid(101));
    await idle();
    expect(created).toEqual([]);
  });

  it('nothing when turned off, and a change seen while off is not told once turned on', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: false });
    Object.assign(redemption(5009), { processed: true });
    await refreshHistory(true);
    await idle();
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
    await refreshHistory(true);
    await idle();
    expect(created).toEqual([]);
  });

  it('nothing for a kind switched off, nor without the permission', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, ...ON, notifyOff: ['redemption'] });
    Object.assign(redemption(5009), { processed: true });
    await refreshHistory(true);
    await idle();
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, ...ON });
    granted = false;
    Object.assign(redemption(5008), { processed: true });
    await refreshHistory(true);
    await idle();
    expect(created).toEqual([]);
  });

  it('none for changes made while not connected, nor on the first sync of the next connection', async () => {
    await disconnect();
    expect(await notifyStateItem.getValue()).toEqual({ states: null, goal: null, told: [] });
    Object.assign(redemption(5009), { processed: true });
    await connect(sandbox.url, sandbox.token);
    await firstSync();
    await refreshHistory(true);
    await idle();
    expect(created).toEqual([]);
  });
});

describe('unknown outcomes', () => {
  it('tells once when the history shows a redemption whose answer was lost', async () => {
    // The panel holds the redeem past the client's time-out and records it only afterwards, so the
    // read after the lost answer does not show it and a later check does. Held, not delayed: the
    // time-out can be long enough for the reads before sending on a busy machine, and no wait is raced.
    const before = sandbox.state.redemptions.length;
    await fault({ path: '/v1/panel/redemption', held: true });
    expect((await withClientTimeout(1000, () => redeemNow(rid(101)))).state).toBe('unknown');
    await releaseHeld(sandbox);
    await until(() => sandbox.state.redemptions.length > before);
    expect((await checkRedemption())?.state).toBe('done');
    await idle();
    await checkRedemption();
    await idle();
    expect(created.map((c) => [c.title, c.message])).toEqual([
      ['Your redemption went through', 'Bluefin Coffee $5 Gift Card is in your redemption history: it went through.'],
    ]);
  });

  it('tells once when the last check still does not find it, also for an outcome the ledger no longer shows', async () => {
    await fault({ path: '/v1/panel/redemption', drop: true });
    const entry = await redeemNow(rid(101));
    expect(entry.state).toBe('unknown');
    // Closing the card moves it to the outcomes checked in the background (settledItem once settled).
    await dismissRedemption();
    const late = entry.startedAt + CHECK_AFTER_MS[3] + 1000;
    for (let i = 0; i < CHECK_AFTER_MS.length; i += 1) await checkOutcomes(late);
    await idle();
    expect(created.map((c) => c.title)).toEqual(['Redemption not found']);
    await checkOutcomes(late);
    await idle();
    expect(created).toHaveLength(1);
  });
});

describe('nothing of an account outlives its session', () => {
  it('Disconnect clears the account’s notifications from the screen', async () => {
    Object.assign(redemption(5009), { approved: true, processed: true });
    await refreshHistory(true);
    await idle();
    expect(Object.keys(await fakeBrowser.notifications.getAll())).toEqual([`redemption:${await keyOf(5009)}:complete`]);
    await disconnect();
    expect(await fakeBrowser.notifications.getAll()).toEqual({});
  });

  it('a notification on its way when Disconnect lands is not left on screen for whoever comes next', async () => {
    Object.assign(redemption(5009), { approved: true, processed: true });
    let entered!: () => void;
    const showing = new Promise<void>((resolve) => (entered = resolve));
    // The permission check answers slowly: the notification is on its way while Disconnect lands.
    vi.mocked(fakeBrowser.permissions.contains).mockImplementation(async () => {
      entered();
      await sleep(60);
      return granted;
    });
    const reading = refreshHistory(true);
    await showing;
    await disconnect();
    await reading.catch(() => undefined);
    await idle();
    expect(await fakeBrowser.notifications.getAll()).toEqual({});
  });

  it('a notification recorded before Disconnect, whose turn to show comes after it, is never shown', async () => {
    Object.assign(redemption(5009), { approved: true, processed: true });
    // The preferences read between recording the change and showing it answers slowly: Disconnect
    // takes its turn in between, so the show's turn comes after the session it belongs to has ended.
    const get = fakeBrowser.storage.local.get.bind(fakeBrowser.storage.local);
    let entered!: () => void;
    const reading = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(fakeBrowser.storage.local, 'get').mockImplementation(async (keys?: unknown) => {
      const asked = typeof keys === 'string' ? [keys] : Array.isArray(keys) ? (keys as string[]) : [];
      if (asked.includes(preferencesItem.key)) {
        entered();
        await gate;
      }
      return get(keys as never);
    });
    const refreshing = refreshHistory(true);
    await reading;
    await disconnect();
    release();
    await refreshing.catch(() => undefined);
    await idle();
    expect(created).toEqual([]);
    expect(await fakeBrowser.notifications.getAll()).toEqual({});
  });
});

describe('the goal and the token', () => {
  it('tells once when the goal becomes affordable; not when it already was', async () => {
    await setGoal(rid(104)); // 1,650 points; the balance is 2,500
    await refreshRewards(true);
    await idle();
    expect(created).toEqual([]);

    // Set, and the very next read reaches it: no read in between to compare with but the cached one.
    await setGoal(rid(106)); // 5,000 points
    sandbox.state.balance = 5200;
    await refreshRewards(true);
    await idle();
    expect(created.map((c) => [c.title, c.message])).toEqual([
      ['You can redeem your goal', 'You now have enough points for PixelPlay Games $50 Gift Card.'],
    ]);
    sandbox.state.balance = 5300;
    await refreshRewards(true);
    await idle();
    expect(created).toHaveLength(1);
  });

  it('a read without a balance leaves where the goal stood: the next read that reaches it is told', async () => {
    await setGoal(rid(106)); // 5,000 points; the balance is 2,500
    await refreshRewards(true);
    await idle();
    const sid = await activeSessionId();
    const cached = (await rewardsItem.getValue())!;
    // One answer without a balance: where the goal stands is unknown, not "no goal".
    await onRewards(sid, { ...cached.data, balance: { ...cached.data.balance, points: null } });
    await idle();
    expect((await notifyStateItem.getValue()).goal).toMatchObject({ affordable: false });
    sandbox.state.balance = 5200;
    await refreshRewards(true);
    await idle();
    expect(created.map((c) => c.title)).toEqual(['You can redeem your goal']);
  });

  it('a goal set while a balance read lands is judged on the balance of its own turn, so the read that reaches it is told', async () => {
    sandbox.state.balance = 6000;
    await refreshRewards(true);
    await setGoal(rid(106)); // 5,000 points: affordable at 6,000
    await idle();
    const sid = await activeSessionId();
    const cached = (await rewardsItem.getValue())!;
    // The cached rewards answer late, with what they held when asked: a read started before a
    // write lands after it.
    const local = fakeBrowser.storage.local;
    const get = local.get.bind(local);
    local.get = async (keys: Parameters<typeof get>[0]) => {
      const value = await get(keys);
      if (JSON.stringify(keys ?? null).includes('cache:rewards'))
        await new Promise((resolve) => setTimeout(resolve, 80));
      return value;
    };
    try {
      const goalSet = onGoalSet(sid);
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Meanwhile a read lands: the points fell to 4,000.
      const fell = { ...cached.data, balance: { ...cached.data.balance, points: 4000 } };
      await rewardsItem.setValue({ data: fell, fetchedAt: Date.now() });
      await Promise.all([goalSet, onRewards(sid, fell)]);
    } finally {
      local.get = get;
    }
    expect((await notifyStateItem.getValue()).goal).toMatchObject({ affordable: false });
    sandbox.state.balance = 5200;
    await refreshRewards(true);
    await idle();
    expect(created.map((c) => c.title)).toEqual(['You can redeem your goal']);
  });

  it('tells once that the panel stopped accepting the token', async () => {
    await fault({ path: '/v1/panel/rewards', status: 401 });
    await expect(refreshRewards(true)).rejects.toThrow();
    await idle();
    expect((await sessionItem.getValue()).rejected).toBe(true);
    expect(created.map((c) => c.title)).toEqual(['Please reconnect']);
  });

  it('tells a refusal once however often the session meets it, also after a worker restart', async () => {
    await fault({ path: '/v1/panel/rewards', status: 401 });
    await expect(refreshRewards(true)).rejects.toThrow();
    await idle();
    startWorker();
    // A sign-in's renewal refused later in the same session is marked in a write of its own (tokens.ts).
    await markRejected(await activeSessionId(), put(credentialsItem, await credentialsItem.getValue()));
    await idle();
    expect(created.map((c) => c.title)).toEqual(['Please reconnect']);
  });

  it('tells each session’s refusal: the same key connected again and refused again is told again', async () => {
    await fault({ path: '/v1/panel/rewards', status: 401, times: 1 });
    await expect(refreshRewards(true)).rejects.toThrow();
    await idle();
    // The panelist pastes the same key again (the same account, its notification state kept).
    await connect(sandbox.url, sandbox.token);
    await firstSync();
    expect((await sessionItem.getValue()).rejected).toBe(false);
    await fault({ path: '/v1/panel/rewards', status: 401, times: 1 });
    await expect(refreshRewards(true)).rejects.toThrow();
    await idle();
    expect(created.map((c) => c.title)).toEqual(['Please reconnect', 'Please reconnect']);
  });

  it('tells a signed-in panelist to sign in again, never that a personal key was refused', async () => {
    await sessionItem.setValue({ ...(await sessionItem.getValue()), signedIn: true });
    installI18n('de');
    await markRejected(await activeSessionId());
    await idle();
    expect(created.map((c) => [c.title, c.message])).toEqual([
      [
        'Bitte melden Sie sich erneut an',
        'Ihre Anmeldung beim Panel ist abgelaufen. Öffnen Sie die Einstellungen und melden Sie sich erneut an.',
      ],
    ]);
  });
});

describe('the balance history', () => {
  it('records only changes, survives a restart, and goes on disconnect with the goal', async () => {
    await refreshRewards(true);
    await idle();
    expect((await balanceHistoryItem.getValue()).map((s) => s.points)).toEqual([2500]);
    sandbox.state.balance = 2600;
    startWorker();
    await refreshRewards(true);
    await refreshRewards(true);
    await idle();
    expect((await balanceHistoryItem.getValue()).map((s) => s.points)).toEqual([2500, 2600]);
    await setGoal(rid(106));
    await disconnect();
    expect(await balanceHistoryItem.getValue()).toEqual([]);
    expect(await goalItem.getValue()).toBeNull();
  });

  it('a late answer of the old session never adds a point to the next one', async () => {
    const other = await startSandbox({ seed: SEED_B, token: 'token-account-b' });
    try {
      // Account A's read is out, held by its panel until B is connected and has read its balance;
      // its answer then lands (the file's time-out is far longer than the hold) in B's session.
      await fault({ path: '/v1/panel/rewards', held: true });
      const asked = apiRequests(sandbox, '/v1/panel/rewards');
      const late = refreshRewards(true).catch(() => undefined);
      await until(() => apiRequests(sandbox, '/v1/panel/rewards') > asked);
      await connect(other.url, other.token);
      await firstReadsDone();
      await releaseHeld(sandbox);
      await late;
      await idle();
      // Only account B's balance (9,000), read at connect: account A's 2,500 landed after the switch.
      expect((await balanceHistoryItem.getValue()).map((s) => s.points)).toEqual([9000]);
    } finally {
      await other.close();
    }
  });
});
