import seedA from '../sandbox/seed.json';
import type { SandboxSeed } from '../sandbox/server';

/** The second account's ids are shifted by these, so no record of one passes for the other's. */
export const B_OFFSET = 1000;
export const B_REDEMPTION_OFFSET = 100_000;

export const SEED_A = seedA as SandboxSeed;

/** Another panelist on another panel: other rewards, history, balance and name. */
export const SEED_B: SandboxSeed = (() => {
  const seed = structuredClone(SEED_A);
  seed.balance = 9000;
  seed.rewards = seed.rewards.map((r) => ({ ...r, id: r.id + B_OFFSET, name: `B ${r.name}` }));
  seed.redemptions = seed.redemptions.map((r) => ({
    ...r,
    id: r.id + B_REDEMPTION_OFFSET,
    reward: { ...r.reward, id: r.reward.id + B_OFFSET },
  }));
  seed.values = { ...seed.values, FIRST_NAME: 'Robin' };
  return seed;
})();

/** Whether a reward id is the second account's (seeded rewards are 101–110). */
export const isAccountB = (rewardId: number | string): boolean => Number(rewardId) >= B_OFFSET;
/** Whether a redemption id is the second account's (seeded redemptions start at 5001). */
export const isAccountBRedemption = (id: number | string): boolean => Number(id) >= B_REDEMPTION_OFFSET;
