import { useSignal } from '@preact/signals';
import { t, uiLocale } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { DEFAULT_PREFERENCES, preferencesItem, type Preferences } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { ask } from './ask';
import { alertOf, alertText, type Alert } from './error-text';
import { releaseNotifications, requestNotifications } from './notification-permission';
import { NotificationPreferences } from './NotificationPreferences';
import { SectionFeedback } from './SectionFeedback';
import { UnreadSection } from './UnreadSection';

const INTERVALS = [15, 30, 60, 180];

/** "15 minutes", "1 hour", "3 hours" in the browser's language. */
function intervalLabel(minutes: number): string {
  const hours = minutes % 60 === 0;
  const format = new Intl.NumberFormat(uiLocale(), {
    style: 'unit',
    unit: hours ? 'hour' : 'minute',
    unitDisplay: 'long',
  });
  return format.format(hours ? minutes / 60 : minutes);
}

/** Toolbar badge and background refresh interval; the background stores and applies them. */
export function PreferencesSection() {
  const stored = useStorageItem(preferencesItem);
  // What the panelist just chose, shown until the background has stored it (or refused it).
  const pending = useSignal<Partial<Preferences>>({});
  const status = useSignal('');
  const alert = useSignal<Alert | null>(null);
  const prefs: Preferences = { ...DEFAULT_PREFERENCES, ...stored.value, ...pending.value };
  // An interval set elsewhere (an older version, a policy) is still shown rather than misreported.
  const intervals = INTERVALS.includes(prefs.refreshMinutes)
    ? INTERVALS
    : [...INTERVALS, prefs.refreshMinutes].sort((a, b) => a - b);

  /** Sends `update`; says whether it was saved (the section says it either way). */
  async function change(update: Partial<Preferences>): Promise<boolean> {
    pending.value = { ...pending.value, ...update };
    status.value = '';
    alert.value = null;
    const result = await ask(() => sendMessage('setPreferences', update));
    pending.value = {};
    if (result.ok) status.value = t('preferencesSaved');
    else alert.value = alertOf(result.error, t('stepPreferenceKept'));
    return result.ok;
  }

  /** Runs in the click's task: the permission prompt needs the gesture. */
  function toggleNotify(on: boolean) {
    if (!on) {
      // The permission goes only with a saved "off": a refused write keeps notifications on, which need it.
      void change({ notify: false }).then((saved) => (saved ? releaseNotifications() : undefined));
      return;
    }
    pending.value = { ...pending.value, notify: true };
    void requestNotifications().then((granted) => {
      if (granted) return change({ notify: true });
      const { notify: _refused, ...rest } = pending.value;
      pending.value = rest;
      status.value = '';
      alert.value = alertText(t('errNotifyDenied'));
    });
  }

  // Until the stored preferences are read, no control shows a default as if it were the panelist's choice.
  if (stored.value === undefined) {
    return <UnreadSection id="preferences" heading={t('preferencesHeading')} />;
  }
  return (
    <section class="card" id="preferences" aria-labelledby="preferences-heading">
      <h2 id="preferences-heading">{t('preferencesHeading')}</h2>
      <div class="field check">
        <input
          id="pref-badge"
          type="checkbox"
          checked={prefs.badge}
          onChange={(e) => void change({ badge: e.currentTarget.checked })}
        />
        <label for="pref-badge">{t('prefBadge')}</label>
      </div>
      <NotificationPreferences prefs={prefs} onToggle={toggleNotify} change={(update) => void change(update)} />
      <div class="field">
        <label for="pref-refresh">{t('prefRefreshEvery')}</label>
        <select
          id="pref-refresh"
          class="input"
          value={String(prefs.refreshMinutes)}
          aria-describedby="pref-refresh-hint"
          onChange={(e) => void change({ refreshMinutes: Number(e.currentTarget.value) })}
        >
          {intervals.map((m) => (
            <option key={m} value={String(m)}>
              {intervalLabel(m)}
            </option>
          ))}
        </select>
        <p id="pref-refresh-hint" class="hint">
          {t('prefRefreshHint')}
        </p>
      </div>
      <SectionFeedback status={status.value} alert={alert.value} />
    </section>
  );
}
