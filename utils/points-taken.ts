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
