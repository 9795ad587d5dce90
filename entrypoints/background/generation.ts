import type { SyncArea } from '../../utils/storage-items';

/**
 * Which session a piece of work belongs to, and whether a read started before a write.
 *
 * Kept in the worker's memory on purpose: a stopped worker takes its in-flight requests with it,
 * so after a restart nothing old can come back to be compared.
 */
let generation = 0;

/** Changes (synchronously) whenever the session does: connect, disconnect, another account. */
export function currentGeneration(): number {
  return generation;
}

export function nextGeneration(): number {
  generation += 1;
  return generation;
}

export function isCurrent(gen: number): boolean {
  return gen === generation;
}

const epochs: Record<SyncArea, number> = { rewards: 0, history: 0, profile: 0 };

/** A write (redeem, save, delete) has changed what `areas` would read: older reads are stale. */
export function markWritten(...areas: SyncArea[]): void {
  for (const area of areas) epochs[area] += 1;
}

export function epochOf(area: SyncArea): number {
  return epochs[area];
}
