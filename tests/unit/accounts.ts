import seedA from '../sandbox/seed.json';
import type { SandboxSeed } from '../sandbox/server';

/** Ids of the second account's rewards and redemptions start here, so no record of one passes for the other's. */
export const B_OFFSET = 1000;

export const SEED_A = seedA as SandboxSeed;

/** Another panelist on another panel: other rewards, history, balance and name. */
export const SEED_B: SandboxSeed = (() => {
  const seed = structuredClone(SEED_A);
  seed.balance = 9000;
  seed.rewards = seed.rewards.map((r) => ({ ...r, id: r.id + B_OFFSET, name: `B ${r.name}` }));
  seed.redemptions = seed.redemptions.map((r) => ({ ...r, id: r.id + B_OFFSET, reward: { ...r.reward, id: r.reward.id + B_OFFSET } }));
  seed.values = { ...seed.values, FIRST_NAME: 'Robin' };
  return seed;
})();

export const isAccountB = (id: number): boolean => id >= B_OFFSET;
