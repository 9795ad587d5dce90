import type { LedgerEntry } from '../../../utils/storage-items';
import type { RewardId } from '../../../utils/ids';

/**
 * Redemptions the history has not settled that the outcome card no longer shows (a newer redeem
 * took the card, or the worker restarted), newest first: each stays in view until a history read
 * settles it, whatever happened to its card.
 */
export function openElsewhere(
  latest: LedgerEntry | null | undefined,
  unsettled: readonly LedgerEntry[] | null | undefined,
): LedgerEntry[] {
  return (unsettled ?? [])
    .filter((entry) => entry.requestId !== latest?.requestId)
    .sort((a, b) => b.startedAt - a.startedAt);
}

/**
 * Rewards whose Redeem waits for the history: the card's own unknown outcome and every open one it
 * no longer shows. A pending card holds every reward already (one redeem at a time).
 */
export function heldRewards(latest: LedgerEntry | null | undefined, elsewhere: readonly LedgerEntry[]): RewardId[] {
  return [...(latest?.state === 'unknown' ? [latest.rewardId] : []), ...elsewhere.map((entry) => entry.rewardId)];
}
