import { useState } from 'preact/hooks';
import { appError, type AppError } from '../../utils/errors';
import { formatRelative } from '../../utils/format';
import { t } from '../../utils/i18n';
import { sentences } from '../../utils/sentences';
import { send as sendMessage } from './send';
import type { LedgerEntry } from '../../utils/storage-items';
import { HistoryLink } from './HistoryLink';
import { clockTime } from './when';

/**
 * An unknown outcome's body: when it was sent and what the panel answered, when the history was
 * last read and when it is read next (never "did not go through"), and "Check now", which asks the
 * background to read it at once. A check that finds it settles the card (the ledger changes); one
 * that does not says so where the panelist looks, "Checked just now — not in your history yet"
 * (issue 21), and focus stays on the button.
 */
export function CheckNow({ entry, now }: { entry: LedgerEntry; now: number }) {
  const [busy, setBusy] = useState(false);
  const [checkedAt, setCheckedAt] = useState<number | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const check = () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    sendMessage('checkRedemption')
      .then((result) => (result.ok ? setCheckedAt(Date.now()) : setError(result.error)))
      .catch(() => setError(appError('unexpected', t('extensionNoAnswerPopup'))))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <p>{intro(entry)}</p>
      <p aria-live="polite">{busy ? t('checkingNow') : nextCheck(entry, now, checkedAt)}</p>
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
          // Not `disabled`: a disabled button drops the focus the panelist pressed it with.
          aria-disabled={busy}
          onClick={check}
        >
          {t(busy ? 'checking' : 'checkNow')}
        </button>
        <HistoryLink />
      </div>
    </>
  );
}

/** When it was sent, and what the panel answered then: the answer chooses the words, the history decides. */
function intro(entry: LedgerEntry): string {
  const sent = clockTime(entry.startedAt);
  if (entry.answer === 'success') return t('outcomeUnknownSaidYes', sent);
  if (entry.answer === 'refused') return t('outcomeUnknownSaidNo', sent);
  return t('outcomeUnknownText', sent);
}

function nextCheck(entry: LedgerEntry, now: number, checkedAt: number | null): string {
  const checks = entry.checks;
  // The panelist's own check, or else the last scheduled one.
  const last =
    checkedAt !== null && checkedAt >= (checks?.lastAt ?? 0)
      ? t('checkedNotYet', formatRelative(checkedAt, now))
      : checks?.lastAt
        ? t('lastChecked', clockTime(checks.lastAt))
        : '';
  if (checks?.nextAt) {
    return sentences(last, checks.nextAt <= now ? t('checkingNow') : t('nextCheckAt', clockTime(checks.nextAt)));
  }
  return sentences(last, t('noMoreChecks'));
}
