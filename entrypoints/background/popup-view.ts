import { nextReward } from '../../utils/next-reward';
import { latestRedemption, sortRewards } from '../../utils/reward-view';
import {
  historyItem,
  popupViewItem,
  rewardHtmlItem,
  rewardsItem,
  type Cached,
  type PopupView,
  type RewardsData,
} from '../../utils/storage-items';
import { splitHtml, withHtml, withoutHtml } from '../../utils/reward-html';
import type { Redemption } from '../../utils/types';
import { activeCredentials, put, update, type Get, type Put, type SessionId } from './store';

/** Rows the view holds: a popup shows about five; the rest of the first page follows with the catalogue. */
export const VIEW_ROWS = 10;

export function rewardsPart(cache: Cached<RewardsData> | null): PopupView['rewards'] {
  if (!cache) return null;
  const { rewards, balance } = cache.data;
  const points = balance.points;
  // Only the first rows need sorting; a full sort of thousands here is what the popup no longer does at open.
  const first = sortRewards(rewards, points).slice(0, VIEW_ROWS).map(withoutHtml);
  const next = nextReward(rewards, points)?.reward;
  return { balance, fetchedAt: cache.fetchedAt, total: rewards.length, first, next: next ? withoutHtml(next) : null };
}

export function latestPart(cache: Cached<Redemption[]> | null): Redemption | null {
  return latestRedemption(cache?.data);
}

/** A cache as sync.ts reads and stores it: with the puts that go with it (the popup view's part). */
export interface AreaCache<T> {
  getValue(): Promise<Cached<T> | null>;
  /**
   * Stores `cache` for session `sid` with `extra` (its validators), in one `storage.local.set`
   * with its part of the popup view: the view never shows what its cache does not hold.
   */
  store(sid: SessionId, cache: Cached<T>, ...extra: Put[]): Promise<void>;
}

/** The popup view with `patch` merged into it as it is in the same turn. */
function viewPut(get: Get, patch: Partial<PopupView>): Put {
  return put(popupViewItem, { rewards: null, latest: null, ...get(popupViewItem), ...patch });
}

/**
 * The catalogue without its HTML, which goes to its own item (each text once), so the catalogue the
 * popup reads after its first frame is a third smaller and no read but the details' parses it.
 */
export function rewardsPuts(cache: Cached<RewardsData>): { puts: Put[]; view: Partial<PopupView> } {
  const { rewards, html } = splitHtml(cache.data.rewards);
  const plain = { ...cache, data: { ...cache.data, rewards } };
  return { puts: [put(rewardsItem, plain), put(rewardHtmlItem, html)], view: { rewards: rewardsPart(plain) } };
}

export const rewardsWriter: AreaCache<RewardsData> = {
  // Read back whole, HTML included, so a cache kept as it is (a 304) is written back as it was.
  getValue: async () => {
    const [cache, html] = await Promise.all([rewardsItem.getValue(), rewardHtmlItem.getValue()]);
    return cache && { ...cache, data: { ...cache.data, rewards: cache.data.rewards.map((r) => withHtml(r, html)) } };
  },
  store: (sid, cache, ...extra) => {
    const { puts, view } = rewardsPuts(cache);
    return update(sid, [popupViewItem], (get) => [...puts, viewPut(get, view), ...extra]);
  },
};

/** The history cache, together with the latest redemption the popup shows. */
export const historyWriter: AreaCache<Redemption[]> = {
  getValue: () => historyItem.getValue(),
  store: (sid, cache, ...extra) =>
    update(sid, [popupViewItem], (get) => [put(historyItem, cache), viewPut(get, { latest: latestPart(cache) }), ...extra]),
};

/** At worker start: a view for caches written before there was one (the update that brought it). */
export async function ensurePopupView(): Promise<void> {
  const credentials = await activeCredentials();
  if (!credentials) return;
  await update(credentials.session, [popupViewItem, rewardsItem, historyItem], (get) => {
    const [rewards, history] = [get(rewardsItem), get(historyItem)];
    if (get(popupViewItem) || (!rewards && !history)) return [];
    return [put(popupViewItem, { rewards: rewardsPart(rewards), latest: latestPart(history) })];
  });
}
