// @vitest-environment node
/**
 * The background's one writer (store.ts). Session-scoped state cannot cross
 * sessions by construction: every background write goes through it (one import path, checked on
 * the source below), and it checks the session in the same turn as it writes or lets a request go.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import {
  activeCredentials,
  depart,
  put,
  settleStorage,
  StaleSession,
  switchSession,
  update,
  write,
  updateDevice,
} from '../../entrypoints/background/store/store';
import {
  DISCONNECTED,
  goalItem,
  historyItem,
  ledgerItem,
  preferencesItem,
  profileDraftItem,
  rewardsItem,
  SAME_ACCOUNT_ITEMS,
  SESSION_ITEMS,
  sessionItem,
  syncItem,
} from '../../utils/storage-items';
import { checkoutRoot } from './checkout-root';
import { rid } from './test-ids';

const BACKGROUND = join(checkoutRoot(), 'entrypoints/background');
/** The one writer, by its path under the background (every folder of it is read). */
const STORE = join('store', 'store.ts');

const A = { baseUrl: 'https://a.example', token: 'token-a' };
const B = { baseUrl: 'https://b.example', token: 'token-b' };
const info = (baseUrl: string) => ({ connected: true, baseUrl, origin: baseUrl, tokenHint: 'en-a', rejected: false });
const start = (credentials: typeof A) =>
  switchSession([], () => ({ next: { credentials, session: info(credentials.baseUrl) } }));

beforeEach(() => fakeBrowser.reset());

