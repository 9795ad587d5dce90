import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { NOTIFICATION_KINDS, type BadgeShows } from '../../utils/preferences';
import { preferencesItem, REFRESH_CHOICES, type Preferences } from '../../utils/storage-items';
import { scheduleRefresh } from './alarms';
import { fail } from './result';
import { put, writeDevice } from './store';

export async function setPreferences(patch: Partial<Preferences>): Promise<Preferences> {
  if (patch.refreshMinutes !== undefined && !REFRESH_CHOICES.includes(patch.refreshMinutes)) {
    fail(appError('invalid_input', t('errRefreshInterval', REFRESH_CHOICES.filter(Boolean).join(', '))));
  }
  const current = await preferencesItem.getValue();
  const next: Preferences = {
    badge: patch.badge ?? current.badge,
    refreshMinutes: patch.refreshMinutes ?? current.refreshMinutes,
    ...notificationPreferences(patch, current),
  };
  await writeDevice(put(preferencesItem, next));
  if (next.refreshMinutes !== current.refreshMinutes) await scheduleRefresh();
  return next;
}

const BADGE_SHOWS: readonly BadgeShows[] = ['balance', 'goal'];

/** Issue 11's preferences, checked like the others; absent ones stay absent (their defaults apply). */
function notificationPreferences(patch: Partial<Preferences>, current: Preferences): Partial<Preferences> {
  if (patch.badgeShows !== undefined && !BADGE_SHOWS.includes(patch.badgeShows)) fail(appError('invalid_input', t('errPreferenceInvalid')));
  if (patch.notify !== undefined && typeof patch.notify !== 'boolean') fail(appError('invalid_input', t('errPreferenceInvalid')));
  const off = patch.notifyOff;
  if (off !== undefined && (!Array.isArray(off) || off.some((kind) => !NOTIFICATION_KINDS.includes(kind)))) {
    fail(appError('invalid_input', t('errPreferenceInvalid')));
  }
  const badgeShows = patch.badgeShows ?? current.badgeShows;
  const notify = patch.notify ?? current.notify;
  const notifyOff = off ? [...new Set(off)] : current.notifyOff;
  return {
    ...(badgeShows !== undefined ? { badgeShows } : {}),
    ...(notify !== undefined ? { notify } : {}),
    ...(notifyOff !== undefined ? { notifyOff } : {}),
  };
}
