import { browser } from 'wxt/browser';

/**
 * A typed key in `storage.local` with a fallback and change events. Deliberately tiny: the same
 * surface from wxt's storage module costs about 3.7 KB gzip in every page and the worker, which
 * the popup's 20 KiB budget cannot spare.
 */
export interface StorageItem<T> {
  readonly key: string;
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  /** Called with the new value (the fallback once removed); returns a function that stops watching. */
  watch(callback: (value: T) => void): () => void;
  /** The value {@link preload} read (kept current since), synchronously; undefined if not preloaded. */
  peek(): T | undefined;
}

/** Raw values read ahead by {@link preload}, kept current by one change listener. */
const preloaded = new Map<string, unknown>();

/**
 * Reads several items in one storage call, so a page can render its first frame with data instead
 * of rendering empty and again as each item's own read returns.
 */
export async function preload(items: ReadonlyArray<StorageItem<unknown>>): Promise<void> {
  const keys = items.map((item) => item.key);
  browser.storage.onChanged.addListener((changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local') return;
    for (const key of keys) if (changes[key]) preloaded.set(key, changes[key].newValue);
  });
  const values = await browser.storage.local.get(keys);
  for (const key of keys) if (!preloaded.has(key)) preloaded.set(key, values[key]);
}

export function defineItem<T>(key: string, fallback: T): StorageItem<T> {
  // Browsers report a removal without newValue, the test fake with null: for an item that
  // never stores null, both mean "absent".
  const read = (stored: unknown): T => (stored === undefined || (stored === null && fallback !== null) ? fallback : (stored as T));
  return {
    key,
    async getValue() {
      return read((await browser.storage.local.get(key))[key]);
    },
    async setValue(value) {
      // Storing undefined would throw in Firefox; null and objects are fine.
      await browser.storage.local.set({ [key]: value });
    },
    async removeValue() {
      await browser.storage.local.remove(key);
    },
    peek() {
      return preloaded.has(key) ? read(preloaded.get(key)) : undefined;
    },
    watch(callback) {
      const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
        const change = changes[key];
        if (area === 'local' && change) callback(read(change.newValue));
      };
      browser.storage.onChanged.addListener(listener);
      return () => browser.storage.onChanged.removeListener(listener);
    },
  };
}
