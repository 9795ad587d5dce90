import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { BADGE_SHOWS, NOTIFICATION_KINDS, type NotificationKind } from '../../utils/preferences';
import { preferencesItem, REFRESH_CHOICES, type Preferences } from '../../utils/storage-items';
import { scheduleRefresh } from './schedule/alarms';
import { fail } from './result';
import { put, updateDevice } from './store/store';

export async function setPreferences(patch: Partial<Preferences>): Promise<Preferences> {
  if (patch.refreshMinutes !== undefined && !REFRESH_CHOICES.includes(patch.refreshMinutes)) {
    fail(appError('invalid_input', t('errRefreshInterval', REFRESH_CHOICES.filter(Boolean).join(', '))));
  }
  // Merged with the preferences as they stand in the writer's turn: a change sent a moment before
  // this one (another switch flipped quickly) is built on, never undone.
  let before!: Preferences;
  let next!: Preferences;
  await updateDevice([preferencesItem], (get) => {
    before = get(preferencesItem);
    next = {
      badge: patch.badge ?? before.badge,
      refreshMinutes: patch.refreshMinutes ?? before.refreshMinutes,
      ...notificationPreferences(patch, before),
    };
    return [put(preferencesItem, next)];
  });
  if (next.refreshMinutes !== before.refreshMinutes) await scheduleRefresh();
  return next;
}

const invalid = () => fail(appError('invalid_input', t('errPreferenceInvalid')));

/** A list of notification kinds as a page sent it, each once; undefined when none was sent. */
function kinds(list: unknown): NotificationKind[] | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.some((kind) => !NOTIFICATION_KINDS.includes(kind))) invalid();
  return [...new Set(list as NotificationKind[])];
}

/** The notification preferences (and the opt-in kinds), checked like the others; absent ones stay absent (their defaults apply). */
function notificationPreferences(patch: Partial<Preferences>, current: Preferences): Partial<Preferences> {
  if (patch.badgeShows !== undefined && !BADGE_SHOWS.includes(patch.badgeShows)) invalid();
  if (patch.notify !== undefined && typeof patch.notify !== 'boolean') invalid();
  const badgeShows = patch.badgeShows ?? current.badgeShows;
  const notify = patch.notify ?? current.notify;
  const notifyOff = kinds(patch.notifyOff) ?? current.notifyOff;
  const notifyOn = kinds(patch.notifyOn) ?? current.notifyOn;
  return {
    ...(badgeShows !== undefined ? { badgeShows } : {}),
    ...(notify !== undefined ? { notify } : {}),
    ...(notifyOff !== undefined ? { notifyOff } : {}),
    ...(notifyOn !== undefined ? { notifyOn } : {}),
  };
}
