import { nextReward } from '../../components/popup/next-reward';
import { latestRedemption, sortRewards } from '../../utils/reward-view';
import {
  historyItem,
  popupViewItem,
  rewardsItem,
  type Cached,
  type PopupView,
  type RewardsData,
} from '../../utils/storage-items';
import type { Redemption, Reward } from '../../utils/types';

/** Rows the view holds: a popup shows about five; the rest of the first page follows with the catalogue. */
export const VIEW_ROWS = 10;

/** Provider HTML (terms, descriptions) is most of a reward's size and only the details show it. */
function withoutHtml(reward: Reward): Reward {
  const { terms, disclaimer, description, short_description, redemption_instructions, ...meta } = reward.meta_data ?? {};
  return { ...reward, meta_data: meta };
}

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

let writes: Promise<void> = Promise.resolve();

/**
 * One update at a time, in the order the caches changed, each from the value that change stored:
 * the view follows the caches, so it never holds data they no longer hold (another session's,
 * once the disconnect removed them). It goes when both parts are gone.
 */
function update(patch: Partial<PopupView>): void {
  writes = writes
    .then(async () => {
      const view = { rewards: null, latest: null, ...(await popupViewItem.getValue()), ...patch };
      if (!view.rewards && !view.latest) await popupViewItem.removeValue();
      else await popupViewItem.setValue(view);
    })
    .catch(() => undefined); // a full storage: the popup falls back to the caches themselves
}

/** Keeps the popup view in step with the rewards and history caches; builds it once if missing (an update). */
export function watchPopupView(): void {
  rewardsItem.watch((cache) => update({ rewards: rewardsPart(cache) }));
  historyItem.watch((cache) => update({ latest: latestPart(cache) }));
  writes = writes.then(async () => {
    if (await popupViewItem.getValue()) return;
    const [rewards, history] = await Promise.all([rewardsItem.getValue(), historyItem.getValue()]);
    if (rewards || history) await popupViewItem.setValue({ rewards: rewardsPart(rewards), latest: latestPart(history) });
  }).catch(() => undefined);
}
