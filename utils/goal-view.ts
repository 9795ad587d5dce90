import { redeemBlock, type CostQuarantine } from './reward-view';
import type { Goal } from './storage-items';
import type { Reward } from './types';

/** What the goal header says, from the goal, the catalogue and the balance. Pure. */
export type GoalView =
  | { kind: 'none' }
  /** A goal is set, but the catalogue is not read yet (or its read failed): named, nothing said of it. */
  | { kind: 'unread'; name: string }
  /** The reward left the catalogue: shown as no longer offered, with a way to clear it. */
  | { kind: 'gone'; name: string }
  /** Listed, but with a points cost nobody gave or that cannot be right: shown saying why, never offered. */
  | { kind: 'quarantined'; reward: Reward; reason: CostQuarantine }
  /** The balance is unknown: the cost is shown, no progress. */
  | { kind: 'unknown'; reward: Reward; cost: number }
  | { kind: 'saving'; reward: Reward; cost: number; points: number; toGo: number; progress: number }
  | { kind: 'affordable'; reward: Reward; cost: number; points: number; progress: 1 };

export function goalView(input: {
  goal: Goal | null;
  /** The current session's {@link accountOf}; a goal of another account is not shown. */
  account: string;
  rewards: readonly Reward[] | null;
  points: number | null;
}): GoalView {
  const { goal, rewards, points } = input;
  if (!goal || goal.account !== input.account) return { kind: 'none' };
  const reward = rewards?.find((r) => r.id === goal.rewardId);
  // Before the catalogue is read nothing says the reward is gone, nor that no goal is set.
  if (!rewards) return { kind: 'unread', name: goal.rewardName };
  // "No longer offered" only when the catalogue lacks it; a cost it quarantined is said as that.
  if (!reward) return { kind: 'gone', name: goal.rewardName };
  const block = redeemBlock(reward, null);
  if (block?.kind === 'cost-refused' || reward.reward_point_cost === null)
    return { kind: 'quarantined', reward, reason: block?.kind === 'cost-refused' ? block.reason : 'missing' };
  const cost = reward.reward_point_cost;
  if (points === null) return { kind: 'unknown', reward, cost };
  if (points >= cost) return { kind: 'affordable', reward, cost, points, progress: 1 };
  const toGo = cost - points;
  const progress = cost > 0 ? Math.max(0, points) / cost : 0;
  return { kind: 'saving', reward, cost, points, toGo, progress };
}

/** Points still needed for the goal (0 when affordable), or null when there is none to count. */
export function pointsToGoal(view: GoalView): number | null {
  if (view.kind === 'affordable') return 0;
  return view.kind === 'saving' ? view.toGo : null;
}
