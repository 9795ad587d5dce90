/**
 * A typed key in `storage.local` with a fallback and change events. Deliberately tiny: the same
 * surface from wxt's storage module costs about 3.7 KB gzip in every page and the worker, which
 * the popup's 20 KiB budget cannot spare.
 *
 * It talks to the browser's own storage API, not through the webextension polyfill: both browsers'
 * `storage` answer with promises (Firefox as `browser`, Chrome's MV3 `chrome` alike), and leaving
 * the polyfill out keeps it (about 3 KiB gzip) out of the popup's first chunk and out of the
 * first-frame script, which must stay small, and which reads these items' keys.
 */
type Storage = typeof chrome.storage;
const native = globalThis as { browser?: { storage?: Storage }; chrome?: { storage?: Storage } };
/** The browser's own `storage` namespace (see above). */
export const storage = (): Storage => (native.browser?.storage ?? native.chrome?.storage)!;

export interface StorageItem<T> {
  readonly key: string;
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  /** Called with the new value (the fallback once removed); returns a function that stops watching. */
  watch(callback: (value: T) => void): () => void;
  /** The value {@link preload} read (kept current since), synchronously; undefined if not preloaded. */
  peek(): T | undefined;
  /** The item's value as it is when `stored` is what storage holds under its key (undefined: nothing). */
  fromStored(stored: unknown): T;
  /** What storage holds for `value`, where the item keeps a form of its own ({@link StoredForm}); else the value itself. */
  toStored?(value: T): unknown;
}

/**
 * An item kept in storage in another form than the one it is read in (the catalogue as text:
 * utils/stored-catalogue.ts). `decode` reads what storage holds — a form an earlier version wrote
 * included — and gives undefined for what it cannot read, which then reads as the item's fallback.
 */
export interface StoredForm<T> {
  encode(value: T): unknown;
  decode(stored: unknown): T | undefined;
}

/** Raw values read ahead by {@link preload}, kept current by one change listener. */
const preloaded = new Map<string, unknown>();

/**
 * Reads several items in one storage call, so a page can render its first frame with data instead
 * of rendering empty and again as each item's own read returns.
 */
export async function preload(items: ReadonlyArray<StorageItem<unknown>>): Promise<void> {
  const keys = items.map((item) => item.key);
  // A change that arrives while the read is under way is newer than what the read returns.
  const changed = new Set<string>();
  storage().onChanged.addListener((changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local') return;
    for (const key of keys) {
      if (!changes[key]) continue;
      preloaded.set(key, changes[key].newValue);
      changed.add(key);
    }
  });
  const values = await storage().local.get(keys);
  for (const key of keys) if (!changed.has(key)) preloaded.set(key, values[key]);
}

/* @__NO_SIDE_EFFECTS__ */
export function defineItem<T>(key: string, fallback: T, form?: StoredForm<T>): StorageItem<T> {
  // Browsers report a removal without newValue, the test fake with null: both mean "absent"
  // (for an item whose fallback is null, null is that fallback).
  const read = (stored: unknown): T => {
    if (stored === undefined || stored === null) return fallback;
    if (!form) return stored as T;
    const value = form.decode(stored);
    return value === undefined ? fallback : value;
  };
  const toStored = (value: T): unknown => (form && value !== null && value !== undefined ? form.encode(value) : value);
  return {
    key,
    async getValue() {
      return read((await storage().local.get(key))[key]);
    },
    async setValue(value) {
      // Storing undefined would throw in Firefox; null and objects are fine.
      await storage().local.set({ [key]: toStored(value) });
    },
    async removeValue() {
      await storage().local.remove(key);
    },
    peek() {
      return preloaded.has(key) ? read(preloaded.get(key)) : undefined;
    },
    fromStored: read,
    toStored,
    watch(callback) {
      const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
        const change = changes[key];
        if (area === 'local' && change) callback(read(change.newValue));
      };
      storage().onChanged.addListener(listener);
      return () => storage().onChanged.removeListener(listener);
    },
  };
}
