import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { preferencesItem, REFRESH_CHOICES, type Preferences } from '../../utils/storage-items';
import { scheduleRefresh } from './alarms';
import { fail } from './result';

export async function setPreferences(patch: Partial<Preferences>): Promise<Preferences> {
  if (patch.refreshMinutes !== undefined && !REFRESH_CHOICES.includes(patch.refreshMinutes)) {
    fail(appError('invalid_input', t('errRefreshInterval', REFRESH_CHOICES.filter(Boolean).join(', '))));
  }
  const current = await preferencesItem.getValue();
  const next: Preferences = {
    badge: patch.badge ?? current.badge,
    refreshMinutes: patch.refreshMinutes ?? current.refreshMinutes,
  };
  await preferencesItem.setValue(next);
  if (next.refreshMinutes !== current.refreshMinutes) await scheduleRefresh();
  return next;
}
