import { useEffect, useRef, useState } from 'preact/hooks';
import { appError, type AppError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { send as sendMessage } from '../send';
import { ledgerItem, type LedgerEntry } from '../../../utils/storage-items';
import type { Reward } from '../../../utils/types';
import { OUTCOME_ID } from './outcome-ids';

export interface Confirming {
  reward: Reward;
  /**
   * The same reward's earlier redemption whose outcome is still unknown: the dialog names it, and
   * only confirming that dialog sends `confirmUnsettled`, so a second Confirm is never sent by mistake.
   */
  unsettled: LedgerEntry | null;
}

export interface RedeemFlow {
  confirming: Confirming | null;
  inFlight: boolean;
  error: AppError | null;
  open: (reward: Reward) => void;
  cancel: () => void;
  confirm: () => void;
}

/** The newest redemption of `reward` still being checked, on the outcome card or off it. */
const unsettledFor = (entries: ReadonlyArray<LedgerEntry | null | undefined>, reward: Reward): LedgerEntry | null =>
  entries
    .filter((entry): entry is LedgerEntry => entry?.state === 'unknown' && entry.rewardId === reward.id)
    .sort((a, b) => b.startedAt - a.startedAt)[0] ?? null;

/**
 * Only which dialog is open lives here: the redemption itself and its outcome belong to the
 * background's ledger, because the popup may close at any moment.
 */
export function useRedeemFlow(
  ledger: LedgerEntry | null | undefined,
  elsewhere: readonly LedgerEntry[] = [],
): RedeemFlow {
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [inFlight, setInFlight] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  // A ref, not state: several clicks can land before the re-render that disables Confirm.
  const sending = useRef(false);
  const ledgerBefore = useRef<string | undefined>(undefined);
  const sentAt = useRef(0);
  const returnFocus = useRef<HTMLElement | null>(null);

  // A new entry for this reward, started by this request: not an older one that only now reached
  // this popup (an unsettled redemption the background names when refusing this one).
  const isOurs = (entry: LedgerEntry | null | undefined, reward: Reward) =>
    !!entry &&
    entry.requestId !== ledgerBefore.current &&
    entry.rewardId === reward.id &&
    entry.startedAt >= sentAt.current - 5000;

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
    const { reward, unsettled } = current;
    sending.current = true;
    ledgerBefore.current = ledger?.requestId;
    sentAt.current = Date.now();
    setInFlight(true);
    setError(null);
    void sendMessage('redeem', unsettled ? { rewardId: reward.id, confirmUnsettled: true } : { rewardId: reward.id })
      .then(async (result) => {
        if (result.ok) return close(true);
        const stored = await ledgerItem.getValue();
        if (result.error.kind === 'unsettled') {
          // The background knows of an unknown outcome this popup had not seen: ask again, naming it.
          // Named by its reward alone when this popup never saw the entry (startedAt 0: no time).
          const named = {
            rewardId: reward.id,
            rewardName: reward.name,
            points: reward.reward_point_cost,
            startedAt: 0,
          };
          setConfirming({
            reward,
            unsettled: unsettledFor([stored, ...elsewhere], reward) ?? { ...named, requestId: '', state: 'unknown' },
          });
          return;
        }
        // Refusals the background recorded show in the outcome panel; others (busy) stay here.
        if (isOurs(stored, reward)) close(true);
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
    if (confirming && sending.current && isOurs(ledger, confirming.reward)) close(true);
  }, [ledger, confirming]);

  return {
    confirming,
    inFlight,
    error,
    open: (reward) => {
      // A reward whose cost the panel sent as something it cannot mean is never offered (row-model.ts).
      if (reward.costRefused) return;
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setError(null);
      setConfirming({ reward, unsettled: unsettledFor([ledger, ...elsewhere], reward) });
    },
    cancel: () => close(false),
    confirm,
  };
}
