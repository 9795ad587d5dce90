import { browser } from 'wxt/browser';
import { goalView } from '../../../utils/goal-view';
import { answerHash } from '../../../utils/profile-link';
import { serialQueue } from '../../../utils/serial-queue';
import {
  accountOf,
  goalItem,
  notifyStateItem,
  rewardsItem,
  sessionItem,
  type RewardsData,
} from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import { goalReached, isHashedPart, redemptionChanges } from './notify-events';
import { writeAndNotify } from './notify-tell';
import type { SessionId } from '../store/store';
import { onStored } from '../store/stored-reads';

export { NOTIFICATION_PERMISSION, words } from './notify-tell';

/** One at a time, in the order the reads landed; {@link notificationsIdle} waits for them. */
const queue = serialQueue();
const serial = queue.run;

/** A history read of session `sid`: the first of a session only records the states. */
export function onHistory(sid: SessionId, history: readonly Redemption[]): Promise<void> {
  return serial(() =>
    writeAndNotify(sid, [], (get) => {
      const { states, events } = redemptionChanges(get(notifyStateItem).states, history);
      return { state: { states }, events };
    }),
  );
}

/** A rewards read of session `sid`: whether the goal became affordable. */
export function onRewards(sid: SessionId, rewards: RewardsData): Promise<void> {
  return goalCheck(sid, rewards, true);
}

/**
 * A goal just set: whether the cached balance already covers it is where it starts from, so the
 * next read that reaches it is told (and one that already could is not).
 */
export function onGoalSet(sid: SessionId): Promise<void> {
  return goalCheck(sid, null, false);
}

/**
 * Where the goal stands after `rewards` (null: the cached rewards, read in the same turn, so a
 * balance a read recorded meanwhile is never overwritten by an older one).
 */
function goalCheck(sid: SessionId, read: RewardsData | null, announce: boolean): Promise<void> {
  return serial(() =>
    // The cached rewards (a large item) are read only when no read came with the call.
    writeAndNotify(sid, read ? [sessionItem, goalItem] : [sessionItem, goalItem, rewardsItem], (get) => {
      const rewards = read ?? get(rewardsItem)?.data;
      if (!rewards) return null;
      const [session, goal] = [get(sessionItem), get(goalItem)];
      const view = goalView({
        goal,
        account: accountOf(session),
        rewards: rewards.rewards,
        points: rewards.balance.points,
      });
      const now =
        goal && (view.kind === 'saving' || view.kind === 'affordable')
          ? {
              key: `${goal.rewardId}@${goal.setAt}`,
              affordable: view.kind === 'affordable',
              rewardName: view.reward.name,
            }
          : null;
      // A read that cannot tell where a set goal stands (the balance unknown, its reward not listed
      // or not offered) leaves where it stood: the next read that can tell compares with that.
      if (goal && !now && view.kind !== 'none') return null;
      const events = announce ? goalReached(get(notifyStateItem).goal, now) : [];
      return { state: { goal: now && { key: now.key, affordable: now.affordable } }, events };
    }),
  );
}

/** Resolves once every read seen so far has been handled (tests wait on it rather than on time). */
export function notificationsIdle(): Promise<void> {
  return queue.idle();
}

/** Where a notification's click leads: the connection to renew, the new question to answer, or the history. */
export function clickTarget(id: string): string {
  if (id.startsWith('rejected:')) return '#connection';
  if (id.startsWith('question:')) {
    // A name too long for an id was hashed into it: the answer flow then starts at the first open question.
    const name = id.slice('question:'.length);
    return answerHash(isHashedPart(name) ? null : name);
  }
  return '#history';
}

/** Clicking a notification opens where the panelist acts on it. */
function onClicked(id: string): void {
  const target = clickTarget(id);
  void browser.tabs.create({ url: browser.runtime.getURL(`/options.html${target}`) }).catch(() => undefined);
  void browser.notifications?.clear(id).catch(() => undefined);
}

function listenForClicks(): void {
  const api = browser.notifications;
  if (api && !api.onClicked.hasListener(onClicked)) api.onClicked.addListener(onClicked);
}

/**
 * Registered synchronously at worker start; the click listener also once the permission is granted.
 * Outcomes that settle and a token the panel stops accepting are told where they are written
 * (redemption/service.ts, rejected.ts), in the same write.
 */
export function watchNotifications(): () => void {
  const stopStored = onStored((area, data, sid) => {
    if (area === 'history') void onHistory(sid, data as Redemption[]).catch(() => undefined);
    if (area === 'rewards') void onRewards(sid, data as RewardsData).catch(() => undefined);
  });
  listenForClicks();
  browser.permissions.onAdded.addListener(listenForClicks);
  return () => {
    stopStored();
    browser.permissions.onAdded.removeListener(listenForClicks);
  };
}
