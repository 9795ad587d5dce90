import { formatPoints } from './format';
import { t } from './i18n';
import { settings } from './settings';

/**
 * What to say when the panel recorded one Confirm more than once (issue 17): "The panel recorded
 * this redemption twice, 2 × 500 points. Contact <panel> to reverse one." Said the same way in the
 * popup, the history and the notification.
 */
export function recordedAgainText(copies: number, points: number | null): string {
  const each = points === null ? '?' : formatPoints(points);
  return copies === 2 ? t('recordedTwice', each, settings.panelName) : t('recordedTimes', copies, each, settings.panelName);
}
