/** The panelist's preferences: plain data, importable where no extension API exists (the benchmark). */

/**
 * What the toolbar badge shows while `badge` is on: the balance, the points still needed for the
 * goal, or how many profile questions are open.
 */
export const BADGE_SHOWS = ['balance', 'goal', 'questions'] as const;
export type BadgeShows = (typeof BADGE_SHOWS)[number];

/** The kinds of notification, each switched on or off on its own (`question` is opt-in: utils/preference-choices.ts). */
export const NOTIFICATION_KINDS = ['redemption', 'outcome', 'goal', 'rejected', 'question'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface Preferences {
  badge: boolean;
  /** Background refresh interval, minutes. */
  refreshMinutes: number;
  /** Absent in preferences stored before the badge had a choice: the balance. */
  badgeShows?: BadgeShows;
  /** Notifications at all; off until the panelist turns them on (and grants the permission). */
  notify?: boolean;
  /** Kinds switched off; a kind not listed is on (except the opt-in ones). */
  notifyOff?: NotificationKind[];
  /** Opt-in kinds switched on: a new profile question is told only when listed here. */
  notifyOn?: NotificationKind[];
}

/** Background refresh intervals offered, minutes; 0 turns it off. Alarms fire at most once a minute. */
export const REFRESH_CHOICES = [0, 15, 30, 60, 180];

export const DEFAULT_PREFERENCES: Preferences = { badge: true, refreshMinutes: 30 };
