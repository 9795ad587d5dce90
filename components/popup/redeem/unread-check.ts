import { t } from '../../../utils/i18n';
import type { LedgerEntry } from '../../../utils/storage-items';
import { clockTime } from '../when';

/**
 * That the last scheduled check of `entry` could not read the history, when it could not (and no
 * later one did): never said as "not in your history yet", which would invite a second redeem. The
 * card (CheckNow.tsx) and the list (StillChecking.tsx) say it alike. Empty otherwise.
 */
export function unreadCheck(entry: LedgerEntry): string {
  const checks = entry.checks;
  return checks?.unreadAt !== undefined && checks.unreadAt >= (checks.lastAt ?? 0)
    ? t('lastCheckUnread', clockTime(checks.unreadAt))
    : '';
}
