import { browser } from 'wxt/browser';
import { AppErrorException, appError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import type { PagedItem, Stored } from '../../../utils/paged-item';
import type { StorageItem } from '../../../utils/storage-item';
import type { Cached } from '../../../utils/cached';
import { serialQueue } from '../../../utils/serial-queue';
import { DISCONNECTED, SESSION_ITEMS, sessionItem, type SessionInfo } from '../../../utils/storage-items';
import { credentialsItem, type Credentials } from './credentials';
import { idKeys, idUpgrade } from './stored-ids';

/**
 * The background's one way to write storage, and the check every request passes as it leaves
 * (so an old session's late answer is never stored as the new one's). A session is an id made at
 * connect, kept in the `session` item (the active-session
 * pointer) and in the credentials, both written by one `storage.local.set`. Every session-scoped
 * item is written here for the session its work started under; one queue runs each write, switch
 * and departure in turn, and each turn reads which session is active and acts on it before the
 * next turn starts. So nothing can move the session between the check and the write (or the
 * request), in whichever module the work began: a late answer of an ended session is refused here.
 *
 * Why one guarded writer rather than keys per session (Bitwarden's state provider): the pages read
 * fixed keys, the popup's first frame all of them in one `storage.local.get` (for speed), which keys
 * per session would turn into two reads in a row; and a late write under an ended session's keys
 * would put that account's data back on disk after a disconnect until the next clean-up, where
 * this writer refuses it. The switch below empties every session-scoped item in the same `set`
 * that names the new session, so storage never holds two sessions' data.
 */

export type SessionId = string;

export interface Put {
  readonly key: string;
  readonly value: unknown;
}

/** What `item` stores for `value`, in the item's own stored form where it has one (utils/storage-item.ts). */
export const put = <T>(item: StorageItem<T>, value: T): Put => ({
  key: item.key,
  value: item.toStored ? item.toStored(value) : value,
});

/**
 * The puts that store `value` in a paged item (the history, so a page reads only what it shows) whose head is `previous` as
 * the same turn read it: the head, the pages, and the previous copy's further pages emptied.
 */
export function putPages<E>(item: PagedItem<E>, value: Cached<E[]>, previous: Stored<E> | null): Put[] {
  const { set, remove } = item.layout(value, previous);
  return [
    ...Object.entries(set).map(([key, page]) => ({ key, value: page })),
    ...remove.map((key) => ({ key, value: null })),
  ];
}

const isPaged = (item: StorageItem<unknown>): item is PagedItem<unknown> => 'keysOf' in item;

/** The storage keys `items` hold now: a paged item's pages with its head. */
async function keysOf(items: ReadonlyArray<StorageItem<unknown>>): Promise<string[]> {
  const keys = await Promise.all(
    items.map(async (item) => (isPaged(item) ? item.keysOf(await item.readHead()) : [item.key])),
  );
  return keys.flat();
}

/** An item's value as one turn read it. */
export type Get = <T>(item: StorageItem<T>) => T;

/** The writer's turns: one at a time, so what a turn read is still what storage holds when it writes. */
const inTurn = serialQueue().run;

/** The work of a session that has ended: dropped without a word written to storage. */
export class StaleSession extends AppErrorException {}

export function staleSession(): StaleSession {
  return new StaleSession(appError('not_connected', t('errSessionChanged')));
}

async function activeId(): Promise<SessionId | null> {
  return (await sessionItem.getValue()).id ?? null;
}

function setAll(puts: readonly Put[]): Promise<void> {
  return browser.storage.local.set(Object.fromEntries(puts.map(({ key, value }) => [key, value])));
}

async function read(items: ReadonlyArray<StorageItem<unknown>>): Promise<Get> {
  const values = new Map<StorageItem<unknown>, unknown>(
    await Promise.all(items.map(async (item) => [item, await item.getValue()] as const)),
  );
  return <T>(item: StorageItem<T>): T => {
    if (!values.has(item)) throw new Error(`${item.key} was not read in this turn`);
    return values.get(item) as T;
  };
}

/** The credentials in force, with the session they belong to; null when disconnected. */
export function activeCredentials(): Promise<Credentials | null> {
  return inTurn(() => credentialsItem.getValue());
}

/**
 * What a write carries outside storage, run in its own turn so nothing can come between: `before`
 * runs before the write (what must already hold when the write can be seen, such as the alarm that
 * checks a redemption just written), `after` once it took effect or was refused (`written`), so
 * what follows from storage, such as that alarm's time, is decided on storage as it stands.
 */
export interface TurnEffects {
  before?: () => Promise<void>;
  after?: (written: boolean) => Promise<void>;
}

/**
 * Reads `items` and, while `sid` is still the active session, writes what `change` makes of them,
 * all in one turn: a read-modify-write no other write can come between. Refused with
 * {@link staleSession} once another session is active.
 */
export function update(
  sid: SessionId,
  items: ReadonlyArray<StorageItem<unknown>>,
  change: (get: Get) => readonly Put[],
  effects: TurnEffects = {},
): Promise<void> {
  return inTurn(async () => {
    const [active, get] = await Promise.all([activeId(), read(items)]);
    if (active !== sid) throw staleSession();
    const puts = change(get);
    await effects.before?.();
    let written = false;
    try {
      if (puts.length > 0) await setAll(puts);
      written = true;
    } finally {
      await effects.after?.(written);
    }
  });
}

/** Runs `effect` in a turn of its own while `sid` is the active session (null: while disconnected). */
export function whileActive<T>(sid: SessionId | null, effect: () => Promise<T>): Promise<T> {
  return inTurn(async () => {
    if ((await activeId()) !== sid) throw staleSession();
    return effect();
  });
}

/** Writes `puts` for session `sid`, in one `storage.local.set`; refused once another session is active. */
export function write(sid: SessionId, ...puts: Put[]): Promise<void> {
  return update(sid, [], () => puts);
}

/**
 * Reads `items` that belong to the device, not to a session (the preferences), and writes what
 * `change` makes of them, in one turn: two changes sent at once each build on the other.
 */
export function updateDevice(
  items: ReadonlyArray<StorageItem<unknown>>,
  change: (get: Get) => readonly Put[],
): Promise<void> {
  return inTurn(async () => {
    const puts = change(await read(items));
    if (puts.length > 0) await setAll(puts);
  });
}

/**
 * Hands a request to the network only while `sid` is the active session, checked in the same turn
 * as it leaves: a request of an ended session never leaves, whatever awaits came before.
 */
export function depart<T>(sid: SessionId, send: () => Promise<T>): Promise<T> {
  return inTurn(async () => {
    if ((await activeId()) !== sid) throw staleSession();
    // Boxed, so the turn ends once the request has left rather than once it is answered.
    return { answer: send() };
  }).then(({ answer }) => answer);
}

export interface Switch {
  /** The session to start (its id is made here), or null to disconnect. */
  next: { credentials: Omit<Credentials, 'session'>; session: Omit<SessionInfo, 'id'> } | null;
  /** Session-scoped items the new session takes over (the same account reconnecting). */
  keep?: ReadonlyArray<StorageItem<unknown>>;
  /** The new session's first data and notices, stored with it. */
  puts?: readonly Put[];
}

/**
 * Ends the active session and starts `next` (or none) in one `storage.local.set`: its credentials,
 * the active-session pointer, every session-scoped item emptied but those kept, and the new
 * session's first data. `plan` decides from `items` as they are in that same turn.
 */
export function switchSession(
  items: ReadonlyArray<StorageItem<unknown>>,
  plan: (get: Get) => Switch,
): Promise<SessionInfo> {
  return inTurn(async () => {
    // Both reads at once (each a round trip to storage, on the way to "Connected"), in this turn.
    const [got, stored] = await Promise.all([
      read(items),
      Promise.all(SESSION_ITEMS.map(async (item) => ({ item, keys: await keysOf([item]) }))),
    ]);
    const { next, keep = [], puts = [] } = plan(got);
    const id = crypto.randomUUID();
    const session: SessionInfo = next ? { ...next.session, id } : DISCONNECTED;
    const emptied = stored
      .filter(({ item }) => !keep.includes(item))
      .flatMap(({ keys }) => keys)
      .map((key) => ({ key, value: null }));
    await setAll([
      ...emptied,
      ...puts,
      put(credentialsItem, next ? { ...next.credentials, session: id } : null),
      put(sessionItem, session),
    ]);
    return session;
  });
}

/**
 * At worker start, before anything else runs: ids stored by an earlier version take this one's
 * form, a session stored before sessions had ids gets one, and when disconnected nothing of a
 * session stays (a page's or a stopped worker's last write).
 */
export function settleStorage(): Promise<void> {
  return inTurn(async () => {
    // Ids an earlier version stored as numbers, as this version's digits (stored-ids.ts), first.
    const numeric = await idKeys();
    if (numeric.length > 0) await setAll(idUpgrade(await browser.storage.local.get(numeric)));
    const [session, credentials] = await Promise.all([sessionItem.getValue(), credentialsItem.getValue()]);
    if (session.connected && credentials) {
      if (session.id && credentials.session === session.id) return;
      const id = session.id ?? crypto.randomUUID();
      await setAll([put(sessionItem, { ...session, id }), put(credentialsItem, { ...credentials, session: id })]);
      return;
    }
    const keys = [...(await keysOf(SESSION_ITEMS)), credentialsItem.key];
    const stored = await browser.storage.local.get(keys);
    const left = keys.filter((key) => stored[key] !== undefined && stored[key] !== null);
    if (left.length > 0 || session.connected) {
      await setAll([...left.map((key) => ({ key, value: null })), put(sessionItem, DISCONNECTED)]);
    }
  });
}
