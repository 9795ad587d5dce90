import { formatPoints } from '../../utils/format';
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
        <LatestRedemption redemption={entry.redemption} heading="New history entry" />
      )}
      {!pending && (
        <button type="button" class="btn" onClick={onDismiss}>
          Close
        </button>
      )}
    </section>
  );
}

function title(entry: LedgerEntry): string {
  switch (entry.state) {
    case 'pending':
      return `Redeeming ${entry.rewardName}…`;
    case 'done':
      return `Redeemed ${entry.rewardName}`;
    case 'failed':
      return `Could not redeem ${entry.rewardName}`;
    case 'unknown':
      return 'Outcome unknown — check your history';
  }
}

function body(entry: LedgerEntry, balance: number | null) {
  if (entry.state === 'pending') {
    return <p>This finishes even if the popup closes.</p>;
  }
  if (entry.state === 'done') {
    const after = entry.balanceAfter ?? balance;
    return after === null || after === undefined ? null : <p>Your balance is now {formatPoints(after)} points.</p>;
  }
  if (entry.state === 'failed') {
    const message = entry.error?.message ?? 'The panel did not accept the redemption.';
    return (
      <p>
        {message}
        {entry.error?.nothingCharged ? ' Nothing was charged.' : ' Check your history before trying again.'}
      </p>
    );
  }
  return (
    <p>
      The panel did not say whether {entry.rewardName} was redeemed. If it went through, it appears in your
      history; check there before redeeming again.
    </p>
  );
}
