import type { PanelApi } from '../../utils/api/client';
import { resolveBalance } from '../../utils/balance';
import type { AppError } from '../../utils/errors';
import { settings } from '../../utils/settings';
import { coerceStoredValues } from '../../utils/stored-values';
import {
  profileItem,
  syncItem,
  type Cached,
  type ProfileData,
  type RewardsData,
  type SyncArea,
  type SyncState,
} from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentApi, staleSession } from './api';
import { epochOf, isCurrent } from './generation';
import { historyWriter, rewardsWriter } from './popup-view';
import { toAppError } from './result';

/** Data younger than this is served from the cache when a page opens (stale-while-revalidate). */
export const FRESH_MS = 60_000;

interface Running {
  promise: Promise<unknown>;
  gen: number;
  epoch: number;
}

const inFlight = new Map<SyncArea, Running>();

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
async function refresh<T>(
  area: SyncArea,
  item: { getValue(): Promise<Cached<T> | null>; setValue(v: Cached<T>): Promise<void> },
  force: boolean,
  load: (api: PanelApi) => Promise<T>,
): Promise<T> {
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

async function fetchArea<T>(
  area: SyncArea,
  item: { setValue(v: Cached<T>): Promise<void> },
  api: PanelApi,
  gen: number,
  epoch: number,
  load: (api: PanelApi) => Promise<T>,
): Promise<T> {
  await setSync(gen, area, { loading: true });
  let data: T;
  try {
    data = await load(api);
  } catch (err) {
    if (!isCurrent(gen)) throw staleSession();
    await setSync(gen, area, { loading: false, error: toAppError(err) });
    throw err;
  }
  if (!isCurrent(gen)) throw staleSession();
  // A write landed while this read was out: its data may predate it, and the write's own
  // follow-up read is the one to keep.
  if (epochOf(area) === epoch) await item.setValue({ data, fetchedAt: Date.now() });
  await setSync(gen, area, { loading: false, error: null });
  return data;
}

/** Rewards plus the balance, looked up in the design's order (§2). */
export async function loadRewards(api: PanelApi): Promise<RewardsData> {
  const { rewards, balance } = await api.listRewards();
  if (balance !== null) return { rewards, balance: resolveBalance({ rewards: balance, variables: null, stored: null, variableName: settings.balanceVariable }) };
  const read = await api.readValues();
  return {
    rewards,
    balance: resolveBalance({ rewards: null, variables: read.balance, stored: read.values, variableName: settings.balanceVariable }),
  };
}

export function refreshRewards(force: boolean): Promise<RewardsData> {
  return refresh('rewards', rewardsWriter, force, loadRewards);
}

export function refreshHistory(force: boolean): Promise<Redemption[]> {
  return refresh('history', historyWriter, force, async (api) => (await api.listRedemptions()).map(forHistory));
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
  return refresh('profile', profileItem, force, async (api) => {
    const [definitions, read] = await Promise.all([api.listVariables(), api.readValues()]);
    // Values arrive in loose shapes (design §3); pages get them in their definition's format (§4).
    return { definitions, values: coerceStoredValues(read.values, definitions) };
  });
}
