import type { LedgerEntry } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';

/** What a history read shows of the entries: the redemption each made, and any it made again. */
export interface Claims {
  /** Request id → the history entry that records it. */
  found: Map<string, Redemption>;
  /** Request id → further history ids of its reward that no entry explains: the panel recorded it again. */
  again: Map<string, number[]>;
}

/**
 * Which history entry each redemption made, trusting the panel's ids and never its clock: a
 * redemption counts for an entry when it is of the entry's reward, was not among the ids of the
 * history read fresh before the entry's request was sent (its baseline), and no other entry took
 * it, whatever its timestamp. The entry whose answer just came (`first`) chooses first: a
 * redemption its own request made is never taken for an older open one. The open entries then
 * take what is left, oldest entry first, each the oldest redemption. Two entries never claim the
 * same redemption, nor one in `alreadyClaimed`.
 *
 * A redemption of an entry's reward that is new to its baseline and left over once every entry
 * chose is one the panel may have recorded again for an entry that claimed one in this same read
 * (a browser re-sent the request): `again` gives them to the first such entry, in the order they
 * chose. Only entries with an `Idempotency-Key` are counted: older ones have no baseline to trust.
 */
export function claimRedemptions(
  entries: { first?: LedgerEntry | undefined; open: readonly LedgerEntry[] },
  history: readonly Redemption[],
  alreadyClaimed: ReadonlySet<number> = new Set(),
): Claims {
  const taken = new Set(alreadyClaimed);
  const found = new Map<string, Redemption>();
  const claimants: LedgerEntry[] = [];
  const newFor = (entry: LedgerEntry) => {
    const known = new Set(entry.knownRedemptionIds ?? []);
    return history.filter((r) => r.reward.id === entry.rewardId && !known.has(r.id) && !taken.has(r.id));
  };
  const claim = (entry: LedgerEntry) => {
    const match = newFor(entry).sort((a, b) => a.id - b.id)[0];
    if (!match) return;
    taken.add(match.id);
    found.set(entry.requestId, match);
    claimants.push(entry);
  };
  if (entries.first) claim(entries.first);
  for (const entry of [...entries.open].sort((a, b) => a.startedAt - b.startedAt)) claim(entry);

  const again = new Map<string, number[]>();
  for (const entry of claimants) {
    if (!entry.idempotencyKey) continue;
    const extra = newFor(entry).map((r) => r.id);
    if (extra.length === 0) continue;
    extra.forEach((id) => taken.add(id));
    again.set(entry.requestId, extra);
  }
  return { found, again };
}
