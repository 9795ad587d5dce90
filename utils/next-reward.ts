import { rewardProgress } from './reward-view';
import type { Reward } from './types';

/**
 * The reward the panelist is closest to without affording it yet, for "800 points to Greenleaf
 * €30" under the balance; null when the balance is unknown or every reward is affordable.
 */
export function nextReward(
  rewards: readonly Reward[],
  balance: number | null,
): { reward: Reward; missing: number } | null {
  let best: { reward: Reward; missing: number } | null = null;
  for (const reward of rewards) {
    const { affordable, missing } = rewardProgress(balance, reward.reward_point_cost);
    if (affordable !== false || missing === null) continue;
    if (
      !best ||
      missing < best.missing ||
      (missing === best.missing && reward.name.localeCompare(best.reward.name) < 0)
    ) {
      best = { reward, missing };
    }
  }
  return best;
}
