import { t, tp } from './i18n';
import { settings } from './settings';

/**
 * What to say when the history read that first showed a Confirm's redemption showed more of the
 * same reward: "The panel's history shows this redemption twice, 2 × 500 points. If you did not
 * redeem it again yourself, contact <panel> to reverse one." The extension cannot tell a copy the
 * browser re-sent from the panelist's own redemption on the website or another device, so it says
 * what the history shows and leaves that to the panelist. Said the same way in the popup, the
 * history and the notification.
 */
export function recordedAgainText(copies: number, points: number | null): string {
  // What one cost is unknown for an entry that did not keep it: the sentence then leaves the sum out.
  if (points === null)
    return copies === 2
      ? t('recordedTwiceUnpriced', settings.panelName)
      : tp('recordedTimesUnpriced', copies, settings.panelName);
  // The points with their unit, each count in its own plural form ("1 point", "500 points").
  const each = tp('points', points);
  return copies === 2
    ? t('recordedTwice', each, settings.panelName)
    : tp('recordedTimes', copies, each, settings.panelName);
}