describe('one import path', () => {
  it('no background module but store.ts writes storage', () => {
    const writers = readdirSync(BACKGROUND, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && file !== STORE)
      .flatMap((file) => {
        // Comments may name the calls; code may not.
        const code = readFileSync(join(BACKGROUND, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
        return /\.(setValue|removeValue)\(|storage\.local\.(set|remove|clear)\b|storage\.local\b/.test(code)
          ? [file]
          : [];
      });
    expect(writers).toEqual([]);
    expect(readFileSync(join(BACKGROUND, STORE), 'utf8')).toContain('browser.storage.local.set');
  });

  it('lists every session-scoped item the pages read, and the credentials go with them', () => {
    const keys = SESSION_ITEMS.map((item) => item.key);
    for (const key of [
      'cache:rewards',
      'cache:history',
      'cache:profile',
      'cache:reward-html',
      'view:popup',
      'sync',
      'ledger',
      'ledger:unsettled',
      'ledger:settled',
      'ledger:duplicates',
      'goal',
      'balance:history',
      'notify:state',
      'draft:profile',
      'notice:draft-discarded',
      'validators:rewards',
      'validators:history',
      'validators:profile',
    ]) {
      expect(keys).toContain(key);
    }
    expect(keys).not.toContain('preferences');
    expect(SAME_ACCOUNT_ITEMS.every((item) => SESSION_ITEMS.includes(item))).toBe(true);
  });
});

describe('the session switch', () => {
  it('stores the credentials, the session with its new id and the emptied items in one storage.local.set', async () => {
    const first = await start(A);
    await write(
      first.id!,
      put(rewardsItem, { data: { rewards: [], balance: { points: 5, source: 'rewards' } }, fetchedAt: 1 }),
    );
    const changes: string[][] = [];
    fakeBrowser.storage.onChanged.addListener((c) => void changes.push(Object.keys(c)));
    const second = await start(B);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toEqual(expect.arrayContaining(['credentials', 'session', 'cache:rewards', 'ledger', 'goal']));
    expect(second.id).toBeTruthy();
    expect(second.id).not.toBe(first.id);
    expect(await activeCredentials()).toEqual({ ...B, session: second.id });
    expect(await rewardsItem.getValue()).toBeNull();
  });

  it('keeps what it is told to keep, and the plan reads the items in the same turn', async () => {
    const first = await start(A);
    await write(first.id!, put(profileDraftItem, { NAME: 'Jo' }), put(historyItem, { data: [], fetchedAt: 1 }));
    let seen: unknown;
    await switchSession([profileDraftItem], (get) => {
      seen = get(profileDraftItem);
      return { next: { credentials: A, session: info(A.baseUrl) }, keep: [profileDraftItem] };
    });
    expect(seen).toEqual({ NAME: 'Jo' });
    expect(await profileDraftItem.getValue()).toEqual({ NAME: 'Jo' });
    expect(await historyItem.getValue()).toBeNull();
  });

  it('disconnecting leaves no credentials, a session without id, and nothing of the session', async () => {
    const first = await start(A);
    await write(
      first.id!,
      put(ledgerItem, null),
      put(goalItem, { account: 'x', rewardId: rid(1), rewardName: 'r', setAt: 1 }),
    );
    expect(await switchSession([], () => ({ next: null }))).toEqual(DISCONNECTED);
    expect(await credentialsItem.getValue()).toBeNull();
    expect(await sessionItem.getValue()).toEqual(DISCONNECTED);
    expect(await goalItem.getValue()).toBeNull();
  });
});

describe('writes and requests of a session', () => {
  it('a write queued before a switch lands before it (and is emptied by it); one after it is refused', async () => {
    const first = await start(A);
    const before = write(first.id!, put(goalItem, { account: 'a', rewardId: rid(1), rewardName: 'r', setAt: 1 }));
    const switching = start(B);
    const after = write(first.id!, put(goalItem, { account: 'a', rewardId: rid(2), rewardName: 'r', setAt: 2 }));
    await before;
    await switching;
    await expect(after).rejects.toBeInstanceOf(StaleSession);
    expect(await goalItem.getValue()).toBeNull();
  });

  it('a read-modify-write reads and writes in one turn: two at once keep both changes', async () => {
    const { id } = await start(A);
    const bump = (area: 'rewards' | 'history') =>
      update(id!, [syncItem], (get) => [
        put(syncItem, { ...get(syncItem), [area]: { loading: true, error: null, attemptedAt: 1 } }),
      ]);
    await Promise.all([bump('rewards'), bump('history')]);
    const sync = await syncItem.getValue();
    expect([sync.rewards.loading, sync.history.loading, sync.profile.loading]).toEqual([true, true, false]);
    // An item not read in the turn cannot be used by it.
    await expect(update(id!, [], (get) => [put(goalItem, get(goalItem))])).rejects.toThrow(/not read/);
  });

  it('a request leaves only while its session is active, checked in the turn it leaves', async () => {
    const { id } = await start(A);
    let sent = 0;
    const send = () => {
      sent += 1;
      return Promise.resolve(sent);
    };
    expect(await depart(id!, send)).toBe(1);
    const late = depart(id!, send);
    await start(B);
    // Queued before the switch: it left. Asked after it: refused, never sent.
    expect(await late).toBe(2);
    await expect(depart(id!, send)).rejects.toBeInstanceOf(StaleSession);
    expect(sent).toBe(2);
  });

  it('a turn does not wait for the answer of a request it let go', async () => {
    const { id } = await start(A);
    let answer!: () => void;
    const open = depart(id!, () => new Promise<void>((resolve) => (answer = resolve)));
    await write(id!, put(goalItem, null));
    answer();
    await open;
  });

  it('device items are written whatever the session, each change computed in its own turn from the one before', async () => {
    await updateDevice([preferencesItem], () => [put(preferencesItem, { badge: false, refreshMinutes: 15 })]);
    expect(await preferencesItem.getValue()).toEqual({ badge: false, refreshMinutes: 15 });
    // Two changes sent together: the second builds on the first, neither is lost.
    await Promise.all([
      updateDevice([preferencesItem], (get) => [put(preferencesItem, { ...get(preferencesItem), badge: true })]),
      updateDevice([preferencesItem], (get) => [put(preferencesItem, { ...get(preferencesItem), refreshMinutes: 60 })]),
    ]);
    expect(await preferencesItem.getValue()).toEqual({ badge: true, refreshMinutes: 60 });
  });
});

describe('at worker start', () => {
  it('gives a session stored before sessions had ids one, in both items', async () => {
    await fakeBrowser.storage.local.set({ credentials: A, session: info(A.baseUrl) });
    await settleStorage();
    const { id } = await sessionItem.getValue();
    expect(id).toBeTruthy();
    expect(await credentialsItem.getValue()).toEqual({ ...A, session: id });
    await settleStorage();
    expect((await sessionItem.getValue()).id).toBe(id);
  });

  it('keeps an id the session already has', async () => {
    await fakeBrowser.storage.local.set({
      credentials: { ...A, session: 'old' },
      session: { ...info(A.baseUrl), id: 'kept' },
    });
    await settleStorage();
    expect((await sessionItem.getValue()).id).toBe('kept');
    expect((await credentialsItem.getValue())?.session).toBe('kept');
  });

  it('when disconnected, removes what a page or a stopped worker left of a session', async () => {
    await fakeBrowser.storage.local.set({
      [profileDraftItem.key]: { NAME: 'Jo' },
      [preferencesItem.key]: { badge: false, refreshMinutes: 15 },
    });
    await settleStorage();
    expect(await profileDraftItem.getValue()).toEqual({});
    expect(await preferencesItem.getValue()).toEqual({ badge: false, refreshMinutes: 15 });
    const changes: unknown[] = [];
    fakeBrowser.storage.onChanged.addListener((c) => void changes.push(c));
    await settleStorage();
    expect(changes).toEqual([]);
  });

  it('a session marked connected without credentials is no session', async () => {
    await fakeBrowser.storage.local.set({ session: info(A.baseUrl) });
    await settleStorage();
    expect(await sessionItem.getValue()).toEqual(DISCONNECTED);
  });
});
