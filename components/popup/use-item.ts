import { useEffect, useState } from 'preact/hooks';
import type { StorageItem } from '../../utils/storage-item';

/**
 * A storage item's current value, kept current by its change events: at once when the page
 * preloaded it (main.tsx), otherwise `undefined` until its own read returns. Plain hook state
 * instead of utils/use-storage-item's signal keeps @preact/signals (about 3 KiB gzip) out of the
 * popup's size budget. With `on` false it reads nothing: the popup reads the history only without a
 * popup view, as its size is unbounded.
 */
export function useItem<T>(item: StorageItem<T>, on = true): T | undefined {
  const [value, setValue] = useState<T | undefined>(() => item.peek());
  useEffect(() => {
    // Not needed (yet): nothing read, nothing watched.
    if (!on) return;
    let live = true;
    let changed = false;
    const unwatch = item.watch((next) => {
      changed = true;
      setValue(next);
    });
    const preloaded = item.peek();
    if (preloaded !== undefined) {
      // A change between the first render and this watch is already in the preloaded value.
      setValue(preloaded);
    } else {
      void item.getValue().then((first) => {
        // A change event that beat the first read is newer; keep it.
        if (live && !changed) setValue(first);
      });
    }
    return () => {
      live = false;
      unwatch();
    };
  }, [item, on]);
  return on ? value : undefined;
}
