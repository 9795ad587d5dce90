// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { onRefreshAlarm, REFRESH_ALARM, scheduleRefresh } from '../../entrypoints/background/schedule/alarms';
import { PROFILE_WATCH_MS } from '../../entrypoints/background/schedule/refresh-policy';
import { popupViewItem, preferencesItem } from '../../utils/storage-items';
import { apiRequests, connectedSandbox } from './background-helpers';

const env = connectedSandbox();

const minutesAhead = async () => ((await fakeBrowser.alarms.get(REFRESH_ALARM))!.scheduledTime - Date.now()) / 60_000;

describe('the refresh alarm', () => {
  it('is armed once, at a random 0.75–1.25 × the interval, and not at all when off', async () => {
    await scheduleRefresh();
    const alarm = await fakeBrowser.alarms.get(REFRESH_ALARM);
    expect(alarm?.periodInMinutes).toBeUndefined();
    expect(await minutesAhead()).toBeGreaterThanOrEqual(30 * 0.75 - 0.01);
    expect(await minutesAhead()).toBeLessThanOrEqual(30 * 1.25);
    await preferencesItem.setValue({ badge: true, refreshMinutes: 0 });
    await scheduleRefresh();
    expect(await fakeBrowser.alarms.get(REFRESH_ALARM)).toBeUndefined();
  });

  it('on time: refreshes rewards and history once each, and re-arms', async () => {
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() });
    expect(apiRequests(env.sandbox, '/v1/panel/rewards')).toBe(1);
    expect(apiRequests(env.sandbox, '/v1/panel/redemptions')).toBe(1);
    expect(await minutesAhead()).toBeGreaterThan(20);
  });

  it('reads the profile only for a panelist who watches for new questions or counts them on the badge, every few hours', async () => {
    const profileReads = () => apiRequests(env.sandbox, '/v1/panel/variables/meta');
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() });
    expect(profileReads()).toBe(0);

    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true, notifyOn: ['question'] });
    // Never read yet: read.
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() });
    expect(profileReads()).toBe(1);
    // Read a moment ago: not again until a few hours have passed.
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() });
    expect(profileReads()).toBe(1);
    const later = Date.now() + PROFILE_WATCH_MS;
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: later }, later);
    expect(profileReads()).toBe(2);

    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, badgeShows: 'questions' });
    const view = (await popupViewItem.getValue())!;
    await popupViewItem.setValue({ ...view, profile: { ...view.profile!, fetchedAt: Date.now() - PROFILE_WATCH_MS } });
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() });
    expect(profileReads()).toBe(3);
    // Turned off, the badge counts nothing and the profile waits for the options page.
    await preferencesItem.setValue({ badge: false, refreshMinutes: 30, badgeShows: 'questions' });
    await popupViewItem.setValue({ ...view, profile: null });
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() });
    expect(profileReads()).toBe(3);
  });

  it('overdue after the browser was closed: spreads the refresh over the next minutes instead of calling now', async () => {
    await onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() - 3 * 3600_000 });
    expect(env.sandbox.requests).toHaveLength(0);
    expect(await minutesAhead()).toBeGreaterThanOrEqual(0.99);
    expect(await minutesAhead()).toBeLessThanOrEqual(10);
  });
});
