/**
 * Larger seeds for benchmarks. Each list starts with the default seed's entries (so the
 * realistic hand-written data is always present) and is extended with synthesized ones; every
 * run gives the same output for the same counts.
 */
import type { StoredValues } from '../../utils/types';
import type { Redemption } from './types';
import { seededRandom } from './random';
import { synthesizeHistory } from './scale-redemptions';
import { synthesizeReward } from './scale-rewards';
import { synthesizeValue, synthesizeVariable } from './scale-variables';
import { loadDefaultSeed } from './state';
import type { SandboxSeed } from './types';

export interface ScaleCounts {
  /** Defaults to the default seed's count; likewise for the others. */
  rewards?: number;
  variables?: number;
  redemptions?: number;
}

const maxId = (items: { id: number }[]): number => items.reduce((max, item) => Math.max(max, item.id), 0);

export function makeScaledSeed(counts: ScaleCounts): SandboxSeed {
  const base = loadDefaultSeed();
  // One generator per list, so changing one count leaves the other lists unchanged.
  const rewardRandom = seededRandom(0x5eed0001);
  const variableRandom = seededRandom(0x5eed0002);
  const historyRandom = seededRandom(0x5eed0003);

  const rewardCount = counts.rewards ?? base.rewards.length;
  const rewards = base.rewards.slice(0, rewardCount);
  const firstRewardId = maxId(base.rewards) + 1;
  for (let index = 0; rewards.length < rewardCount; index += 1) {
    rewards.push(synthesizeReward(firstRewardId + index, index, rewardRandom));
  }

  const variableCount = counts.variables ?? base.variables.length;
  const variables = base.variables.slice(0, variableCount);
  const values: StoredValues = {};
  for (const variable of variables) {
    const stored = base.values[variable.name];
    if (stored !== undefined) values[variable.name] = stored;
  }
  const firstVariableId = maxId(base.variables) + 1;
  for (let index = 0; variables.length < variableCount; index += 1) {
    const variable = synthesizeVariable(firstVariableId + index, index, variableRandom);
    variables.push(variable);
    const value = synthesizeValue(variable, variableRandom);
    if (value !== undefined) values[variable.name] = value;
  }

  return {
    balance: base.balance,
    rewards,
    variables,
    values,
    redemptions: scaleHistory(base.redemptions, counts.redemptions ?? base.redemptions.length, rewards, historyRandom),
  };
}

/**
 * Up to the seed's own length, the seed's history as is. Beyond it, older synthesized entries
 * come first and the seed's entries stay the newest; ids are then renumbered 1…N in time
 * order, since the seed's ids leave no room below them for thousands of older entries.
 */
function scaleHistory(
  seeded: Redemption[],
  count: number,
  rewards: SandboxSeed['rewards'],
  random: ReturnType<typeof seededRandom>,
): Redemption[] {
  if (count <= seeded.length) return seeded.slice(0, count);
  const oldest = seeded[0]?.created_at ?? '2025-01-01T00:00:00';
  const older = synthesizeHistory(count - seeded.length, rewards, new Date(`${oldest}Z`), random);
  return [...older, ...seeded].map((redemption, index) => ({ ...redemption, id: index + 1 }));
}
