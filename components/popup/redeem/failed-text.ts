import { t } from '../../../utils/i18n';
import { sentences } from '../../../utils/sentences';
import { settings } from '../../../utils/settings';

/**
 * A redemption the history shows failed and not refunded: it did not go through, and where its
 * points are — not back until the panel refunds it, and whom to ask when that does not happen.
 */
export function failedText(): string {
  return sentences(t('meaningFailed'), t('failedPointsNotBack', settings.panelName));
}
