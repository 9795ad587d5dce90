/** The panelist's preferences: plain data, importable where no extension API exists (the benchmark). */

/** What the toolbar badge shows while `badge` is on: the balance, or the points still needed for the goal. */
export type BadgeShows = 'balance' | 'goal';

/** The kinds of notification, each switched on or off on its own (issue 11). */
export const NOTIFICATION_KINDS = ['redemption', 'outcome', 'goal', 'rejected'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface Preferences {
  badge: boolean;
  /** Background refresh interval, minutes. */
  refreshMinutes: number;
  /** Absent in preferences stored before issue 11: the balance. */
  badgeShows?: BadgeShows;
  /** Notifications at all; off until the panelist turns them on (and grants the permission). */
  notify?: boolean;
  /** Kinds switched off; a kind not listed is on. */
  notifyOff?: NotificationKind[];
}

/** Background refresh intervals offered, minutes; 0 turns it off. Alarms fire at most once a minute. */
export const REFRESH_CHOICES = [0, 15, 30, 60, 180];

export const DEFAULT_PREFERENCES: Preferences = { badge: true, refreshMinutes: 30 };

export function notifies(prefs: Preferences, kind: NotificationKind): boolean {
  return prefs.notify === true && !(prefs.notifyOff ?? []).includes(kind);
}
