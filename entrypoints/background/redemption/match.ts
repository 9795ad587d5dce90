import { compareIds, redemptionKey, type RedemptionKey } from '../../../utils/ids';
import type { LedgerEntry } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';

/** What a history read shows of the entries: the redemption each made, and any it made again. */
export interface Claims {
  /** Request id → the history entry that records it. */
  found: Map<string, Redemption>;
  /** Request id → further redemptions of its reward that no entry explains, whole: the panel recorded it again. */
  repeats: Map<string, RedemptionKey[]>;
}

/**
 * Whether `r` may be the entry's own: of its reward, and not in its baseline. A redemption is its
 * id, its reward and its `created_at` together (utils/ids.ts): a panel that gives a deleted
 * redemption's id to the next one makes a new redemption, which a baseline holding the old one
 * does not hide. A Confirm an earlier version started knows its baseline by ids alone
 * (`knownRedemptionIds`): for it, a known id is not its own.
 */
export function mayBeOwn(entry: LedgerEntry): (r: Redemption) => boolean {
  const known = new Set<string>(entry.baseline ?? []);
  const knownIds = new Set<string>(entry.knownRedemptionIds ?? []);
  return (r) => r.reward.id === entry.rewardId && !known.has(redemptionKey(r)) && !knownIds.has(r.id);
}

/**
 * Which history entry each redemption made, trusting the panel's ids and never its clock: a
 * redemption counts for an entry when it may be its own ({@link mayBeOwn}: its reward, new to the
 * baseline read before the entry's request was sent) and no other entry took it, whatever its
 * timestamp. The entry whose answer just came (`first`) chooses first: a redemption its own request
 * made is never taken for an older open one. The open entries then take what is left, oldest
 * entry first, each the oldest redemption. Two entries never claim the same redemption, nor one in
 * `alreadyClaimed` (whole redemptions, as {@link redemptionKey} writes them).
 *
 * A redemption of an entry's reward that is new to its baseline and left over once every entry
 * chose is one the panel may have recorded again for an entry that claimed one in this same read
 * (a browser re-sent the request): `repeats` gives them to the first such entry, in the order they
 * chose. Only entries with an `Idempotency-Key` are counted: older ones have no baseline to trust.
 */
export function claimRedemptions(
  entries: { first?: LedgerEntry | undefined; open: readonly LedgerEntry[] },
  history: readonly Redemption[],
  alreadyClaimed: ReadonlySet<RedemptionKey> = new Set(),
): Claims {
  const taken = new Set<string>(alreadyClaimed);
  const found = new Map<string, Redemption>();
  const claimants: LedgerEntry[] = [];
  const newFor = (entry: LedgerEntry) => {
    const own = mayBeOwn(entry);
    return history.filter((r) => own(r) && !taken.has(redemptionKey(r)));
  };
  const claim = (entry: LedgerEntry) => {
    const match = newFor(entry).sort((a, b) => compareIds(a.id, b.id))[0];
    if (!match) return;
    taken.add(redemptionKey(match));
    found.set(entry.requestId, match);
    claimants.push(entry);
  };
  if (entries.first) claim(entries.first);
  for (const entry of [...entries.open].sort((a, b) => a.startedAt - b.startedAt)) claim(entry);

  const repeats = new Map<string, RedemptionKey[]>();
  for (const entry of claimants) {
    if (!entry.idempotencyKey) continue;
    const extra = newFor(entry);
    if (extra.length === 0) continue;
    extra.forEach((r) => taken.add(redemptionKey(r)));
    repeats.set(entry.requestId, extra.map(redemptionKey));
  }
  return { found, repeats };
}
