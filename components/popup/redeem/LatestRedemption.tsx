import { formatDateTime } from '../../../utils/format';
import { t, tp, type MessageKey } from '../../../utils/i18n';
import { describeState, redemptionState } from '../../../utils/redemption-state';
import type { Redemption, RedemptionState } from '../../../utils/types';
import { failedText } from './failed-text';
import { HistoryLink } from '../HistoryLink';

interface Props {
  redemption: Redemption;
  heading?: string;
}

/** What each state means for the panelist, in plain words, not the panel's status names. */
const MEANING: Record<Exclude<RedemptionState['kind'], 'failed'>, MessageKey> = {
  pending: 'meaningPending',
  approved: 'meaningApproved',
  complete: 'meaningComplete',
  unclaimed: 'meaningUnclaimed',
  refunded: 'meaningRefunded',
  other: 'meaningOther',
};

/** One history entry with its state (utils/redemption-state.ts), what that state means, and the way to the history. */
export function LatestRedemption({ redemption, heading = t('latestRedemption') }: Props) {
  const state = redemptionState(redemption);
  return (
    <section class="latest" aria-label={heading}>
      <p class="muted small">{heading}</p>
      <p class="latest-row">
        <span class="latest-name">{redemption.reward?.name ?? t('rewardNumber', redemption.id)}</span>
        <span class={`state state-${state.kind}`}>{describeState(state)}</span>
      </p>
      <p class="muted small">
        {/* Points the panel gave as no number of points are not said (utils/api/records.ts). */}
        {redemption.reward_point_cost !== null && (
          <>
            <span class="qty">{tp('points', redemption.reward_point_cost)}</span> ·{' '}
          </>
        )}
        <span class="qty">{formatDateTime(redemption.created_at)}</span>
      </p>
      <p class="small">
        {state.kind === 'failed' ? failedText() : t(MEANING[state.kind])} <HistoryLink />
      </p>
    </section>
  );
}
