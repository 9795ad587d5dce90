import { signInConfigured } from '../../utils/build-settings';
import { t, type MessageKey } from '../../utils/i18n';
import { kindOn, switchKind } from '../../utils/preference-choices';
import {
  BADGE_SHOWS,
  NOTIFICATION_KINDS,
  type BadgeShows,
  type NotificationKind,
  type Preferences,
} from '../../utils/preferences';
import { settings } from '../../utils/settings';
import { sessionItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';

const KIND_LABELS: Record<NotificationKind, MessageKey> = {
  redemption: 'notifyKindRedemption',
  outcome: 'notifyKindOutcome',
  goal: 'notifyKindGoal',
  rejected: 'notifyKindRejected',
  question: 'notifyKindQuestion',
};

const BADGE_LABELS: Record<BadgeShows, MessageKey> = {
  balance: 'badgeShowsBalance',
  goal: 'badgeShowsGoal',
  questions: 'badgeShowsQuestions',
};

interface Props {
  prefs: Preferences;
  /** Turning on asks for the permission first (inside the click); the section reports a refusal. */
  onToggle(on: boolean): void;
  change(update: Partial<Preferences>): void;
}

/** What the badge shows, notifications on or off, and each kind on its own (new questions off until chosen). */
export function NotificationPreferences({ prefs, onToggle, change }: Props) {
  const on = prefs.notify === true;
  const session = useStorageItem(sessionItem).value;
  // A signed-in panelist has no personal key to be refused; nor, most likely, does one
  // not yet connected where the build offers sign-in.
  const signIn = session?.signedIn === true || (session?.connected !== true && signInConfigured(settings));
  const label = (kind: NotificationKind) =>
    t(kind === 'rejected' && signIn ? 'notifyKindRejectedSignIn' : KIND_LABELS[kind]);
  return (
    <>
      <div class="field">
        <label for="pref-badge-shows">{t('prefBadgeShows')}</label>
        <select
          id="pref-badge-shows"
          class="input"
          value={prefs.badgeShows ?? 'balance'}
          disabled={!prefs.badge}
          onChange={(e) =>
            change({ badgeShows: BADGE_SHOWS.find((shows) => shows === e.currentTarget.value) ?? 'balance' })
          }
        >
          {BADGE_SHOWS.map((shows) => (
            <option key={shows} value={shows}>
              {t(BADGE_LABELS[shows])}
            </option>
          ))}
        </select>
      </div>
      <div class="field check">
        <input
          id="pref-notify"
          type="checkbox"
          checked={on}
          aria-describedby="pref-notify-hint"
          onChange={(e) => onToggle(e.currentTarget.checked)}
        />
        <label for="pref-notify">{t('prefNotify')}</label>
      </div>
      <p id="pref-notify-hint" class="hint">
        {t('prefNotifyHint')}
      </p>
      {on && (
        <fieldset class="field">
          <legend>{t('prefNotifyKinds')}</legend>
          {NOTIFICATION_KINDS.map((kind) => (
            <div class="field check" key={kind}>
              <input
                id={`pref-notify-${kind}`}
                type="checkbox"
                checked={kindOn(prefs, kind)}
                onChange={(e) => change(switchKind(prefs, kind, e.currentTarget.checked))}
              />
              <label for={`pref-notify-${kind}`}>{label(kind)}</label>
            </div>
          ))}
        </fieldset>
      )}
    </>
  );
}
