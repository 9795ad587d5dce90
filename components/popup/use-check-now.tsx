import { useState } from 'preact/hooks';
import { appError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { send as sendMessage } from './send';

export interface CheckNowState {
  busy: boolean;
  /** When the panelist's own check last ended without settling anything. */
  checkedAt: number | null;
  error: AppError | null;
  check: () => void;
}

/**
 * "Check now": one read of the history, which settles every open redemption it shows (the ledger
 * changes and the card or list follows); one that finds nothing is remembered, so the popup can
 * say "Checked just now — not in your history yet".
 */
export function useCheckNow(): CheckNowState {
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
  return { busy, checkedAt, error, check };
}

/** The button, named for its reward while idle; focus stays on it while it works. */
export function CheckNowButton({
  rewardName,
  state,
  small = false,
}: {
  rewardName: string;
  state: CheckNowState;
  small?: boolean;
}) {
  const { busy, check } = state;
  return (
    <button
      type="button"
      class={small ? 'btn btn-small' : 'btn'}
      // The visible words stay part of the name (WCAG 2.5.3): the reward only while idle.
      aria-label={busy ? undefined : t('checkNowFor', rewardName)}
      aria-busy={busy}
      // Not `disabled`: a disabled button drops the focus the panelist pressed it with.
      aria-disabled={busy}
      onClick={check}
    >
      {t(busy ? 'checking' : 'checkNow')}
    </button>
  );
}
