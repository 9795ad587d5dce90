import { browser } from 'wxt/browser';
import { popupViewItem, preferencesItem, sessionItem } from '../../../utils/storage-items';
import { historyNeedsRefresh, profileNeedsRefresh } from './refresh-policy';
import { refreshHistory, refreshProfile, refreshRewards } from '../sync/sync';

export const REFRESH_ALARM = 'refresh';

/** An alarm this much past its time fell due while the browser was closed. */
const LATE_MS = 60_000;

/**
 * Refreshes run on one-shot alarms (the worker may be stopped between runs), each re-armed with a
 * random 0.75–1.25 × the interval, so a whole panel's installs never call the server in step.
 */
export async function scheduleRefresh(): Promise<void> {
  const { refreshMinutes } = await preferencesItem.getValue();
  await browser.alarms.clear(REFRESH_ALARM);
  if (refreshMinutes <= 0) return;
  await browser.alarms.create(REFRESH_ALARM, { delayInMinutes: refreshMinutes * (0.75 + Math.random() * 0.5) });
}

export async function ensureRefreshScheduled(): Promise<void> {
  const existing = await browser.alarms.get(REFRESH_ALARM);
  if (!existing) await scheduleRefresh();
}

export async function onRefreshAlarm(alarm: { name: string; scheduledTime: number }, now = Date.now()): Promise<void> {
  if (alarm.name !== REFRESH_ALARM) return;
  if (now - alarm.scheduledTime > LATE_MS) {
    // Overdue alarms all fire as browsers start (mornings, after updates): spread those over
    // the next ten minutes instead of refreshing at once.
    await browser.alarms.create(REFRESH_ALARM, { delayInMinutes: 1 + Math.random() * 9 });
    return;
  }
  await scheduleRefresh();
  const session = await sessionItem.getValue();
  if (!session.connected || session.rejected) return;
  // Nobody looks at the badge of a locked or untouched machine; coming back brings the refresh forward.
  if (await panelistAway()) return;
  const [history, profile] = await Promise.all([historyNeedsRefresh(), profileNeedsRefresh(now)]);
  await Promise.allSettled([
    refreshRewards(true),
    ...(history ? [refreshHistory(true)] : []),
    ...(profile ? [refreshProfile(true)] : []),
  ]);
}

/** No input for this long, or a locked screen, counts as away (the idle API's own measure). */
export const AWAY_AFTER_SECONDS = 10 * 60;

async function panelistAway(): Promise<boolean> {
  try {
    return (await browser.idle.queryState(AWAY_AFTER_SECONDS)) !== 'active';
  } catch {
    // Without the idle API (or a browser that will not say), refresh as before.
    return false;
  }
}

/**
 * Back at the machine after refreshes were skipped: the next one comes within a couple of minutes
 * (spread, as many panelists come back at 9:00) instead of at the end of a full interval.
 */
export async function onIdleStateChanged(state: string, now = Date.now()): Promise<void> {
  if (state !== 'active') return;
  // The popup view says when the catalogue was read, in a few KiB; the catalogue itself may be megabytes.
  const [{ refreshMinutes }, view, session] = await Promise.all([
    preferencesItem.getValue(),
    popupViewItem.getValue(),
    sessionItem.getValue(),
  ]);
  if (refreshMinutes <= 0 || !session.connected || session.rejected) return;
  const fetchedAt = view?.rewards?.fetchedAt;
  if (fetchedAt !== undefined && now - fetchedAt < refreshMinutes * 60_000) return;
  const soon = now + (0.5 + Math.random() * 1.5) * 60_000;
  const existing = await browser.alarms.get(REFRESH_ALARM);
  if (existing && existing.scheduledTime <= soon) return;
  await browser.alarms.create(REFRESH_ALARM, { when: soon });
}
