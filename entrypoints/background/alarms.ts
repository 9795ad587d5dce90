import { browser } from 'wxt/browser';
import { preferencesItem, sessionItem } from '../../utils/storage-items';
import { refreshHistory, refreshRewards } from './sync';

export const REFRESH_ALARM = 'refresh';

/**
 * Periodic refresh uses alarms because the worker may be stopped between runs. The first run is
 * offset at random so that a whole panel's installs do not call the server in step.
 */
export async function scheduleRefresh(): Promise<void> {
  const { refreshMinutes } = await preferencesItem.getValue();
  await browser.alarms.clear(REFRESH_ALARM);
  if (refreshMinutes <= 0) return;
  await browser.alarms.create(REFRESH_ALARM, {
    delayInMinutes: refreshMinutes * (0.5 + Math.random()),
    periodInMinutes: refreshMinutes,
  });
}

export async function ensureRefreshScheduled(): Promise<void> {
  const existing = await browser.alarms.get(REFRESH_ALARM);
  if (!existing) await scheduleRefresh();
}

export async function onRefreshAlarm(name: string): Promise<void> {
  if (name !== REFRESH_ALARM) return;
  const session = await sessionItem.getValue();
  if (!session.connected || session.rejected) return;
  await Promise.allSettled([refreshRewards(true), refreshHistory(true)]);
}
