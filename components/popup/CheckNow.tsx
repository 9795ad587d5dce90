import { useState } from 'preact/hooks';
import { appError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { sentences } from '../../utils/sentences';
import { send as sendMessage } from './send';
import type { LedgerEntry } from '../../utils/storage-items';
import { HistoryLink } from './HistoryLink';
import { clockTime } from './when';

/**
 * An unknown outcome's body: when it was sent, when the history was last read and when it is read
 * next (never "did not go through"), and
 * "Check now", which asks the background to read it at once (the ledger change re-renders the card).
 */
export function CheckNow({ entry, now }: { entry: LedgerEntry; now: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const check = () => {
    setBusy(true);
    setError(null);
    sendMessage('checkRedemption')
      .then((result) => !result.ok && setError(result.error))
      .catch(() => setError(appError('unexpected', t('extensionNoAnswerPopup'))))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <p>{t('outcomeUnknownText', clockTime(entry.startedAt))}</p>
      <p aria-live="polite">{nextCheck(entry, now)}</p>
      {error && (
        <p class="error" role="alert">
          {error.message}
        </p>
      )}
      <div class="notice-actions">
        <button
          type="button"
          class="btn"
          // The visible words stay part of the name (WCAG 2.5.3): the reward only while idle.
          aria-label={busy ? undefined : t('checkNowFor', entry.rewardName)}
          aria-busy={busy}
          disabled={busy}
          onClick={check}
        >
          {t(busy ? 'checking' : 'checkNow')}
        </button>
        <HistoryLink />
      </div>
    </>
  );
}

function nextCheck(entry: LedgerEntry, now: number): string {
  const checks = entry.checks;
  const last = checks?.lastAt ? t('lastChecked', clockTime(checks.lastAt)) : '';
  if (checks?.nextAt) {
    return sentences(last, checks.nextAt <= now ? t('checkingNow') : t('nextCheckAt', clockTime(checks.nextAt)));
  }
  return sentences(last, t('noMoreChecks'));
}
