import { returnsOf } from '../../utils/balance-trend';
import type { Cached } from '../../utils/cached';
import { nextReward } from '../../utils/next-reward';
import { completeness } from '../../utils/profile-completeness';
import { groupRewards, kindCounts, listingKey, sortGroups } from '../../utils/reward-groups';
import { latestRedemption } from '../../utils/reward-view';
import {
  goalItem,
  historyItem,
  popupViewItem,
  profileItem,
  rewardHtmlItem,
  rewardsItem,
  type Goal,
  type PopupView,
  type ProfileData,
  type ProfileSummary,
  type RewardsData,
} from '../../utils/storage-items';
import { splitHtml, withHtml, withoutHtml } from '../../utils/reward-html';
import type { Redemption, Reward } from '../../utils/types';
import { activeCredentials, put, putPages, update, type Get, type Put, type SessionId } from './store/store';
import { alongStored } from './store/stored-reads';

/** Rows (brands) the view holds: a popup shows about five; the rest of the first page follows with the catalogue. */
export const VIEW_ROWS = 10;
/** A brand's other values the view holds at most, so it stays a few KiB whatever the catalogue holds. */
export const VIEW_VALUES = 8;

/** A brand's other value as the view keeps it: what its choice, Redeem and details need, not its images. */
function slim(reward: Reward): Reward {
  const {
    image_urls: _images,
    utid: _utid,
    reward_name: _name,
    brand_key: _key,
    ...meta
  } = withoutHtml(reward).meta_data;
  return { ...reward, meta_data: meta };
}

/**
 * The values of a brand the view holds: its first {@link VIEW_VALUES} + 1 distinct values (rewards
 * alike in value, cost and countries count once: the picker shows them once), and every one up to
 * `next` when the brand holds it.
 */
function keptValues(rewards: readonly Reward[], next: Reward | undefined): Reward[] {
  const upTo = next ? rewards.indexOf(next) : -1;
  const seen = new Set<string>();
  return rewards.filter((reward, i) => {
    seen.add(listingKey(reward));
    return i <= upTo || seen.size <= VIEW_VALUES + 1;
  });
}

/**
 * The popup's first rows, by brand (not per denomination), its size and its kinds. Grouping and sorting the
 * whole catalogue happens here, when it is stored, never in the popup on opening, where it would delay the first frame.
 */
export function rewardsPart(cache: Cached<RewardsData> | null): PopupView['rewards'] {
  if (!cache) return null;
  const { rewards, balance } = cache.data;
  const points = balance.points;
  const groups = sortGroups(groupRewards(rewards), points, 'afford');
  const next = nextReward(rewards, points)?.reward;
  // A brand's cheapest values first (its tile starts on the cheapest); the popup reads the rest when
  // asked. One source for the header and the picker, so they agree: the brand of the header's next
  // reward keeps every value up to it, so its picker never stops short of what the header names.
  const first = groups.slice(0, VIEW_ROWS).flatMap((g) => {
    const kept = keptValues(g.rewards, next);
    return [withoutHtml(kept[0]!), ...kept.slice(1).map(slim)];
  });
  return {
    balance,
    fetchedAt: cache.fetchedAt,
    total: rewards.length,
    brands: groups.length,
    kinds: kindCounts(rewards),
    first,
    next: next ? withoutHtml(next) : null,
  };
}

/**
 * The goal's reward as the catalogue has it (null: no longer offered), so the goal header is in the
 * popup's first frame without the catalogue (nothing moves after it).
 */
export function goalPart(goal: Goal | null, reward: Reward | null | undefined): PopupView['goal'] {
  return goal ? { rewardId: goal.rewardId, reward: reward ? withoutHtml(reward) : null } : null;
}

function goalOf(cache: Cached<RewardsData> | null, goal: Goal | null): PopupView['goal'] {
  return cache
    ? goalPart(
        goal,
        cache.data.rewards.find((r) => r.id === goal?.rewardId),
      )
    : null;
}

export function latestPart(cache: Cached<Redemption[]> | null): Redemption | null {
  return latestRedemption(cache?.data);
}

/** The popup's "N profile questions open" line and the badge's count, so neither reads the profile. */
export function profilePart(cache: Cached<ProfileData> | null): ProfileSummary | null {
  if (!cache) return null;
  const { open, total } = completeness(cache.data.definitions, cache.data.values, cache.data.unreadable);
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
  return put(popupViewItem, {
    rewards: null,
    latest: null,
    profile: null,
    goal: null,
    ...get(popupViewItem),
    ...patch,
  });
}

/**
 * The catalogue without its HTML, which goes to its own item (each text once), so the catalogue the
 * popup reads after its first frame is a third smaller and no read but the details' parses it.
 */
export function rewardsPuts(cache: Cached<RewardsData>, goal: Goal | null): { puts: Put[]; view: Partial<PopupView> } {
  const { rewards, html } = splitHtml(cache.data.rewards);
  const plain = { ...cache, data: { ...cache.data, rewards } };
  return {
    puts: [put(rewardsItem, plain), put(rewardHtmlItem, html)],
    view: { rewards: rewardsPart(plain), goal: goalOf(plain, goal) },
  };
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
  store: (sid, cache, ...extra) => {
    // What the read itself is evidence for (the records of repeats it still shows: redemption/)
    // is written in this same turn, so no stopped worker leaves the history stored without it.
    const along = alongStored('history', cache.data);
    return update(sid, [popupViewItem, historyItem.head, ...along.items], (get) => [
      ...putPages(historyItem, cache, get(historyItem.head)),
      // The refunds too: the popup's earning figure leaves the points they gave back out: a refund is not earning.
      viewPut(get, { latest: latestPart(cache), returns: returnsOf(cache.data) }),
      ...along.puts(get),
      ...extra,
    ]);
  },
};

/** The profile cache, with the popup view's count of open questions. */
export const profileWriter: AreaCache<ProfileData> = {
  getValue: () => profileItem.getValue(),
  store: (sid, cache, ...extra) =>
    update(sid, [popupViewItem], (get) => [
      put(profileItem, cache),
      viewPut(get, { profile: profilePart(cache) }),
      ...extra,
    ]),
};

/**
 * At worker start: a view for caches written before there was one, or before it had the profile's
 * part or brands (the updates that brought them).
 */
export async function ensurePopupView(): Promise<void> {
  // Worker start is on the popup's path: the caches are read only when the view needs them.
  // A view written before rewards were grouped by brand has its first rows one reward each.
  const outdated = (view: PopupView | null) =>
    !view || view.profile === undefined || (!!view.rewards && view.rewards.brands === undefined);
  if (!outdated(await popupViewItem.getValue())) return;
  const credentials = await activeCredentials();
  if (!credentials) return;
  await update(credentials.session, [popupViewItem, rewardsItem, historyItem, profileItem, goalItem], (get) => {
    const view = get(popupViewItem);
    if (!outdated(view)) return [];
    const profile = view && view.profile !== undefined ? view.profile : profilePart(get(profileItem));
    if (view)
      return [
        put(popupViewItem, {
          ...view,
          profile,
          rewards: view.rewards?.brands === undefined ? rewardsPart(get(rewardsItem)) : view.rewards,
        }),
      ];
    const [rewards, history] = [get(rewardsItem), get(historyItem)];
    if (!rewards && !history && !profile) return [];
    return [
      put(popupViewItem, {
        rewards: rewardsPart(rewards),
        latest: latestPart(history),
        profile,
        goal: goalOf(rewards, get(goalItem)),
      }),
    ];
  });
}
