import { uiLocale } from '../../utils/i18n';

/**
 * A moment of today as "14:05" (or "2:05 PM"), and of another day with its date, in the UI
 * language: for when a redemption was sent and when its history is checked next.
 */
export function clockTime(ms: number, now = Date.now()): string {
  const sameDay = new Date(ms).toDateString() === new Date(now).toDateString();
  const options: Intl.DateTimeFormatOptions = sameDay
    ? { timeStyle: 'short' }
    : { dateStyle: 'medium', timeStyle: 'short' };
  return new Intl.DateTimeFormat(uiLocale(), options).format(ms);
}
