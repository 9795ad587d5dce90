import type { LedgerEntry } from './storage-items';

/**
 * Whether the balance showed this Confirm's points gone: it fell, between the read just before
 * the request left and the read after the answer, by at least what the reward costs. Panels
 * often write their history a moment after the balance moves, so a refusal (a re-sent copy's 402
 * while the first copy spent the points) with the points gone is told as "the points were taken,
 * the history is being checked", and if the history never shows it, as one to take up with the
 * panel, never as one to redeem again.
 */
export function pointsTaken(entry: Pick<LedgerEntry, 'balanceMoved' | 'points'>): boolean {
  return entry.balanceMoved !== undefined && entry.points !== null && -entry.balanceMoved >= entry.points;
}

/**
 * How a Confirm the history never showed (`not_found`, after the last check) is told, the one rule
 * for the card, the "Still being checked" list and the notification alike:
 *
 * - `points-taken`: the balance showed its points gone, right after the answer or at the last
 *   check (read lower than before sending by at least the cost): contact the panel, never "redeem
 *   it again". Also what a panel that gave a deleted redemption's id to this one within the same
 *   second looks like (utils/instants.ts): the history cannot tell the two apart, the balance can.
 * - `said-yes`: the panel answered success: contact the panel.
 * - `balance-unread`: no evidence the points stayed, so the balance is to be checked before
 *   redeeming again: one of the two reads (before sending, at the last check) gave a balance and the
 *   other none (the field left out, the variable unreadable: a balance cannot be compared with
 *   none, as movedBalance rules too), the last check could not read it, or a Confirm from before
 *   the balance was evidence.
 * - `not-made`: the balance was read both times and kept its points, or the panel shows none: it
 *   most likely did not go through, and may be redeemed again.
 */
export type NotFoundWords = 'points-taken' | 'said-yes' | 'balance-unread' | 'not-made';

/**
 * Whether exactly one of two balance reads gave a balance (the other none, failed, or not taken): a
 * balance cannot be compared with none, so the pair is no evidence either way. The one rule for
 * it, asked by the refusal's rules (redemption/balance.ts) and by the words below.
 */
export function oneSidedBalance(before: number | null | undefined, after: number | null | undefined): boolean {
  return (typeof before === 'number') !== (typeof after === 'number');
}

export function notFoundWords(
  entry: Pick<LedgerEntry, 'balanceMoved' | 'points' | 'answer' | 'balanceBefore' | 'balanceAfter'>,
): NotFoundWords {
  const { balanceBefore: before, balanceAfter: after, points } = entry;
  const fell = typeof before === 'number' && typeof after === 'number' && points !== null && before - after >= points;
  if (pointsTaken(entry) || fell) return 'points-taken';
  if (entry.answer === 'success') return 'said-yes';
  return oneSidedBalance(before, after) || (before === undefined && after === undefined)
    ? 'balance-unread'
    : 'not-made';
}
