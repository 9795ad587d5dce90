import type { SyncArea } from '../../../utils/storage-items';
import type { SessionId } from './store';

type StoredListener = (area: SyncArea, data: unknown, sid: SessionId) => void;
const storedListeners = new Set<StoredListener>();

/**
 * Called after fresh data of an area is stored, with the session it belongs to, so what follows
 * from it (the balance history, notifications, new questions, a lost redeem answer) is written for
 * that session only. It sits beside the store, not in the sync layer, so those listeners depend on
 * the writer alone, never on the reads that feed them.
 */
export function onStored(listener: StoredListener): () => void {
  storedListeners.add(listener);
  return () => storedListeners.delete(listener);
}

export function announceStored(area: SyncArea, data: unknown, sid: SessionId): void {
  for (const listener of storedListeners) listener(area, data, sid);
}
