import { browser } from 'wxt/browser';
import { preferencesItem, sessionItem } from '../../utils/storage-items';
import { refreshHistory, refreshRewards } from './sync';

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
  await Promise.allSettled([refreshRewards(true), refreshHistory(true)]);
}
