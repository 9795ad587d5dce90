import { useEffect, useState } from 'preact/hooks';
import type { StorageItem } from '../../utils/storage-item';

/**
 * A storage item's current value, read on mount and kept current by its change events;
 * `undefined` until the first read. Plain hook state instead of utils/use-storage-item's signal
 * keeps @preact/signals (about 3 KiB gzip) out of the popup's size budget.
 */
export function useItem<T>(item: StorageItem<T>): T | undefined {
  const [value, setValue] = useState<T | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let changed = false;
    const unwatch = item.watch((next) => {
      changed = true;
      setValue(next);
    });
    void item.getValue().then((first) => {
      // A change event that beat the first read is newer; keep it.
      if (live && !changed) setValue(first);
    });
    return () => {
      live = false;
      unwatch();
    };
  }, [item]);
  return value;
}
