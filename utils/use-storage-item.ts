import { useSignal, type Signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { StorageItem } from './storage-item';

/**
 * A signal holding a storage item's value, read once on mount and kept current by the item's
 * change events. `undefined` only until the first read resolves (a few ms).
 */
export function useStorageItem<T>(item: StorageItem<T>): Signal<T | undefined> {
  const value = useSignal<T | undefined>(undefined);
  useEffect(() => {
    let mounted = true;
    const unwatch = item.watch((next) => {
      value.value = next;
    });
    void item.getValue().then((first) => {
      if (mounted && value.value === undefined) value.value = first;
    });
    return () => {
      mounted = false;
      unwatch();
    };
  }, [item]);
  return value;
}
