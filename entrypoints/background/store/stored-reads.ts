import type { StorageItem } from '../../../utils/storage-item';
import type { SyncArea } from '../../../utils/storage-items';
import type { Get, Put, SessionId } from './store';

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

/**
 * What a module derives from an area's read and must hold the moment the read is stored: the items
 * it reads, and the puts it makes of them and the read's data. Rules whose evidence is the read
 * itself go here rather than to {@link onStored}: a worker stopped between storing a read and a
 * listener's own turn would leave them undone, and the next read may no longer show what this one did.
 */
export interface StoredWith {
  items: ReadonlyArray<StorageItem<unknown>>;
  puts: (data: unknown, get: Get) => readonly Put[];
}

/** The areas whose writer joins them (popup-view.ts): a rule needs only the history so far. */
export type JoinedArea = Extract<SyncArea, 'history'>;

const storedWith = new Map<JoinedArea, Set<StoredWith>>();

/** Joins `derive` to every turn that stores a read of `area`; the module that owns the rule supplies it. */
export function storeWith(area: JoinedArea, derive: StoredWith): () => void {
  const joined = storedWith.get(area) ?? new Set<StoredWith>();
  storedWith.set(area, joined.add(derive));
  return () => joined.delete(derive);
}

/** For the turn that stores `data` as `area`'s read: the items to read in it, and the puts that go with it. */
export function alongStored(
  area: JoinedArea,
  data: unknown,
): { items: Array<StorageItem<unknown>>; puts: (get: Get) => Put[] } {
  const joined = [...(storedWith.get(area) ?? [])];
  return {
    items: joined.flatMap((derive) => derive.items),
    puts: (get) => joined.flatMap((derive) => derive.puts(data, get)),
  };
}
