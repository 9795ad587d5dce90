import { formatDateTime } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { describeState, redemptionState } from '../../utils/redemption-state';
import type { Redemption } from '../../utils/types';

interface Props {
  redemption: Redemption;
  heading?: string;
}

/** One history entry with its state (design §6). */
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
        {tp('points', redemption.reward_point_cost)} · {formatDateTime(redemption.created_at)}
      </p>
    </section>
  );
}
