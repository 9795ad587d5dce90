import { formatDateTime, formatPoints } from '../../utils/format';
import { describeState, redemptionState } from '../../utils/redemption-state';
import type { Redemption } from '../../utils/types';

interface Props {
  redemption: Redemption;
  heading?: string;
}

/** One history entry with its state (design §6). */
export function LatestRedemption({ redemption, heading = 'Latest redemption' }: Props) {
  const state = redemptionState(redemption);
  return (
    <section class="latest" aria-label={heading}>
      <p class="muted small">{heading}</p>
      <p class="latest-row">
        <span class="latest-name">{redemption.reward?.name ?? `Reward #${redemption.id}`}</span>
        <span class={`state state-${state.kind}`}>{describeState(state)}</span>
      </p>
      <p class="muted small">
        {formatPoints(redemption.reward_point_cost)} points · {formatDateTime(redemption.created_at)}
      </p>
    </section>
  );
}
