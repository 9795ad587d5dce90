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
}

export function defineItem<T>(key: string, fallback: T): StorageItem<T> {
  const read = (stored: unknown): T => (stored === undefined ? fallback : (stored as T));
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
