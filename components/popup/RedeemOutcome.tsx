import { t, tp } from '../../utils/i18n';
import type { LedgerEntry } from '../../utils/storage-items';
import { LatestRedemption } from './LatestRedemption';

export const OUTCOME_ID = 'redeem-outcome';

interface Props {
  entry: LedgerEntry;
  balance: number | null;
  onDismiss: () => void;
}

/**
 * The ledger entry, which the background keeps: it survives the popup closing mid-request, so
 * this is what the panelist sees on reopening.
 */
export function RedeemOutcome({ entry, balance, onDismiss }: Props) {
  const pending = entry.state === 'pending';
  const tone = entry.state === 'done' ? 'ok' : entry.state === 'failed' ? 'error' : pending ? 'info' : 'warn';
  return (
    <section
      id={OUTCOME_ID}
      class={`notice notice-${tone}`}
      tabIndex={-1}
      aria-labelledby={`${OUTCOME_ID}-title`}
      aria-busy={pending}
    >
      <div role={entry.state === 'failed' ? 'alert' : 'status'}>
        <p id={`${OUTCOME_ID}-title`}>
          <strong>{title(entry)}</strong>
        </p>
        {body(entry, balance)}
      </div>
      {entry.state === 'done' && entry.redemption && (
        <LatestRedemption redemption={entry.redemption} heading={t('newHistoryEntry')} />
      )}
      {!pending && (
        <button type="button" class="btn" onClick={onDismiss}>
          {t('close')}
        </button>
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
      return t('outcomeUnknown');
    case 'not_found':
      return t('outcomeNotFound', entry.rewardName);
  }
}

function body(entry: LedgerEntry, balance: number | null) {
  if (entry.state === 'pending') {
    return <p>{t('outcomePendingText')}</p>;
  }
  if (entry.state === 'done') {
    const after = entry.balanceAfter ?? balance;
    return after === null || after === undefined ? null : <p>{tp('balanceNow', after)}</p>;
  }
  if (entry.state === 'failed') {
    const message = entry.error?.message ?? t('outcomeRefused');
    return (
      <p>
        {message} {t(entry.error?.nothingCharged ? 'nothingCharged' : 'checkHistoryFirst')}
      </p>
    );
  }
  if (entry.state === 'not_found') return <p>{t('outcomeNotFoundText')}</p>;
  return <p>{t('outcomeUnknownText', entry.rewardName)}</p>;
}
