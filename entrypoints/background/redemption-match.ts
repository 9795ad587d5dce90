import { parseApiTimestamp } from '../../utils/format';
import type { LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';

/** Server clocks drift: a redemption stamped this long before our start still counts as ours. */
export const CLOCK_SKEW_MS = 2 * 60_000;

/**
 * Which history entry each redemption made, for outcomes whose answer was lost. A redemption
 * counts for an entry when it is of the entry's reward, was not in the history when the entry
 * started, is not older than that start, and no other entry took it: entries are served oldest
 * first, each the oldest redemption left, so two unsettled redemptions of one reward never claim
 * the same one.
 */
export function claimRedemptions(
  entries: readonly LedgerEntry[],
  history: readonly Redemption[],
  alreadyClaimed: ReadonlySet<number> = new Set(),
): Map<string, Redemption> {
  const taken = new Set(alreadyClaimed);
  const claims = new Map<string, Redemption>();
  for (const entry of [...entries].sort((a, b) => a.startedAt - b.startedAt)) {
    const known = new Set(entry.knownRedemptionIds ?? []);
    const match = history
      .filter((r) => r.reward.id === entry.rewardId && !known.has(r.id) && !taken.has(r.id))
      .filter((r) => (parseApiTimestamp(r.created_at) ?? 0) >= entry.startedAt - CLOCK_SKEW_MS)
      .sort((a, b) => a.id - b.id)[0];
    if (!match) continue;
    taken.add(match.id);
    claims.set(entry.requestId, match);
  }
  return claims;
}
