import { parseApiTimestamp } from '../../utils/format';
import type { LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';

/** Server clocks drift: a redemption stamped this long before our start still counts as ours. */
export const CLOCK_SKEW_MS = 2 * 60_000;

/**
 * Which history entry each redemption made. A redemption counts for an entry when it is of the
 * entry's reward, was not in the history when the entry started, is not older than that start, and
 * no other entry took it. Entries the panel confirmed certainly made one, so they choose first,
 * the newest; entries whose answer was lost then take what is left, oldest entry first, each the
 * oldest redemption. Two entries never claim the same redemption.
 */
export function claimRedemptions(
  entries: { confirmed?: readonly LedgerEntry[]; open: readonly LedgerEntry[] },
  history: readonly Redemption[],
  alreadyClaimed: ReadonlySet<number> = new Set(),
): Map<string, Redemption> {
  const taken = new Set(alreadyClaimed);
  const claims = new Map<string, Redemption>();
  const claim = (entry: LedgerEntry, newest: boolean) => {
    const known = new Set(entry.knownRedemptionIds ?? []);
    const match = history
      .filter((r) => r.reward.id === entry.rewardId && !known.has(r.id) && !taken.has(r.id))
      .filter((r) => (parseApiTimestamp(r.created_at) ?? 0) >= entry.startedAt - CLOCK_SKEW_MS)
      .sort((a, b) => (newest ? b.id - a.id : a.id - b.id))[0];
    if (!match) return;
    taken.add(match.id);
    claims.set(entry.requestId, match);
  };
  for (const entry of [...(entries.confirmed ?? [])].sort((a, b) => b.startedAt - a.startedAt)) claim(entry, true);
  for (const entry of [...entries.open].sort((a, b) => a.startedAt - b.startedAt)) claim(entry, false);
  return claims;
}
