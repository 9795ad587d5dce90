import { redeemBlock } from './reward-view';
import type { Reward } from './types';

/**
 * The reward the panelist is closest to without affording it yet, for "800 points to Greenleaf
 * €30" under the balance; null when the balance is unknown or every reward is affordable. Only a
 * reward the one rule (redeemBlock) holds back for its points alone: a quarantined cost is never
 * a goal in sight.
 */
export function nextReward(
  rewards: readonly Reward[],
  balance: number | null,
): { reward: Reward; missing: number } | null {
  let best: { reward: Reward; missing: number } | null = null;
  for (const reward of rewards) {
    const block = redeemBlock(reward, balance);
    if (block?.kind !== 'short') continue;
    const { missing } = block;
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
