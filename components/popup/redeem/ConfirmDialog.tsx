import { useLayoutEffect, useRef } from 'preact/hooks';
import type { AppError } from '../../../utils/errors';
import { t, tp } from '../../../utils/i18n';
import type { LedgerEntry } from '../../../utils/storage-items';
import './dialog.css';
import type { Reward } from '../../../utils/types';
import { asSentence, sentences } from '../../../utils/sentences';
import { rewardProgress } from '../../../utils/reward-view';
import { asName } from '../../../utils/qty';
import { Qty } from '../Qty';
import { clockTime } from '../when';

interface Props {
  reward: Reward;
  /** The points cost stated, and sent: never one nobody gave (redeem-model.ts). */
  cost: number;
  /** The same reward's earlier redemption, still being checked: named, and confirmed knowingly. */
  unsettled?: LedgerEntry | null | undefined;
  balance: number | null;
  /** A redemption is pending in the ledger or this popup's request is still out. */
  busy: boolean;
  error: AppError | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/** States the cost and the balance after; the panelist must say yes before anything is sent. */
export function ConfirmDialog({ reward, cost, unsettled, balance, busy, error, onConfirm, onCancel }: Props) {
  const dialog = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const cancelNow = useRef(onCancel);
  cancelNow.current = onCancel;
  // Layout effects run before the dialog can be seen: an Escape pressed the moment it shows
  // must not find focus stranded on the now-inert page behind it.
  useLayoutEffect(() => {
    // The least harmful choice gets focus, so a stray Enter never redeems.
    cancel.current?.focus();
    // Escape is heard from the whole page, wherever focus happens to be.
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      cancelNow.current();
    };
    document.addEventListener('keydown', onEscape);
    return () => document.removeEventListener('keydown', onEscape);
  }, []);

  // A known balance short of the cost (the price rose, or the balance fell, since Redeem was
  // pressed): said as the row says it, and Confirm is off, never "Your balance will be -150 points".
  const { affordable, missing } = rewardProgress(balance, cost);
  const short = affordable === false ? missing : null;
  const after =
    balance === null
      ? t('confirmBalanceUnknown')
      : short !== null
        ? asSentence(tp('needMorePoints', short))
        : tp('confirmBalanceAfter', balance - cost);

  // Not `disabled`: a disabled button drops the focus the panelist pressed it with, to the body
  // behind the inert page, and a refusal that keeps the dialog open (a new cost, busy) finds none.
  const off = busy || short !== null;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Tab') trapTab(e, dialog.current);
  };

  return (
    <div class="overlay">
      <div
        ref={dialog}
        class="dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby={unsettled ? 'confirm-unsettled confirm-text' : 'confirm-text'}
        onKeyDown={onKeyDown}
      >
        <h2 id="confirm-title">{t(unsettled ? 'confirmAgainTitle' : 'confirmTitle')}</h2>
        {unsettled && (
          <p id="confirm-unsettled" class="warn-text">
            <Qty
              text={sentences(
                unsettled.startedAt
                  ? t('unsettledSent', asName(unsettled.rewardName), clockTime(unsettled.startedAt))
                  : t('unsettledSentEarlier', asName(unsettled.rewardName)),
                tp('unsettledRisk', unsettled.points ?? cost),
              )}
            />
          </p>
        )}
        <p id="confirm-text">
          <Qty text={sentences(tp('confirmQuestion', cost, asName(reward.name)), after)} />
        </p>
        {busy && (
          <p class="muted" role="status">
            {t('confirmInProgress')}
          </p>
        )}
        {error && (
          <p class="error" role="alert">
            {error.message}
          </p>
        )}
        <div class="dialog-actions">
          <button ref={cancel} type="button" class="btn" onClick={onCancel}>
            {t('cancel')}
          </button>
          <button
            type="button"
            class="btn btn-primary"
            aria-label={t(unsettled ? 'confirmRedeemingAgain' : 'confirmRedeeming', reward.name)}
            aria-disabled={off}
            onClick={off ? undefined : onConfirm}
          >
            {t('confirmButton')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** Keeps Tab inside the dialog; the page behind it is inert as well. */
function trapTab(e: KeyboardEvent, root: HTMLElement | null): void {
  const focusable = Array.from(root?.querySelectorAll<HTMLElement>('button:not([disabled])') ?? []);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
