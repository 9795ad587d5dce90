import { formatMoney, formatPoints } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { kindLabel, rewardImage, rewardProgress } from '../../utils/reward-view';
import type { Reward } from '../../utils/types';
import { REDEEM_WAIT_ID } from './outcome-ids';

/**
 * Every word and flag of one reward row (components/popup/frame-fill.ts): RewardRow and the first
 * frame render it.
 * - `blocked`: another redemption is pending; the one banner above the list says so (issue 14), not each row.
 * - `goal`: this reward is the account's goal.
 * - `open`: its details are shown.
 */
export function rowModel(reward: Reward, balance: number | null, blocked: boolean, goal: boolean, open = false) {
  const cost = reward.reward_point_cost;
  const progress = rewardProgress(balance, cost);
  const base = `reward-${reward.id}`;
  const short = progress.affordable === false ? tp('needMorePoints', progress.missing ?? 0) : null;
  const disabled = short !== null || blocked;
  // What the bar shows as covered: nothing while the balance is below zero.
  const covered = balance !== null && cost !== null ? Math.max(0, Math.min(balance, cost)) : 0;
  // Being short is the reason that lasts; a pending redemption is only a wait.
  const reason = short ? `${base}-need` : blocked ? REDEEM_WAIT_ID : null;
  return {
    base,
    image: rewardImage(reward),
    name: reward.name,
    kind: kindLabel(reward),
    money: formatMoney(reward.cost, reward.cost_currency),
    points: cost === null ? null : tp('points', cost),
    // A bar only where it says something: on affordable rows every bar would be full.
    bar:
      short && balance !== null && cost !== null
        ? { value: covered, max: Math.max(cost, 1), label: tp('progressPoints', cost, formatPoints(covered)) }
        : null,
    status: {
      id: short ? `${base}-need` : null,
      class: `small ${short ? 'muted' : progress.affordable ? 'ok' : ''}`,
      text: short ?? (progress.affordable ? t('enoughPoints') : ''),
    },
    details: { open, label: t(open ? 'hideDetailsFor' : 'detailsFor', reward.name), text: t(open ? 'hideDetails' : 'detailsButton') },
    goal: { label: t(goal ? 'removeGoal' : 'setGoal', reward.name), text: t(goal ? 'removeGoalShort' : 'setGoalShort') },
    redeem: { label: t('redeemReward', reward.name), text: t('redeemButton'), disabled, describedBy: disabled ? reason : null },
  };
}

export type RowModel = ReturnType<typeof rowModel>;
