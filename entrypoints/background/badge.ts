import { browser } from 'wxt/browser';
import { compactPoints } from '../../utils/format';
import { goalView, pointsToGoal } from '../../utils/goal-view';
import { accountOf, goalItem, preferencesItem, rewardsItem, sessionItem } from '../../utils/storage-items';

// Firefox's MV2 build has browserAction where Chrome's MV3 has action.
const action = browser.action ?? (browser as unknown as { browserAction: typeof browser.action }).browserAction;

/**
 * The badge shows the balance, or the points still to go for the goal ("✓" once affordable),
 * compact; empty when not connected, unknown, without a goal to count for, or turned off.
 */
export async function updateBadge(): Promise<void> {
  const [session, rewards, prefs, goal] = await Promise.all([sessionItem.getValue(), rewardsItem.getValue(), preferencesItem.getValue(), goalItem.getValue()]);
  const balance = rewards?.data.balance.points ?? null;
  let points = balance;
  if (prefs.badgeShows === 'goal') {
    const view = goalView({ goal, account: accountOf(session), rewards: rewards?.data.rewards ?? null, points: balance, samples: [], now: Date.now() });
    points = pointsToGoal(view);
  }
  const shown = points === 0 && prefs.badgeShows === 'goal' ? '✓' : typeof points === 'number' ? compactPoints(points) : '';
  const text = session.connected && prefs.badge ? shown : '';
  await action.setBadgeText({ text });
  if (text) await action.setBadgeBackgroundColor({ color: session.rejected ? '#8a5300' : '#176b35' });
}

export function watchBadge(): void {
  const update = () => void updateBadge().catch(() => undefined);
  rewardsItem.watch(update);
  sessionItem.watch(update);
  preferencesItem.watch(update);
  goalItem.watch(update);
}
