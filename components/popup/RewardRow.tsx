import { useState } from 'preact/hooks';
import { formatMoney, formatPoints } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { kindLabel, rewardProgress } from '../../utils/reward-view';
import type { Reward } from '../../utils/types';
import { GoalButton } from './GoalButton';
import { LazyDetails } from './LazyDetails';
import { RewardImage } from './RewardImage';

interface Props {
  reward: Reward;
  balance: number | null;
  /** Why no redemption can start now (another one is pending), or null. */
  blocked: string | null;
  onRedeem: (reward: Reward) => void;
}

export function RewardRow({ reward, balance, blocked, onRedeem }: Props) {
  const [open, setOpen] = useState(false);
  const cost = reward.reward_point_cost;
  const progress = rewardProgress(balance, cost);
  const base = `reward-${reward.id}`;
  const short = progress.affordable === false ? tp('needMorePoints', progress.missing ?? 0) : null;
  // Being short is the reason that lasts; a pending redemption is only a wait.
  const caption = short
    ? { id: `${base}-need`, text: short, tone: 'muted' }
    : blocked
      ? { id: `${base}-wait`, text: blocked, tone: 'muted' }
      : progress.affordable
        ? { id: `${base}-need`, text: t('enoughPoints'), tone: 'ok' }
        : null;
  const disabled = short !== null || blocked !== null;
  // What the bar shows as covered: nothing while the balance is below zero.
  const covered = balance !== null && cost !== null ? Math.max(0, Math.min(balance, cost)) : 0;
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
          {balance !== null && cost !== null && (
            <progress
              value={covered}
              max={Math.max(cost, 1)}
              aria-label={tp('progressPoints', cost, formatPoints(covered))}
            />
          )}
          <div class="reward-foot">
            <span id={caption?.id} class={`small ${caption?.tone ?? ''}`}>
              {caption?.text}
            </span>
            <button
              type="button"
              class="btn btn-quiet btn-small"
              aria-expanded={open}
              aria-controls={`${base}-details`}
              aria-label={t('detailsFor', reward.name)}
              onClick={() => setOpen(!open)}
            >
              {t('detailsButton')}
            </button>
            <GoalButton reward={reward} />
            <button
              type="button"
              class="btn btn-primary btn-small"
              aria-label={t('redeemReward', reward.name)}
              aria-describedby={disabled ? caption?.id : undefined}
              disabled={disabled}
              onClick={() => onRedeem(reward)}
            >
              {t('redeemButton')}
            </button>
          </div>
        </div>
      </div>
      <div id={`${base}-details`} hidden={!open}>
        {open && <LazyDetails reward={reward} />}
      </div>
    </li>
  );
}
