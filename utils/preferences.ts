/** The panelist's preferences: plain data, importable where no extension API exists (the benchmark). */

export interface Preferences {
  badge: boolean;
  /** Background refresh interval, minutes. */
  refreshMinutes: number;
}

/** Background refresh intervals offered, minutes; 0 turns it off. Alarms fire at most once a minute. */
export const REFRESH_CHOICES = [0, 15, 30, 60, 180];

export const DEFAULT_PREFERENCES: Preferences = { badge: true, refreshMinutes: 30 };
