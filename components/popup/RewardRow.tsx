import { useContext, useState } from 'preact/hooks';
import { send as sendMessage } from './send';
import type { Reward } from '../../utils/types';
import { GoalContext } from './goal-context';
import { LazyDetails } from './LazyDetails';
import { RewardImage } from './RewardImage';
import { rowModel, type RowModel } from './row-model';

interface Props {
  reward: Reward;
  balance: number | null;
  /** Another redemption is pending: the one banner above the list says so (issue 14), not each row. */
  blocked: boolean;
  onRedeem: (reward: Reward) => void;
}

export function RewardRow({ reward, balance, blocked, onRedeem }: Props) {
  const [open, setOpen] = useState(false);
  const isGoal = useContext(GoalContext) === reward.id;
  return (
    <RowView
      m={rowModel(reward, balance, blocked, isGoal, open)}
      reward={reward}
      onToggle={() => setOpen(!open)}
      // The background stores the choice, which the popup then shows.
      onGoal={() => void sendMessage('setGoal', { rewardId: isGoal ? null : reward.id }).catch(() => undefined)}
      onRedeem={() => onRedeem(reward)}
    />
  );
}

interface ViewProps {
  m: RowModel;
  /** Absent in the first frame's template, which has no details to show. */
  reward?: Reward;
  onToggle?: () => void;
  onGoal?: () => void;
  onRedeem?: () => void;
}

/** One row's markup, from its model alone: the first frame's template renders it too (issue 19). */
export function RowView({ m, reward, onToggle, onGoal, onRedeem }: ViewProps) {
  const redeem = <RedeemButton {...m.redeem} onClick={onRedeem} />;
  return (
    <li class="reward">
      <div class="reward-main">
        <RewardImage image={m.image} reward={reward} />
        <div class="reward-body">
          <h3 class="reward-name">{m.name}</h3>
          <p class="reward-meta">
            <span class="tag">{m.kind}</span> {m.money}
            {m.points !== null && (
              <>
                {' · '}
                <strong>{m.points}</strong>
              </>
            )}
          </p>
          {m.bar && <progress value={m.bar.value} max={m.bar.max} aria-label={m.bar.label} />}
          <div class="reward-foot">
            <span id={m.status.id ?? undefined} class={m.status.class}>
              {m.status.text}
            </span>
            <button
              type="button"
              class="btn btn-quiet btn-small"
              aria-expanded={m.details.open}
              aria-controls={`${m.base}-details`}
              aria-label={m.details.label}
              onClick={onToggle}
            >
              {m.details.text}
            </button>
            <button type="button" class="btn btn-quiet btn-small" aria-label={m.goal.label} onClick={onGoal}>
              {m.goal.text}
            </button>
            {redeem}
          </div>
        </div>
      </div>
      <div id={`${m.base}-details`} hidden={!m.details.open}>
        {m.details.open && reward && <LazyDetails reward={reward} redeem={redeem} />}
      </div>
    </li>
  );
}

function RedeemButton({ label, text, disabled, describedBy, onClick }: RowModel['redeem'] & { onClick?: (() => void) | undefined }) {
  return (
    <button
      type="button"
      class="btn btn-primary btn-small"
      aria-label={label}
      aria-describedby={describedBy ?? undefined}
      disabled={disabled}
      onClick={onClick}
    >
      {text}
    </button>
  );
}
