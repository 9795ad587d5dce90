import type { PanelApi } from '../../utils/api/client';
import { resolveBalance } from '../../utils/balance';
import type { AppError } from '../../utils/errors';
import { settings } from '../../utils/settings';
import { coerceStoredValues } from '../../utils/stored-values';
import {
  historyItem,
  popupViewItem,
  syncItem,
  validatorItems,
  type Cached,
  type ProfileData,
  type RewardsData,
  type AreaValidators,
  type SyncArea,
  type SyncState,
} from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentApi, staleSession } from './api';
import { epochOf, isCurrent } from './generation';
import { reader, type Reader } from './revalidate';
import { historyWriter, profileWriter, rewardsWriter } from './popup-view';
import { toAppError } from './result';

/** Data younger than this is served from the cache when a page opens (stale-while-revalidate). */
export const FRESH_MS = 60_000;

interface Running {
  promise: Promise<unknown>;
  gen: number;
  epoch: number;
}

const inFlight = new Map<SyncArea, Running>();

type StoredListener = (area: SyncArea, data: unknown, gen: number) => void;
const storedListeners = new Set<StoredListener>();

/**
 * Called after fresh data of an area is stored, with the session it belongs to, so what follows
 * from it (the balance history, notifications) can drop it when that session has ended.
 */
export function onStored(listener: StoredListener): () => void {
  storedListeners.add(listener);
  return () => storedListeners.delete(listener);
}

export function announceStored(area: SyncArea, data: unknown, gen: number): void {
  for (const listener of storedListeners) listener(area, data, gen);
}

let syncWrites: Promise<void> = Promise.resolve();

/**
 * Areas refresh side by side but share one item: each update is a read-modify-write, so they are
 * queued, or one area's write would put back another's stale `loading` flag. A write of a session
 * that has ended is skipped, and one failed write (a full storage) does not stop the queue.
 */
export function setSync(gen: number, area: SyncArea, patch: Partial<{ loading: boolean; error: AppError | null }>): Promise<void> {
  const write = syncWrites.then(async () => {
    if (!isCurrent(gen)) return;
    const all = await syncItem.getValue();
    await syncItem.setValue({ ...all, [area]: { ...all[area], ...patch, attemptedAt: Date.now() } });
  });
  syncWrites = write.catch(() => undefined);
  return write;
}

/** At worker start: no refresh is running, whatever a stopped worker left in storage. */
export function clearLoadingFlags(): Promise<void> {
  const write = syncWrites.then(async () => {
    const all = await syncItem.getValue();
    if (!Object.values(all).some((state) => state.loading)) return;
    const idle = (state: SyncState) => ({ ...state, loading: false });
    await syncItem.setValue({ rewards: idle(all.rewards), history: idle(all.history), profile: idle(all.profile) });
  });
  syncWrites = write.catch(() => undefined);
  return write;
}

/** Runs after every queued sync-state write, so a reset cannot be overtaken by an older write. */
export function resetSync(): Promise<void> {
  const write = syncWrites.then(() => syncItem.removeValue());
  syncWrites = write.catch(() => undefined);
  return write;
}

/**
 * One refresh of an area at a time. A caller joins a running fetch only when it belongs to the same
 * session and started after the area's last write; otherwise it waits for it and fetches again,
 * so a read asked for after a write never reuses a request that left before it. A result is stored
 * only while its session is current and no write overtook it.
 */
/** Loads an area's data; `cached` is the copy a 304 confirms (present whenever one can come). */
type Load<T> = (read: Reader, cached: T | undefined) => Promise<T>;

interface CacheItem<T> {
  getValue(): Promise<Cached<T> | null>;
  setValue(v: Cached<T>): Promise<void>;
}

async function refresh<T>(area: SyncArea, item: CacheItem<T>, force: boolean, load: Load<T>): Promise<T> {
  if (!force) {
    const cached = await item.getValue();
    if (cached && Date.now() - cached.fetchedAt < FRESH_MS) return cached.data;
  }
  for (;;) {
    const { api, gen } = await currentApi();
    const epoch = epochOf(area);
    const running = inFlight.get(area);
    if (running && running.gen === gen && running.epoch === epoch) return running.promise as Promise<T>;
    // The same session's read from before a write: wait for it rather than run two side by side.
    // Another session's read is dropped when it lands, so it is not waited for.
    if (running && running.gen === gen) {
      await running.promise.catch(() => undefined);
      continue;
    }
    const promise = fetchArea(area, item, api, gen, epoch, load);
    const entry: Running = { promise, gen, epoch };
    inFlight.set(area, entry);
    try {
      return await promise;
    } finally {
      if (inFlight.get(area) === entry) inFlight.delete(area);
    }
  }
}

