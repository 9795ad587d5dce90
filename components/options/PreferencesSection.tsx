import { useSignal } from '@preact/signals';
import { sendMessage } from '../../utils/messages';
import { DEFAULT_PREFERENCES, preferencesItem, type Preferences } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { ask } from './ask';
import { errorText } from './error-text';

const INTERVALS = [15, 30, 60, 180];

function intervalLabel(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`;
}

/** Toolbar badge and background refresh interval; the background stores and applies them. */
export function PreferencesSection() {
  const stored = useStorageItem(preferencesItem);
  // What the panelist just chose, shown until the background has stored it (or refused it).
  const pending = useSignal<Partial<Preferences>>({});
  const status = useSignal('');
  const alert = useSignal('');
  const prefs: Preferences = { ...DEFAULT_PREFERENCES, ...stored.value, ...pending.value };
  // An interval set elsewhere (an older version, a policy) is still shown rather than misreported.
  const intervals = INTERVALS.includes(prefs.refreshMinutes) ? INTERVALS : [...INTERVALS, prefs.refreshMinutes].sort((a, b) => a - b);

  async function change(update: Partial<Preferences>) {
    pending.value = { ...pending.value, ...update };
    status.value = '';
    alert.value = '';
    const result = await ask(() => sendMessage('setPreferences', update));
    pending.value = {};
    if (result.ok) status.value = 'Preferences saved.';
    else alert.value = errorText(result.error, 'Your previous choice is kept; try again.');
  }

  return (
    <section class="card" aria-labelledby="preferences-heading">
      <h2 id="preferences-heading">Preferences</h2>
      <div class="field check">
        <input
          id="pref-badge"
          type="checkbox"
          checked={prefs.badge}
          onChange={(e) => change({ badge: e.currentTarget.checked })}
        />
        <label for="pref-badge">Show points on the toolbar icon</label>
      </div>
      <div class="field">
        <label for="pref-refresh">Refresh every</label>
        <select
          id="pref-refresh"
          class="input"
          value={String(prefs.refreshMinutes)}
          aria-describedby="pref-refresh-hint"
          onChange={(e) => change({ refreshMinutes: Number(e.currentTarget.value) })}
        >
          {intervals.map((m) => (
            <option key={m} value={String(m)}>
              {intervalLabel(m)}
            </option>
          ))}
        </select>
        <p id="pref-refresh-hint" class="hint">
          How often your points, rewards and history are updated in the background.
        </p>
      </div>
      <p role="status" class="status">
        {status.value}
      </p>
      {alert.value && (
        <p role="alert" class="alert">
          {alert.value}
        </p>
      )}
    </section>
  );
}
