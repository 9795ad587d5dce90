import type { SyncArea } from '../../../utils/storage-items';

/**
 * Whether a read started before a write (redeem, save, delete) of this worker: such a read may
 * answer with what was true before the write, so it is neither joined nor kept.
 *
 * Kept in the worker's memory on purpose: a stopped worker takes its in-flight requests with it,
 * so after a restart nothing old can come back to be compared. Which session a piece of work
 * belongs to is not kept here but in storage (store.ts).
 */
const epochs: Record<SyncArea, number> = { rewards: 0, history: 0, profile: 0 };

/** A write has changed what `areas` would read: older reads are stale. */
export function markWritten(...areas: SyncArea[]): void {
  for (const area of areas) epochs[area] += 1;
}

export function epochOf(area: SyncArea): number {
  return epochs[area];
}
