import { browser } from 'wxt/browser';
import { compactPoints } from '../../utils/format';
import { goalView, pointsToGoal } from '../../utils/goal-view';
import { accountOf, goalItem, popupViewItem, preferencesItem, rewardsItem, sessionItem, type SessionInfo } from '../../utils/storage-items';

// Firefox's MV2 build has browserAction where Chrome's MV3 has action.
const action = browser.action ?? (browser as unknown as { browserAction: typeof browser.action }).browserAction;

/** What the badge says for the chosen figure; '' for nothing to show. */
async function badgeText(shows: string | undefined, session: SessionInfo): Promise<string> {
  if (shows === 'questions') {
    // Counted with the profile cache into the popup view: nothing before the profile was read, nothing when all are answered.
    const open = (await popupViewItem.getValue())?.profile?.open ?? 0;
    return open > 0 ? compactPoints(open) : '';
  }
  const [rewards, goal] = await Promise.all([rewardsItem.getValue(), goalItem.getValue()]);
  const balance = rewards?.data.balance.points ?? null;
  if (shows !== 'goal') return typeof balance === 'number' ? compactPoints(balance) : '';
  const view = goalView({ goal, account: accountOf(session), rewards: rewards?.data.rewards ?? null, points: balance });
  const points = pointsToGoal(view);
  return points === 0 ? '✓' : typeof points === 'number' ? compactPoints(points) : '';
}

/**
 * The badge shows the balance, the points still to go for the goal ("✓" once affordable), or the
 * open profile questions, compact; empty when not connected, unknown, nothing to count, or turned off.
 */
export async function updateBadge(): Promise<void> {
  const [session, prefs] = await Promise.all([sessionItem.getValue(), preferencesItem.getValue()]);
  const text = session.connected && prefs.badge ? await badgeText(prefs.badgeShows, session) : '';
  await action.setBadgeText({ text });
  if (text) await action.setBadgeBackgroundColor({ color: session.rejected ? '#8a5300' : '#176b35' });
}

export function watchBadge(): void {
  const update = () => void updateBadge().catch(() => undefined);
  rewardsItem.watch(update);
  sessionItem.watch(update);
  preferencesItem.watch(update);
  goalItem.watch(update);
  popupViewItem.watch(update);
}
