import type { PanelApi } from '../../utils/api/client';
import { resolveBalance } from '../../utils/balance';
import { settings } from '../../utils/settings';
import { coerceStoredValues } from '../../utils/stored-values';
import {
  historyItem,
  profileItem,
  rewardsItem,
  syncItem,
  type Cached,
  type ProfileData,
  type RewardsData,
  type SyncArea,
} from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentApi } from './api';
import { toAppError } from './result';

/** Data younger than this is served from the cache when a page opens (stale-while-revalidate). */
export const FRESH_MS = 60_000;

const inFlight = new Map<SyncArea, Promise<unknown>>();

let syncWrites: Promise<void> = Promise.resolve();

/**
 * Areas refresh side by side but share one item: each update is a read-modify-write, so they are
 * queued, or one area's write would put back another's stale `loading` flag.
 */
export function setSync(area: SyncArea, patch: Partial<{ loading: boolean; error: ReturnType<typeof toAppError> | null }>): Promise<void> {
  syncWrites = syncWrites.then(async () => {
    const all = await syncItem.getValue();
    await syncItem.setValue({ ...all, [area]: { ...all[area], ...patch, attemptedAt: Date.now() } });
  });
  return syncWrites;
}

/**
 * One refresh of an area at a time: callers arriving while a fetch runs share it, so opening the
 * popup twice (or popup + alarm) makes one request, not two.
 */
async function refresh<T>(
  area: SyncArea,
  item: { getValue(): Promise<Cached<T> | null>; setValue(v: Cached<T>): Promise<void> },
  force: boolean,
  load: () => Promise<T>,
): Promise<T> {
  const cached = await item.getValue();
  if (!force && cached && Date.now() - cached.fetchedAt < FRESH_MS) return cached.data;
  const running = inFlight.get(area);
  if (running) return running as Promise<T>;
  const work = (async () => {
    await setSync(area, { loading: true });
    try {
      const data = await load();
      await item.setValue({ data, fetchedAt: Date.now() });
      await setSync(area, { loading: false, error: null });
      return data;
    } catch (err) {
      await setSync(area, { loading: false, error: toAppError(err) });
      throw err;
    }
  })();
  inFlight.set(area, work);
  try {
    return await work;
  } finally {
    inFlight.delete(area);
  }
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
  return refresh('rewards', rewardsItem, force, async () => loadRewards(await currentApi()));
}

export function refreshHistory(force: boolean): Promise<Redemption[]> {
  return refresh('history', historyItem, force, async () => (await currentApi()).listRedemptions().then((all) => all.map(forHistory)));
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
  return refresh('profile', profileItem, force, async () => {
    const api = await currentApi();
    const [definitions, read] = await Promise.all([api.listVariables(), api.readValues()]);
    // Values arrive in loose shapes (design §3); pages get them in their definition's format (§4).
    return { definitions, values: coerceStoredValues(read.values, definitions) };
  });
}
