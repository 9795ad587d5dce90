import type { Flow } from './balance-trend';
import { t, tp, uiLocale } from './i18n';

/** "in the last 30 days", or "since 3 Jan 2026" when the balance's history is shorter. */
export function periodText(flow: Flow, days: number): string {
  return flow.whole
    ? tp('periodLastDays', days)
    : t('periodSince', new Date(flow.since).toLocaleDateString(uiLocale(), { dateStyle: 'medium' }));
}

/**
 * "1,250 points earned in the last 30 days": the one earning figure, spending not
 * subtracted, so a redemption never reads as a loss; null before there is a rise to tell. The popup
 * and the options page say it in these same words.
 */
export function earnedText(flow: Flow | null, days: number): string | null {
  if (!flow || flow.earned <= 0) return null;
  return tp('earnedPoints', flow.earned, periodText(flow, days));
}
