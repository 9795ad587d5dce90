import type { NotificationKind, Preferences } from './preferences';

/**
 * What the notification choices mean: which kind is on, and the change that switches one. Apart
 * from preferences.ts, which the popup's first chunk imports: only the options page and the
 * background need these.
 */

/** Kinds that stay off until the panelist turns them on, also when notifications are on. */
const OPT_IN_KINDS: readonly NotificationKind[] = ['question'];

/** Whether this kind is switched on, notifications as a whole aside. */
export function kindOn(prefs: Preferences, kind: NotificationKind): boolean {
  return OPT_IN_KINDS.includes(kind) ? (prefs.notifyOn ?? []).includes(kind) : !(prefs.notifyOff ?? []).includes(kind);
}

/** The preference change that switches one kind on or off. */
export function switchKind(prefs: Preferences, kind: NotificationKind, on: boolean): Partial<Preferences> {
  const without = (list: NotificationKind[] = []) => list.filter((k) => k !== kind);
  if (OPT_IN_KINDS.includes(kind))
    return { notifyOn: on ? [...without(prefs.notifyOn), kind] : without(prefs.notifyOn) };
  return { notifyOff: on ? without(prefs.notifyOff) : [...without(prefs.notifyOff), kind] };
}

export function notifies(prefs: Preferences, kind: NotificationKind): boolean {
  return prefs.notify === true && kindOn(prefs, kind);
}
