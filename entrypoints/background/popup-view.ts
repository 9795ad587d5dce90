import { browser } from 'wxt/browser';
import { nextReward } from '../../utils/next-reward';
import { completeness } from '../../utils/profile-completeness';
import { groupRewards, kindCounts, sortGroups } from '../../utils/reward-groups';
import { latestRedemption } from '../../utils/reward-view';
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
import { currentGeneration, isCurrent } from './generation';

/** Rows (brands) the view holds: a popup shows about five; the rest of the first page follows with the catalogue. */
export const VIEW_ROWS = 10;
/** A brand's other values the view holds at most, so it stays a few KiB whatever the catalogue holds. */
export const VIEW_VALUES = 8;

/** A brand's other value as the view keeps it: what its choice, Redeem and details need, not its images. */
function slim(reward: Reward): Reward {
  const { image_urls: _images, utid: _utid, reward_name: _name, brand_key: _key, ...meta } = withoutHtml(reward).meta_data;
  return { ...reward, meta_data: meta };
}

/**
 * The popup's first rows, by brand (issue 21), its size and its kinds. Grouping and sorting the
 * whole catalogue happens here, when it is stored, never in the popup on opening (issue 19).
 */
export function rewardsPart(cache: Cached<RewardsData> | null): PopupView['rewards'] {
  if (!cache) return null;
  const { rewards, balance } = cache.data;
  const points = balance.points;
  const groups = sortGroups(groupRewards(rewards), points, 'afford');
  // A brand's cheapest values first (its tile starts on the cheapest); the popup reads the rest when asked.
  const first = groups.slice(0, VIEW_ROWS).flatMap((g) => [withoutHtml(g.rewards[0]!), ...g.rewards.slice(1, VIEW_VALUES + 1).map(slim)]);
  const next = nextReward(rewards, points)?.reward;
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

let writes: Promise<void> = Promise.resolve();

/**
 * A cache and the popup view made from it, written in one `storage.local.set`: the view never
 * shows what its cache does not hold. Writes are queued (each merges its part into the view the
 * last one left) and dropped when the session changed meanwhile, as the cache write itself would be.
 */
type Plan = { set: Record<string, unknown>; remove?: string[] };

function writeBoth(items: Record<string, unknown> | (() => Promise<Plan>), patch: Partial<PopupView> | (() => Promise<Partial<PopupView>>)): Promise<void> {
  const gen = currentGeneration();
  const write = writes.then(async () => {
    if (!isCurrent(gen)) return;
    const { set, remove } = typeof items === 'function' ? await items() : { set: items };
    const part = typeof patch === 'function' ? await patch() : patch;
    const view: PopupView = { rewards: null, latest: null, profile: null, goal: null, ...(await popupViewItem.getValue()), ...part };
    if (!isCurrent(gen)) return;
    await browser.storage.local.set({ ...set, [popupViewItem.key]: view });
    // Pages the previous copy had beyond this one's: nothing reads them once the head is written.
    if (remove?.length) await browser.storage.local.remove(remove);
  });
  writes = write.catch(() => undefined);
  return write;
}

/** The rewards cache as sync.ts and session.ts write it: together with its part of the popup view. */
export const rewardsWriter = {
  // Read back whole, HTML included, so a cache kept as it is (a 304) is written back as it was.
  getValue: async (): Promise<Cached<RewardsData> | null> => {
    const [cache, html] = await Promise.all([rewardsItem.getValue(), rewardHtmlItem.getValue()]);
    return cache && { ...cache, data: { ...cache.data, rewards: cache.data.rewards.map((r) => withHtml(r, html)) } };
  },
  // The HTML goes to its own item (each text once), so the catalogue the popup reads after its first
  // frame is a third smaller and no read but the details' parses it.
  setValue: (cache: Cached<RewardsData>) => {
    const { rewards, html } = splitHtml(cache.data.rewards);
    const plain = { ...cache, data: { ...cache.data, rewards } };
    return writeBoth({ [rewardsItem.key]: plain, [rewardHtmlItem.key]: html }, async () => ({
      rewards: rewardsPart(plain),
      goal: goalOf(plain, await goalItem.getValue()),
    }));
  },
};

/** The history cache (in its pages, newest first), together with the latest redemption the popup shows. */
export const historyWriter = {
  getValue: () => historyItem.getValue(),
  setValue: (cache: Cached<Redemption[]>) => writeBoth(() => historyItem.plan(cache), { latest: latestPart(cache) }),
};

/** The profile cache, with the popup view's count of open questions. */
export const profileWriter = {
  getValue: () => profileItem.getValue(),
  setValue: (cache: Cached<ProfileData>) => writeBoth({ [profileItem.key]: cache }, { profile: profilePart(cache) }),
};

/** A new goal, with its reward in the popup view, in one write. */
export function writeGoal(goal: Goal, reward: Reward): Promise<void> {
  return writeBoth({ [goalItem.key]: goal }, { goal: goalPart(goal, reward) });
}

/**
 * At worker start: a view for caches written before there was one, or before it had the profile's
 * part or brands (the updates that brought them).
 */
export function ensurePopupView(): Promise<void> {
  const gen = currentGeneration();
  const write = writes.then(async () => {
    const view = await popupViewItem.getValue();
    // Brands came with issue 21: a view without them has its first rows one reward each.
    const ungrouped = !!view?.rewards && view.rewards.brands === undefined;
    if (view && view.profile !== undefined && !ungrouped) return;
    if (view) {
      const profile = view.profile === undefined ? profilePart(await profileItem.getValue()) : view.profile;
      const rewards = ungrouped ? rewardsPart(await rewardsItem.getValue()) : view.rewards;
      if (isCurrent(gen)) await popupViewItem.setValue({ ...view, profile, rewards });
      return;
    }
    const profile = profilePart(await profileItem.getValue());
    const [rewards, history, goal] = await Promise.all([rewardsItem.getValue(), historyItem.getValue(), goalItem.getValue()]);
    if (!isCurrent(gen) || (!rewards && !history && !profile)) return;
    await popupViewItem.setValue({ rewards: rewardsPart(rewards), latest: latestPart(history), profile, goal: goalOf(rewards, goal) });
  });
  writes = write.catch(() => undefined);
  return write;
}
