import { useState } from 'preact/hooks';
import { formatMoney, formatPoints } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { kindLabel, rewardProgress } from '../../utils/reward-view';
import type { Reward } from '../../utils/types';
import { GoalButton } from './GoalButton';
import { LazyDetails } from './LazyDetails';
import { REDEEM_WAIT_ID } from './outcome-ids';
import { RewardImage } from './RewardImage';

interface Props {
  reward: Reward;
  balance: number | null;
  /** Another redemption is pending: the one banner above the list says so (issue 14), not each row. */
  blocked: boolean;
  onRedeem: (reward: Reward) => void;
}

export function RewardRow({ reward, balance, blocked, onRedeem }: Props) {
  const [open, setOpen] = useState(false);
  const cost = reward.reward_point_cost;
  const progress = rewardProgress(balance, cost);
  const base = `reward-${reward.id}`;
  const short = progress.affordable === false ? tp('needMorePoints', progress.missing ?? 0) : null;
  const disabled = short !== null || blocked;
  // What the bar shows as covered: nothing while the balance is below zero.
  const covered = balance !== null && cost !== null ? Math.max(0, Math.min(balance, cost)) : 0;
  // Being short is the reason that lasts; a pending redemption is only a wait.
  const reason = short ? `${base}-need` : blocked ? REDEEM_WAIT_ID : undefined;
  const redeem = {
    label: t('redeemReward', reward.name),
    disabled,
    describedBy: reason,
    onClick: () => onRedeem(reward),
  };
  return (
    <li class="reward">
      <div class="reward-main">
        <RewardImage reward={reward} />
        <div class="reward-body">
          <h3 class="reward-name">{reward.name}</h3>
          <p class="reward-meta">
            <span class="tag">{kindLabel(reward)}</span> {formatMoney(reward.cost, reward.cost_currency)}
            {cost !== null && (
              <>
                {' · '}
                <strong>{tp('points', cost)}</strong>
              </>
            )}
          </p>
          {/* A bar only where it says something: on affordable rows every bar would be full. */}
          {short && balance !== null && cost !== null && (
            <progress value={covered} max={Math.max(cost, 1)} aria-label={tp('progressPoints', cost, formatPoints(covered))} />
          )}
          <div class="reward-foot">
            <span id={short ? `${base}-need` : undefined} class={`small ${short ? 'muted' : progress.affordable ? 'ok' : ''}`}>
              {short ?? (progress.affordable ? t('enoughPoints') : '')}
            </span>
            <button
              type="button"
              class="btn btn-quiet btn-small"
              aria-expanded={open}
              aria-controls={`${base}-details`}
              aria-label={t(open ? 'hideDetailsFor' : 'detailsFor', reward.name)}
              onClick={() => setOpen(!open)}
            >
              {t(open ? 'hideDetails' : 'detailsButton')}
            </button>
            <GoalButton reward={reward} />
            <RedeemButton {...redeem} />
          </div>
        </div>
      </div>
      <div id={`${base}-details`} hidden={!open}>
        {open && <LazyDetails reward={reward} redeem={<RedeemButton {...redeem} />} />}
      </div>
    </li>
  );
}

interface RedeemProps {
  label: string;
  disabled: boolean;
  describedBy: string | undefined;
  onClick: () => void;
}

function RedeemButton({ label, disabled, describedBy, onClick }: RedeemProps) {
  return (
    <button
      type="button"
      class="btn btn-primary btn-small"
      aria-label={label}
      aria-describedby={disabled ? describedBy : undefined}
      disabled={disabled}
      onClick={onClick}
    >
      {t('redeemButton')}
    </button>
  );
}
