import { redemptionIdOf, rewardIdOf, type RedemptionId, type RewardId } from '../../utils/ids';
import type { Redemption as SandboxRedemption } from '../sandbox/types';
import type { Redemption } from '../../utils/types';
import { instantOf, type Instant } from '../../utils/instants';

/** A reward id as the extension holds it (utils/ids.ts), from the number a fixture or the sandbox uses. */
export const rid = (id: number | string): RewardId => rewardIdOf(id)!;
/** A redemption id as the extension holds it, from the number a fixture or the sandbox uses. */
export const did = (id: number | string): RedemptionId => redemptionIdOf(id)!;

/** A sandbox redemption (JSON numbers for ids) as the API client parses it. */
export function parsed(r: SandboxRedemption): Redemption {
  return { ...r, id: did(r.id), reward: { ...r.reward, id: rid(r.reward.id) }, created_at: at(r.created_at) };
}

/** A timestamp as the extension holds it (utils/instants.ts), from the text a fixture or the sandbox writes. */
export const at = (text: string): Instant => {
  const instant = instantOf(text);
  if (!instant) throw new Error(`not a timestamp: ${text}`);
  return instant;
};
