import type { LedgerEntry } from '../../../utils/storage-items';

/**
 * What the balance says of a Confirm, as pure functions: the balance is evidence as the history is
 * (machine.ts weighs it with the history's reads). A balance that could not be read is unknown,
 * never a number and never "unmoved".
 */

/**
 * A balance as a read taken for the ledger showed it: its points (null on a panel that shows no
 * balance), or unread (the read failed): unread is no evidence either way, never a number.
 */
export type BalanceSeen = { read: true; points: number | null } | { read: false };

/**
 * What the balance says of a refusal the history does not show: `unmoved` when it backs "nothing
 * charged", the entry with the move it recorded, or null when it cannot rule. A balance read before
 * sending and after the answer rules at once: unmoved, or moved (movedBalance). One left unread
 * after the answer (the read failed, the worker stopped before it, one read gave a balance and
 * the other none, or the panel shows none) is no evidence: a panel's history may lag its balance
 * by moments, so only a balance read taken for this Confirm at its own due check (`due`), well
 * after any lag, may rule, never another Confirm's check nor a refresh. A panel that shows no
 * balance (null before and at that check) leaves the history alone to decide there.
 */
export function refusalBalance(
  entry: LedgerEntry,
  seen: BalanceSeen | undefined,
  due: boolean,
): 'unmoved' | LedgerEntry | null {
  if (entry.balanceMoved !== undefined) return null;
  if (!entry.balanceUnread) return 'unmoved';
  if (!due || !seen?.read) return null;
  const before = entry.balanceBefore ?? null;
  const after = seen.points;
  if (before === after) return 'unmoved';
  if (before === null || after === null) return null;
  const { balanceUnread: _unread, ...rest } = entry;
  return { ...rest, balanceMoved: after - before };
}

/**
 * What the balance says of a Confirm: how it moved from the read just before the request left to
 * the read with the one after the answer, when both gave a balance and it moved; unread when either
 * gave none (a Confirm an earlier version started may have none from before; a panel may show no
 * balance at all), since nothing then shows that it stayed. Any move keeps a
 * refusal from being "nothing charged" (applyRead): a fall may be this Confirm's points (the
 * first copy spent them, the history not written yet), or another redemption made elsewhere
 * meanwhile — either way the Confirm stays unknown and the checks decide, which can end in "done"
 * or "not found", never in a false "nothing charged". A rise (points earned meanwhile) could hide
 * a charge of at most that much, so it counts as a move too. What the rule cannot see: points
 * credited in those few seconds exactly equal to the cost. A balance not read or not shown before
 * or after (`balanceUnread`) keeps a refusal open until its due check.
 */
export function movedBalance(
  before: number | null | undefined,
  after: number | null | undefined,
): Partial<LedgerEntry> {
  if (typeof before === 'number' && typeof after === 'number')
    return after === before ? {} : { balanceMoved: after - before };
  return { balanceUnread: true };
}
