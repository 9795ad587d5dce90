import { t } from '../../../utils/i18n';
import { notFoundWords } from '../../../utils/points-taken';
import { settings } from '../../../utils/settings';
import type { LedgerEntry } from '../../../utils/storage-items';

/**
 * Not found after the last check, in words: the panel said yes, or the balance showed the points
 * gone, and the history never showed it (something is wrong at the panel, which redeeming again
 * would not mend); a balance that could not be read to confirm it; or most likely not made.
 */
export function notFoundText(entry: LedgerEntry): string {
  switch (notFoundWords(entry)) {
    case 'points-taken':
      return t('outcomeNotFoundPointsTaken', settings.panelName);
    case 'said-yes':
      return t('outcomeNotFoundSaidYes', settings.panelName);
    case 'balance-unread':
      return t('outcomeNotFoundBalanceUnread');
    case 'not-made':
      return t('outcomeNotFoundText');
  }
}
