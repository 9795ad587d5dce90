/** The panelist's preferences: plain data, importable where no extension API exists (the benchmark). */

/**
 * What the toolbar badge shows while `badge` is on: the balance, the points still needed for the
 * goal, or how many profile questions are open (issue 20).
 */
export type BadgeShows = 'balance' | 'goal' | 'questions';
export const BADGE_SHOWS: readonly BadgeShows[] = ['balance', 'goal', 'questions'];

/** The kinds of notification, each switched on or off on its own (issue 11; `question`: issue 20). */
export const NOTIFICATION_KINDS = ['redemption', 'outcome', 'goal', 'rejected', 'question'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Kinds that stay off until the panelist turns them on, also when notifications are on. */
const OPT_IN_KINDS: readonly NotificationKind[] = ['question'];

export interface Preferences {
  badge: boolean;
  /** Background refresh interval, minutes. */
  refreshMinutes: number;
  /** Absent in preferences stored before issue 11: the balance. */
  badgeShows?: BadgeShows;
  /** Notifications at all; off until the panelist turns them on (and grants the permission). */
  notify?: boolean;
  /** Kinds switched off; a kind not listed is on (except the opt-in ones). */
  notifyOff?: NotificationKind[];
  /** Opt-in kinds switched on (issue 20): a new profile question is told only when listed here. */
  notifyOn?: NotificationKind[];
}

/** Background refresh intervals offered, minutes; 0 turns it off. Alarms fire at most once a minute. */
export const REFRESH_CHOICES = [0, 15, 30, 60, 180];

export const DEFAULT_PREFERENCES: Preferences = { badge: true, refreshMinutes: 30 };

/** Whether this kind is switched on, notifications as a whole aside. */
export function kindOn(prefs: Preferences, kind: NotificationKind): boolean {
  return OPT_IN_KINDS.includes(kind) ? (prefs.notifyOn ?? []).includes(kind) : !(prefs.notifyOff ?? []).includes(kind);
}

/** The preference change that switches one kind on or off. */
export function switchKind(prefs: Preferences, kind: NotificationKind, on: boolean): Partial<Preferences> {
  const without = (list: NotificationKind[] = []) => list.filter((k) => k !== kind);
  if (OPT_IN_KINDS.includes(kind)) return { notifyOn: on ? [...without(prefs.notifyOn), kind] : without(prefs.notifyOn) };
  return { notifyOff: on ? without(prefs.notifyOff) : [...without(prefs.notifyOff), kind] };
}

export function notifies(prefs: Preferences, kind: NotificationKind): boolean {
  return prefs.notify === true && kindOn(prefs, kind);
}