async function fetchArea<T>(area: SyncArea, item: CacheItem<T>, api: PanelApi, gen: number, epoch: number, load: Load<T>): Promise<T> {
  await setSync(gen, area, { loading: true });
  let data: T;
  const seen = {};
  try {
    const { cached, known } = await revalidation(area, item, epoch);
    data = await load(reader(api, known, seen), cached);
  } catch (err) {
    if (!isCurrent(gen)) throw staleSession();
    await setSync(gen, area, { loading: false, error: toAppError(err) });
    throw err;
  }
  if (!isCurrent(gen)) throw staleSession();
  // A write landed while this read was out: its data may predate it, and the write's own
  // follow-up read is the one to keep.
  if (epochOf(area) === epoch) {
    const fetchedAt = Date.now();
    await item.setValue({ data, fetchedAt });
    announceStored(area, data, gen);
    // After the data: a worker stopped in between leaves validators that match no copy, never
    // validators that vouch for data they did not come with.
    if (isCurrent(gen)) await validatorItems[area].setValue({ fetchedAt, epoch, reads: seen });
  }
  await setSync(gen, area, { loading: false, error: null });
  return data;
}

/**
 * The cached copy and the validators it came with, when both are there and belong together: the
 * same fetch, and no write of this worker since (after one, the panel's answer is read whole).
 */
async function revalidation<T>(area: SyncArea, item: CacheItem<T>, epoch: number): Promise<{ cached?: T; known?: AreaValidators['reads'] }> {
  const validators = await validatorItems[area].getValue();
  if (!validators || validators.epoch !== epoch) return {};
  const copy = await item.getValue();
  return copy && copy.fetchedAt === validators.fetchedAt ? { cached: copy.data, known: validators.reads } : {};
}

/**
 * Rewards plus the balance, looked up in the design's order (§2). With a cached copy, an answer
 * that did not change (304) keeps its part of it: the rewards, and the balance when it came from
 * the rewards answer or from a values answer that did not change either.
 */
async function rewardsFrom(read: Reader, cached?: RewardsData): Promise<RewardsData> {
  const listed = await read('rewards');
  const rewards = listed?.rewards ?? cached!.rewards;
  if (listed ? listed.balance !== null : cached!.balance.source === 'rewards') {
    return listed ? { rewards, balance: resolveBalance({ rewards: listed.balance, variables: null, stored: null, variableName: settings.balanceVariable }) } : cached!;
  }
  const values = await read('variablesData');
  if (!values) return { rewards, balance: cached!.balance };
  return {
    rewards,
    balance: resolveBalance({ rewards: null, variables: values.balance, stored: values.values, variableName: settings.balanceVariable }),
  };
}

/** Rewards plus the balance, read whole (connecting checks the token with it). */
export function loadRewards(api: PanelApi): Promise<RewardsData> {
  return rewardsFrom(reader(api));
}

export function refreshRewards(force: boolean): Promise<RewardsData> {
  return refresh('rewards', rewardsWriter, force, rewardsFrom);
}

export function refreshHistory(force: boolean): Promise<Redemption[]> {
  return refresh('history', historyWriter, force, async (read, cached) => (await read('redemptions'))?.map(forHistory) ?? cached!);
}

/**
 * A page's "refresh if stale": nothing when the cached copy is fresh, judged from a few bytes (the
 * popup view's rewards, the history's head) rather than from the cache itself. Pages read storage in
 * the same queue as the background, and a freshness check that read megabytes of catalogue or
 * history held their own first reads up (issue 19).
 */
export async function refreshForPage(area: 'rewards' | 'history', force: boolean): Promise<void> {
  if (!force) {
    const at = area === 'rewards' ? (await popupViewItem.getValue())?.rewards?.fetchedAt : (await historyItem.readHead())?.fetchedAt;
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
    const [listed, values] = await Promise.all([read('variablesMeta'), read('variablesData')]);
    if (!listed && !values) return cached!;
    const definitions = listed ?? cached!.definitions;
    // Values arrive in loose shapes (design §3); pages get them in their definition's format (§4),
    // so new definitions need the values as sent, which a 304 does not carry: read them whole.
    const raw = values ?? (await read('variablesData', true))!;
    return { definitions, values: coerceStoredValues(raw.values, definitions) };
  });
}
