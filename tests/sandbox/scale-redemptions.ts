/** Synthesized redemption history for scaled seeds, spread over every state of design §6. */
import type { Redemption, Reward } from './types';
import { formatTimestamp } from './clock';
import type { Random } from './random';

type StateFlags = Pick<
  Redemption,
  'approved' | 'processed' | 'failed' | 'refunded' | 'partner_status' | 'failed_reason'
>;

const BASE: StateFlags = {
  approved: true,
  processed: false,
  failed: false,
  refunded: false,
  partner_status: null,
  failed_reason: null,
};

/** Cumulative shares: old history is mostly complete, a little of everything else. */
const STATES: [number, StateFlags][] = [
  [0.6, { ...BASE, processed: true, partner_status: 'COMPLETE' }],
  [0.7, { ...BASE, partner_status: 'COMPLETE' }],
  [0.78, { ...BASE, partner_status: 'UNCLAIMED' }],
  [0.86, { ...BASE, failed: true, failed_reason: 'Gift card out of stock for this denomination' }],
  [
    0.92,
    { ...BASE, failed: true, refunded: true, failed_reason: 'The provider rejected the order; points were returned.' },
  ],
  [0.95, { ...BASE, partner_status: 'IN_REVIEW' }],
  [0.98, BASE],
  [1, { ...BASE, approved: false }],
];

const HOUR_MS = 3_600_000;

/**
 * `count` redemptions ending just before `before`, oldest first, with ids left at 0 for the
 * caller to number once the whole history is assembled.
 */
export function synthesizeHistory(count: number, rewards: Reward[], before: Date, random: Random): Redemption[] {
  const history: Redemption[] = [];
  let at = before.getTime();
  for (let index = 0; index < count; index += 1) {
    at -= random.int(1, 12) * HOUR_MS + random.int(0, 3599) * 1000;
    const reward = rewards[index % rewards.length];
    if (!reward) throw new Error('Scaled history needs at least one reward');
    const roll = random.next();
    const flags = (STATES.find(([share]) => roll < share) ?? STATES[0])?.[1] ?? BASE;
    const updated = at + random.int(0, 48) * HOUR_MS;
    history.push({
      id: 0,
      cost: reward.cost,
      currency: reward.cost_currency,
      reward_point_cost: reward.reward_point_cost ?? 0,
      reward: { ...structuredClone(reward), reward_point_cost: null },
      created_at: formatTimestamp(new Date(at)),
      updated_at: formatTimestamp(new Date(Math.min(updated, before.getTime()))),
      transaction_id: null,
      ...flags,
    });
  }
  return history.reverse();
}
