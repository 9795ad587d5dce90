import { formatPoints } from '../../utils/format';
import { recordedAgainText } from '../../utils/recorded-again';
import { t, tp } from '../../utils/i18n';
import type { LedgerEntry } from '../../utils/storage-items';
import { gap } from '../../utils/sentences';
import { HistoryLink } from './HistoryLink';
import { LatestRedemption } from './LatestRedemption';
import { lazyView } from './lazy-view';

import { OUTCOME_ID, REDEEM_WAIT_ID } from './outcome-ids';

interface Props {
  entry: LedgerEntry;
  balance: number | null;
  now: number;
  onDismiss: () => void;
  /** Opens the confirmation for the entry's reward again (after not_found, while the points allow). */
  onRedeemAgain?: (() => void) | undefined;
}

/**
 * The ledger entry, which the background keeps: it survives the popup closing mid-request, so
 * this is what the panelist sees on reopening. An unknown outcome is never told as a failure: the
 * background is still checking the history (issue 10).
 */
export function RedeemOutcome({ entry, balance, now, onDismiss, onRedeemAgain }: Props) {
  const { state } = entry;
  const pending = state === 'pending';
  const settled = state === 'done' || state === 'failed' || state === 'not_found';
  // One Confirm the panel recorded more than once (issue 17) is a warning, not a plain success.
  const again = state === 'done' && (entry.duplicates?.length ?? 0) > 0;
  const tone = state === 'done' && !again ? 'ok' : state === 'failed' ? 'error' : pending ? 'info' : 'warn';
  return (
    <section
      id={OUTCOME_ID}
      class={`notice notice-${tone}`}
      tabIndex={-1}
      aria-labelledby={`${OUTCOME_ID}-title`}
      aria-busy={pending}
    >
      <div role={state === 'failed' ? 'alert' : 'status'}>
        <p id={`${OUTCOME_ID}-title`}>
          <strong>{title(entry)}</strong>
        </p>
        {body(entry, balance)}
      </div>
      {state === 'done' && entry.redemption && <LatestRedemption redemption={entry.redemption} heading={t('newHistoryEntry')} />}
      {state === 'unknown' && <LazyCheckNow entry={entry} now={now} />}
      {settled && (
        <div class="notice-actions">
          {onRedeemAgain && (
            <button type="button" class="btn" aria-label={t('redeemAgainFor', entry.rewardName)} onClick={onRedeemAgain}>
              {t('redeemAgain')}
            </button>
          )}
          <button type="button" class="btn btn-quiet" onClick={onDismiss}>
            {t('close')}
          </button>
        </div>
      )}
    </section>
  );
}

function title(entry: LedgerEntry): string {
  switch (entry.state) {
    case 'pending':
      return t('outcomePending', entry.rewardName);
    case 'done':
      return t('outcomeDone', entry.rewardName);
    case 'failed':
      return t('outcomeFailed', entry.rewardName);
    case 'unknown':
      return t('outcomeUnknown', entry.rewardName);
    case 'not_found':
      return t('outcomeNotFound', entry.rewardName);
  }
}

function body(entry: LedgerEntry, balance: number | null) {
  switch (entry.state) {
    case 'pending':
      return (
        <>
          <p>{t('outcomePendingText')}</p>
          <p id={REDEEM_WAIT_ID}>{t('waitForRedemption')}</p>
        </>
      );
    case 'done': {
      const after = entry.balanceAfter ?? balance;
      const copies = 1 + (entry.duplicates?.length ?? 0);
      return (
        <>
          {copies > 1 && <p>{recordedAgainText(copies, entry.points)}</p>}
          {after === null || after === undefined ? null : <p>{tp('balanceNow', after)}</p>}
        </>
      );
    }
    case 'failed': {
      const said = refusal(entry, balance);
      return (
        <p>
          {said}
          {gap(said)}
          {entry.error?.nothingCharged ? (
            t('nothingCharged')
          ) : (
            <HistoryLink sentence={t('checkHistoryFirst')} />
          )}
        </p>
      );
    }
    case 'not_found':
      return <p>{t('outcomeNotFoundText')}</p>;
    case 'unknown':
      return null;
  }
}

/**
 * The panelist's own numbers when the points fell short (issue 14): after a refusal the background
 * reads the balance again, so "You have 300 points; this reward needs 1,000" holds even when the
 * panel's own message is raw or in another language.
 */
export function refusal(entry: LedgerEntry, balance: number | null): string {
  const have = entry.balanceAfter ?? balance;
  if (have !== null && have !== undefined && entry.points !== null && have < entry.points) {
    return t('outcomeShort', tp('points', have), formatPoints(entry.points));
  }
  return entry.error?.message ?? t('outcomeRefused');
}

/**
 * Only an unknown outcome has its explanation, the check times and "Check now": their code (and
 * the time formats) load with it, outside the first load, their height kept meanwhile.
 */
const { Lazy: LazyCheckNow } = lazyView<{ entry: LedgerEntry; now: number }>(
  () => import('./CheckNow').then((m) => m.CheckNow),
  () => <div class="check-now" />,
);
