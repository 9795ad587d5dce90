import { useEffect, useRef, useState } from 'preact/hooks';
import { appError, type AppError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { send as sendMessage } from '../send';
import { ledgerItem, type LedgerEntry } from '../../../utils/storage-items';
import type { Reward } from '../../../utils/types';
import { OUTCOME_ID } from '../model/outcome-ids';
import { afterRefusal, confirmingFor, orderOf, startedBy, stillShown, type Confirming } from './redeem-model';

export interface RedeemFlow {
  confirming: Confirming | null;
  inFlight: boolean;
  error: AppError | null;
  open: (reward: Reward) => void;
  cancel: () => void;
  confirm: () => void;
}

/**
 * Only which dialog is open lives here (what it asks and sends: redeem-model.ts): the redemption
 * itself and its outcome belong to the background's ledger, because the popup may close at any
 * moment. `session` is the session the popup shows now.
 */
export function useRedeemFlow(
  ledger: LedgerEntry | null | undefined,
  elsewhere: readonly LedgerEntry[] = [],
  session?: string,
): RedeemFlow {
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [inFlight, setInFlight] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  // A ref, not state: several clicks can land before the re-render that disables Confirm.
  const sending = useRef(false);
  const sent = useRef<{ before: string | undefined; at: number }>({ before: undefined, at: 0 });
  const returnFocus = useRef<HTMLElement | null>(null);

  const close = (focusOutcome: boolean) => {
    setConfirming(null);
    setError(null);
    setTimeout(() => {
      const target = (focusOutcome && document.getElementById(OUTCOME_ID)) || returnFocus.current;
      if (target?.isConnected) target.focus();
    }, 0);
  };

  const confirm = () => {
    const current = confirming;
    if (!current || sending.current) return;
    sending.current = true;
    sent.current = { before: ledger?.requestId, at: Date.now() };
    setInFlight(true);
    setError(null);
    void sendMessage('redeem', orderOf(current))
      .then(async (result) => {
        if (result.ok) return close(true);
        const stored = await ledgerItem.getValue();
        // Refusals the background recorded show in the outcome panel; others (busy) stay here.
        if (result.error.kind !== 'unsettled' && startedBy(stored, current.reward, sent.current)) return close(true);
        const next = afterRefusal(current, result.error, [stored, ...elsewhere]);
        if (next.confirming) setConfirming(next.confirming);
        setError(next.error);
      })
      .catch(() => setError(appError('unexpected', t('extensionNoAnswerPopup'))))
      .finally(() => {
        sending.current = false;
        setInFlight(false);
      });
  };

  // Another account (or none) since the dialog was shown: its Confirm is never sent for this one.
  // The popup may stay open across a switch (a page on Firefox for Android, a popup in a tab).
  useEffect(() => {
    if (confirming && !sending.current && !stillShown(confirming, session)) {
      setConfirming(null);
      setError(null);
    }
  }, [session, confirming, inFlight]);

  // Once the ledger shows this redemption started, the outcome panel takes over from the dialog.
  useEffect(() => {
    if (confirming && sending.current && startedBy(ledger, confirming.reward, sent.current)) close(true);
  }, [ledger, confirming]);

  return {
    confirming,
    inFlight,
    error,
    open: (reward) => {
      // A reward the extension does not offer for redeeming never opens one (row-model.ts says why).
      const dialog = confirmingFor(reward, session, [ledger, ...elsewhere]);
      if (!dialog) return;
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setError(null);
      setConfirming(dialog);
    },
    cancel: () => close(false),
    confirm,
  };
}
