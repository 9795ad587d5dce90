import { nextReward } from '../../utils/next-reward';
import { completeness } from '../../utils/profile-completeness';
import { latestRedemption, sortRewards } from '../../utils/reward-view';
import {
  goalItem,
  historyItem,
  popupViewItem,
  profileItem,
  rewardHtmlItem,
  rewardsItem,
  type Cached,
  type Goal,
  type PopupView,
  type ProfileData,
  type ProfileSummary,
  type RewardsData,
} from '../../utils/storage-items';
import { splitHtml, withHtml, withoutHtml } from '../../utils/reward-html';
import type { Redemption, Reward } from '../../utils/types';
import { activeCredentials, put, putPages, update, type Get, type Put, type SessionId } from './store';

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

/**
 * The goal's reward as the catalogue has it (null: no longer offered), so the goal header is in the
 * popup's first frame without the catalogue (issue 19: nothing moves after it).
 */
export function goalPart(goal: Goal | null, reward: Reward | null | undefined): PopupView['goal'] {
  return goal ? { rewardId: goal.rewardId, reward: reward ? withoutHtml(reward) : null } : null;
}

function goalOf(cache: Cached<RewardsData> | null, goal: Goal | null): PopupView['goal'] {
  return cache ? goalPart(goal, cache.data.rewards.find((r) => r.id === goal?.rewardId)) : null;
}

export function latestPart(cache: Cached<Redemption[]> | null): Redemption | null {
  return latestRedemption(cache?.data);
}

/** The popup's "N profile questions open" line and the badge's count (issue 20), so neither reads the profile. */
export function profilePart(cache: Cached<ProfileData> | null): ProfileSummary | null {
  if (!cache) return null;
  const { open, total } = completeness(cache.data.definitions, cache.data.values);
  return { open: open.length, total, first: open[0] ?? null, fetchedAt: cache.fetchedAt };
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
export function viewPut(get: Get, patch: Partial<PopupView>): Put {
  return put(popupViewItem, { rewards: null, latest: null, profile: null, goal: null, ...get(popupViewItem), ...patch });
}

/**
 * The catalogue without its HTML, which goes to its own item (each text once), so the catalogue the
 * popup reads after its first frame is a third smaller and no read but the details' parses it.
 */
export function rewardsPuts(cache: Cached<RewardsData>, goal: Goal | null): { puts: Put[]; view: Partial<PopupView> } {
  const { rewards, html } = splitHtml(cache.data.rewards);
  const plain = { ...cache, data: { ...cache.data, rewards } };
  return { puts: [put(rewardsItem, plain), put(rewardHtmlItem, html)], view: { rewards: rewardsPart(plain), goal: goalOf(plain, goal) } };
}

export const rewardsWriter: AreaCache<RewardsData> = {
  // Read back whole, HTML included, so a cache kept as it is (a 304) is written back as it was.
  getValue: async () => {
    const [cache, html] = await Promise.all([rewardsItem.getValue(), rewardHtmlItem.getValue()]);
    return cache && { ...cache, data: { ...cache.data, rewards: cache.data.rewards.map((r) => withHtml(r, html)) } };
  },
  store: (sid, cache, ...extra) =>
    update(sid, [popupViewItem, goalItem], (get) => {
      const { puts, view } = rewardsPuts(cache, get(goalItem));
      return [...puts, viewPut(get, view), ...extra];
    }),
};

/** The history cache (in its pages, newest first), together with the latest redemption the popup shows. */
export const historyWriter: AreaCache<Redemption[]> = {
  getValue: () => historyItem.getValue(),
  store: (sid, cache, ...extra) =>
    update(sid, [popupViewItem, historyItem.head], (get) => [
      ...putPages(historyItem, cache, get(historyItem.head)),
      viewPut(get, { latest: latestPart(cache) }),
      ...extra,
    ]),
};

/** The profile cache, with the popup view's count of open questions. */
export const profileWriter: AreaCache<ProfileData> = {
  getValue: () => profileItem.getValue(),
  store: (sid, cache, ...extra) => update(sid, [popupViewItem], (get) => [put(profileItem, cache), viewPut(get, { profile: profilePart(cache) }), ...extra]),
};

/**
 * At worker start: a view for caches written before there was one, or before it had the profile's
 * part (the updates that brought them).
 */
export async function ensurePopupView(): Promise<void> {
  // Worker start is on the popup's path (issue 19): the caches are read only when the view needs them.
  const current = await popupViewItem.getValue();
  if (current && current.profile !== undefined) return;
  const credentials = await activeCredentials();
  if (!credentials) return;
  await update(credentials.session, [popupViewItem, rewardsItem, historyItem, profileItem, goalItem], (get) => {
    const view = get(popupViewItem);
    if (view && view.profile !== undefined) return [];
    const profile = profilePart(get(profileItem));
    if (view) return [put(popupViewItem, { ...view, profile })];
    const [rewards, history] = [get(rewardsItem), get(historyItem)];
    if (!rewards && !history && !profile) return [];
    return [put(popupViewItem, { rewards: rewardsPart(rewards), latest: latestPart(history), profile, goal: goalOf(rewards, get(goalItem)) })];
  });
}
