import { browser } from 'wxt/browser';
import { compactPoints } from '../../../utils/format';
import { goalView, pointsToGoal } from '../../../utils/goal-view';
import {
  accountOf,
  goalItem,
  popupViewItem,
  preferencesItem,
  sessionItem,
  type SessionInfo,
} from '../../../utils/storage-items';

// Firefox's MV2 build has browserAction where Chrome's MV3 has action.
const action = browser.action ?? (browser as unknown as { browserAction: typeof browser.action }).browserAction;

/**
 * What the badge says for the chosen figure; '' for nothing to show. Read from the popup view, a
 * few kilobytes, never the catalogue: the badge updates at every worker start, which must stay cheap.
 */
async function badgeText(shows: string | undefined, session: SessionInfo): Promise<string> {
  const view = await popupViewItem.getValue();
  if (shows === 'questions') {
    // Counted with the profile cache: nothing before the profile was read, nothing when all are answered.
    const open = view?.profile?.open ?? 0;
    return open > 0 ? compactPoints(open) : '';
  }
  const balance = view?.rewards?.balance.points ?? null;
  if (shows !== 'goal') return typeof balance === 'number' ? compactPoints(balance) : '';
  // The view holds the goal's reward as the catalogue has it (absent: no longer offered).
  const rewards = view?.rewards ? (view.goal?.reward ? [view.goal.reward] : []) : null;
  const goalPoints = pointsToGoal(
    goalView({ goal: await goalItem.getValue(), account: accountOf(session), rewards, points: balance }),
  );
  return goalPoints === 0 ? '✓' : typeof goalPoints === 'number' ? compactPoints(goalPoints) : '';
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

/**
 * At a worker start. The browser keeps the badge while it runs, and it is kept in step with storage
 * (watchBadge) by the worker that writes storage, so a badge that shows something is this one's;
 * a blank one (the browser or the extension just started) is worked out again from storage.
 */
export async function restoreBadge(): Promise<void> {
  if (!(await action.getBadgeText({}))) await updateBadge();
}

export function watchBadge(): void {
  const update = () => void updateBadge().catch(() => undefined);
  sessionItem.watch(update);
  preferencesItem.watch(update);
  goalItem.watch(update);
  popupViewItem.watch(update);
}
