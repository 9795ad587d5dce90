import { useEffect, useRef, useState } from 'preact/hooks';
import { appError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { ledgerItem, type LedgerEntry } from '../../utils/storage-items';
import type { Reward } from '../../utils/types';
import { OUTCOME_ID } from './RedeemOutcome';

export interface RedeemFlow {
  confirming: Reward | null;
  inFlight: boolean;
  error: AppError | null;
  open: (reward: Reward) => void;
  cancel: () => void;
  confirm: () => void;
}

/**
 * Only which dialog is open lives here: the redemption itself and its outcome belong to the
 * background's ledger, because the popup may close at any moment.
 */
export function useRedeemFlow(ledger: LedgerEntry | null | undefined): RedeemFlow {
  const [confirming, setConfirming] = useState<Reward | null>(null);
  const [inFlight, setInFlight] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  // A ref, not state: several clicks can land before the re-render that disables Confirm.
  const sending = useRef(false);
  const ledgerBefore = useRef<string | undefined>(undefined);
  const returnFocus = useRef<HTMLElement | null>(null);

  const isOurs = (entry: LedgerEntry | null | undefined, reward: Reward) =>
    !!entry && entry.requestId !== ledgerBefore.current && entry.rewardId === reward.id;

  const close = (focusOutcome: boolean) => {
    setConfirming(null);
    setError(null);
    setTimeout(() => {
      const target = (focusOutcome && document.getElementById(OUTCOME_ID)) || returnFocus.current;
      if (target?.isConnected) target.focus();
    }, 0);
  };

  const confirm = () => {
    const reward = confirming;
    if (!reward || sending.current) return;
    sending.current = true;
    ledgerBefore.current = ledger?.requestId;
    setInFlight(true);
    setError(null);
    void sendMessage('redeem', { rewardId: reward.id })
      .then(async (result) => {
        // Refusals the background recorded show in the outcome panel; others (busy) stay here.
        if (result.ok || isOurs(await ledgerItem.getValue(), reward)) close(true);
        else setError(result.error);
      })
      .catch(() => setError(appError('unexpected', t('extensionNoAnswerPopup'))))
      .finally(() => {
        sending.current = false;
        setInFlight(false);
      });
  };

  // Once the ledger shows this redemption started, the outcome panel takes over from the dialog.
  useEffect(() => {
    if (confirming && sending.current && isOurs(ledger, confirming)) close(true);
  }, [ledger, confirming]);

  return {
    confirming,
    inFlight,
    error,
    open: (reward) => {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setError(null);
      setConfirming(reward);
    },
    cancel: () => close(false),
    confirm,
  };
}
