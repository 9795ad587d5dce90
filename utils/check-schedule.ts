/**
 * When the history is read again after an answer that settled nothing, from the moment the
 * request was sent. A panel slow enough to time out may commit well after; only the last check
 * may conclude that the redemption most likely did not happen. The background's ledger schedules
 * them (entrypoints/background/redemption/machine.ts); the popup says by when they end.
 */
export const CHECK_AFTER_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000] as const;

/** When the last scheduled check of a redemption sent at `startedAt` is due (a check whose read failed comes later). */
export function lastCheckAt(startedAt: number): number {
  return startedAt + CHECK_AFTER_MS[CHECK_AFTER_MS.length - 1]!;
}
