import type { Flow } from './balance-trend';
import { t, tp, uiLocale } from './i18n';

const dateText = (at: number) => new Date(at).toLocaleDateString(uiLocale(), { dateStyle: 'medium' });

/**
 * "in the last 30 days", or "since 3 Jan 2026" when the balance's history is shorter. `until`: the
 * balance was last read then, days ago: the period ends there, said with both of its dates.
 */
export function periodText(flow: Flow, days: number, until?: number): string {
  if (until !== undefined) return t('periodBetween', dateText(flow.since), dateText(until));
  return flow.whole ? tp('periodLastDays', days) : t('periodSince', dateText(flow.since));
}

/**
 * "1,250 points earned in the last 30 days": the one earning figure, spending not
 * subtracted, so a redemption never reads as a loss; null before there is a rise to tell. The popup
 * and the options page say it in these same words.
 */
export function earnedText(flow: Flow | null, days: number, until?: number): string | null {
  if (!flow || flow.earned <= 0) return null;
  return tp('earnedPoints', flow.earned, periodText(flow, days, until));
}
