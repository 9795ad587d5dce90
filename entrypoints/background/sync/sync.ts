import { isImpossible, resolveBalance, UNREAD_BALANCE, type BodyBalance } from '../../../utils/balance';
import { appError, type AppError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { settings } from '../../../utils/settings';
import { coerceStoredValues } from '../../../utils/stored-values';
import {
  historyItem,
  popupViewItem,
  syncItem,
  validatorItems,
  type ProfileData,
  type RewardsData,
  type AreaValidators,
  type SyncArea,
} from '../../../utils/storage-items';
import type { Balance, Redemption } from '../../../utils/types';
import { sessionApi } from '../auth/api';
import type { Credentials } from '../store/credentials';
import { epochOf } from './epochs';
import { reader, type Reader } from './revalidate';
import { historyWriter, profileWriter, rewardsWriter, type AreaCache } from '../popup-view';
import { fail, toAppError } from '../result';
import { activeCredentials, put, StaleSession, staleSession, update, write, type SessionId } from '../store/store';
import { announceStored } from '../store/stored-reads';

/** Data younger than this is served from the cache when a page opens (stale-while-revalidate). */
export const FRESH_MS = 60_000;

interface Running {
  promise: Promise<Read<unknown>>;
  sid: SessionId;
  epoch: number;
}

/**
 * One area's data as a read brought it: `seq` counts the reads this worker started (any area), so
 * a caller can tell a read that left after a moment it noted ({@link readsStarted}) from one it
 * joined that left before; `leftAt` is when that read was started, before its request left.
 */
export interface Read<T> {
  data: T;
  seq: number;
  leftAt: number;
}

let started = 0;

/** How many reads this worker has started so far: a read with a higher `seq` left after this call. */
export function readsStarted(): number {
  return started;
}

const inFlight = new Map<SyncArea, Running>();

/**
 * Areas refresh side by side but share one item: each update reads and writes it in one turn of
 * the store, so no area puts back another's stale `loading` flag, and none lands in another session.
 */
export function setSync(
  sid: SessionId,
  area: SyncArea,
  patch: Partial<{ loading: boolean; error: AppError | null }>,
): Promise<void> {
  return update(sid, [syncItem], (get) => {
    const all = get(syncItem);
    return [put(syncItem, { ...all, [area]: { ...all[area], ...patch, attemptedAt: Date.now() } })];
  });
}

/**
 * At worker start: no refresh of an earlier worker is running, whatever it left in storage. Only
 * flags from before `since`: a refresh this worker already started keeps its own.
 */
export async function clearLoadingFlags(since: number): Promise<void> {
  const credentials = await activeCredentials();
  if (!credentials) return;
  const sid = credentials.session;
  await orEmptied(
    sid,
    update(sid, [syncItem], (get) => {
      const all = get(syncItem);
      const stale = (area: SyncArea) => all[area].loading && all[area].attemptedAt < since;
      if (!stale('rewards') && !stale('history') && !stale('profile')) return [];
      const idle = (area: SyncArea) => (stale(area) ? { ...all[area], loading: false } : all[area]);
      return [put(syncItem, { rewards: idle('rewards'), history: idle('history'), profile: idle('profile') })];
    }),
  );
}

/**
 * Loads an area's data; `cached` is the copy a 304 confirms (present whenever one can come). A part
 * it could not read while the rest came (the balance beside the catalogue) is given to `unread`:
 * the data is stored, and the area's sync state carries that failure so the pages can say it.
 */
type Load<T> = (read: Reader, cached: T | undefined, unread: (error: AppError) => void) => Promise<T>;

/**
 * One refresh of an area at a time. A caller joins a running fetch only when it belongs to the same
 * session and started after the area's last write; otherwise it waits for it and fetches again,
 * so a read asked for after a write never reuses a request that left before it. A result is stored
 * only for its own session (the store refuses it otherwise) and only when no write overtook it.
 */
async function refresh<T>(area: SyncArea, item: AreaCache<T>, force: boolean, load: Load<T>): Promise<T> {
  if (!force) {
    const cached = await item.getValue();
    if (cached && Date.now() - cached.fetchedAt < FRESH_MS) return cached.data;
  }
  return (await readArea(area, item, load)).data;
}

/**
 * A read of the area that may join one already out (see {@link refresh}), with when it left; for
 * session `of` only, when given (refused with {@link staleSession} once another is active).
 */
async function readArea<T>(area: SyncArea, item: AreaCache<T>, load: Load<T>, of?: SessionId): Promise<Read<T>> {
  for (;;) {
    const credentials = await activeCredentials();
    if (!credentials) fail(appError('not_connected', t('errNotConnected')));
    const sid = credentials.session;
    if (of !== undefined && of !== sid) throw staleSession();
    const epoch = epochOf(area);
    const running = inFlight.get(area);
    if (running && running.sid === sid && running.epoch === epoch) return running.promise as Promise<Read<T>>;
    // The same session's read from before a write: wait for it rather than run two side by side.
    // Another session's read is dropped when it lands, so it is not waited for.
    if (running && running.sid === sid) {
      await running.promise.catch(() => undefined);
      continue;
    }
    started += 1;
    const leftAt = Date.now();
    const seq = started;
    const promise = fetchArea(area, item, credentials, epoch, load).then((data) => ({ data, seq, leftAt }));
    const entry: Running = { promise, sid, epoch };
    inFlight.set(area, entry);
    try {
      return await promise;
    } finally {
      if (inFlight.get(area) === entry) inFlight.delete(area);
    }
  }
}

/**
 * Marks the area loading, reads it, stores it with its validators in one write, and always ends
 * with `loading` off: with the error when anything failed on the way — preparing the credentials
 * (a renewal the panel refused or asked to wait for), the read, or storing it (a full storage) —
 * unless the session ended meanwhile, when nothing more is written.
 */
async function fetchArea<T>(
  area: SyncArea,
  item: AreaCache<T>,
  credentials: Credentials,
  epoch: number,
  load: Load<T>,
): Promise<T> {
  const sid = credentials.session;
  await setSync(sid, area, { loading: true });
  let data: T;
  let partly: AppError | null = null;
  try {
    const { api } = await sessionApi(credentials);
    const seen = {};
    const { cached, known } = await revalidation(area, item, epoch);
    data = await load(reader(api, known, seen), cached, (error) => (partly = error));
    // A write landed while this read was out: its data may predate it, and the write's own
    // follow-up read is the one to keep.
    if (epochOf(area) === epoch) {
      const fetchedAt = Date.now();
      await item.store(sid, { data, fetchedAt }, put(validatorItems[area], { fetchedAt, epoch, reads: seen }));
      announceStored(area, data, sid);
    }
  } catch (err) {
    if (!(err instanceof StaleSession)) await endSync(sid, area, toAppError(err));
    throw err;
  }
  await endSync(sid, area, partly);
  return data;
}

/** Turns the area's `loading` off, with its error (which, if storage refuses, reaches the page only as the reply). */
function endSync(sid: SessionId, area: SyncArea, error: AppError | null): Promise<void> {
  return orEmptied(sid, setSync(sid, area, { loading: false, error }));
}

/**
 * A write that turns `loading` flags off. When storage is too full for even that (another write
 * took the last bytes; `false` is a byte longer than `true`), every area's state is emptied
 * instead, which takes no room: no flag is ever left on.
 */
async function orEmptied(sid: SessionId, writing: Promise<void>): Promise<void> {
  try {
    await writing;
  } catch (err) {
    if (!(err instanceof StaleSession)) await write(sid, put(syncItem, null)).catch(() => undefined);
  }
}

/**
 * The cached copy and the validators it came with, when both are there and belong together: the
 * same fetch, and no write of this worker since (after one, the panel's answer is read whole).
 */
async function revalidation<T>(
  area: SyncArea,
  item: AreaCache<T>,
  epoch: number,
): Promise<{ cached?: T; known?: AreaValidators['reads'] }> {
  const validators = await validatorItems[area].getValue();
  if (!validators || validators.epoch !== epoch) return {};
  const copy = await item.getValue();
  return copy && copy.fetchedAt === validators.fetchedAt ? { cached: copy.data, known: validators.reads } : {};
}

/**
 * Rewards plus the balance, looked up in utils/balance.ts's order. With a cached copy, an answer
 * that did not change (304) keeps its part of it: the rewards, and the balance when it came from
 * the rewards answer or from a values answer that did not change either. A cached balance not read
 * is read whole again (no validator): a 304 would confirm nothing, and the sync state says why it
 * is still not read.
 */
const rewardsFrom: Load<RewardsData> = async (read, cached, unread) => {
  const whole = cached?.balance.source === 'unread';
  const rewardsRead = await read('rewards', whole);
  const rewards = rewardsRead?.rewards ?? cached!.rewards;
  if (rewardsRead ? rewardsRead.balance !== null : cached!.balance.source === 'rewards') {
    return rewardsRead
      ? {
          rewards,
          balance: readable(rewardsRead.balance, unread, (points) =>
            resolveBalance({ rewards: points, variables: null, stored: null, variableName: settings.balanceVariable }),
          ),
        }
      : cached!;
  }
  return { rewards, balance: await valuesBalance(read, cached, unread, whole) };
};

/**
 * The balance `resolve` makes of an answer's balance field, or not read when the field holds a
 * number that cannot be points (utils/balance.ts): `unread` is told why, and no later field or
 * source stands in for it.
 */
function readable(
  found: BodyBalance,
  unread: (error: AppError) => void,
  resolve: (points: number | null) => Balance,
): Balance {
  if (!isImpossible(found)) return resolve(found);
  unread(found.impossible);
  return UNREAD_BALANCE;
}

/**
 * The balance from the values answer, when the rewards answer carries none. Its read failing does
 * not fail the catalogue read beside it (costs still show, redeem stays possible, the panel
 * decides): the balance is not read, never "none" or 0 (unknown stays unknown), and `unread` is told
 * why. A session that ended or a key refused (401) still fails the whole read: both have their
 * own handling (the read is dropped; the pages ask to reconnect).
 */
async function valuesBalance(
  read: Reader,
  cached: RewardsData | undefined,
  unread: (error: AppError) => void,
  whole: boolean,
): Promise<Balance> {
  let values;
  try {
    values = await read('variablesData', whole);
  } catch (err) {
    const error = err instanceof StaleSession ? null : toAppError(err);
    if (!error || error.kind === 'unauthorized') throw err;
    unread(error);
    return UNREAD_BALANCE;
  }
  if (!values) return cached!.balance;
  return readable(values.balance, unread, (points) =>
    resolveBalance({ rewards: null, variables: points, stored: values.values, variableName: settings.balanceVariable }),
  );
}

export function refreshRewards(force: boolean): Promise<RewardsData> {
  return refresh('rewards', rewardsWriter, force, rewardsFrom);
}

const historyFrom: Load<Redemption[]> = async (read, cached) => (await read('redemptions'))?.map(forHistory) ?? cached!;

export function refreshHistory(force: boolean): Promise<Redemption[]> {
  return refresh('history', historyWriter, force, historyFrom);
}

/**
 * A read of the history or the rewards and balance as {@link refresh} with `force` makes it, and
 * which read it was (it may be one already out): for the redemption ledger, which decides itself
 * whether a read left late enough to count (redemption/fresh-reads.ts).
 */
export function readHistory(sid?: SessionId): Promise<Read<Redemption[]>> {
  return readArea('history', historyWriter, historyFrom, sid);
}

export function readRewards(sid?: SessionId): Promise<Read<RewardsData>> {
  return readArea('rewards', rewardsWriter, rewardsFrom, sid);
}

/**
 * A page's "refresh if stale": nothing when the cached copy is fresh, judged from a few bytes (the
 * popup view's rewards, the history's head) rather than from the cache itself. Pages read storage in
 * the same queue as the background, and a freshness check that read megabytes of catalogue or
 * history held their own first reads up, and the popup's first frame with them.
 */
export async function refreshForPage(area: 'rewards' | 'history', force: boolean): Promise<void> {
  if (!force) {
    const at =
      area === 'rewards'
        ? (await popupViewItem.getValue())?.rewards?.fetchedAt
        : (await historyItem.readHead())?.fetchedAt;
    if (at !== undefined && Date.now() - at < FRESH_MS) return;
  }
  await (area === 'rewards' ? refreshRewards(force) : refreshHistory(force));
}

/**
 * Each redemption nests its whole reward, HTML terms and all; the history shows only its name and
 * image. Keeping just those takes 10,000 redemptions from about 25 MB, over storage.local's 10 MB,
 * to a few MB (found by the benchmark).
 */
export function forHistory(r: Redemption): Redemption {
  const { id, name, cost, cost_currency, type } = r.reward;
  const image_url = r.reward.image_url || r.reward.meta_data.image_url || '';
  return { ...r, reward: { id, name, cost, cost_currency, type, image_url, meta_data: {}, reward_point_cost: null } };
}

export function refreshProfile(force: boolean): Promise<ProfileData> {
  return refresh('profile', profileWriter, force, async (read, cached) => {
    const [rewardsRead, values] = await Promise.all([read('variablesMeta'), read('variablesData')]);
    if (!rewardsRead && !values) return cached!;
    const definitions = rewardsRead ?? cached!.definitions;
    // Values arrive in loose shapes (utils/stored-values.ts); pages get them in their definition's format,
    // so new definitions need the values as sent, which a 304 does not carry: read them whole.
    const raw = values ?? (await read('variablesData', true))!;
    const held = raw.unreadable.length > 0 ? { unreadable: raw.unreadable } : {};
    return { definitions, values: coerceStoredValues(raw.values, definitions), ...held };
  });
}
