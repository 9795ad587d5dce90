import { defineItem, storage, type StorageItem } from './storage-item';
import type { Cached } from './cached';

/**
 * A cached list kept in storage.local in pages of a fixed size, so a page that shows
 * the first rows reads those, not ten thousand: under `key` a head `{ fetchedAt, total, pages }`,
 * under `key:0`, `key:1`, … the list's entries in order, PAGE_ENTRIES each. The background writes it
 * whole (head and pages in one storage.local.set) and reads it whole with getValue; a page reads the
 * head and the pages it shows. A list stored whole under `key` (before pages) still reads.
 */
export const PAGE_ENTRIES = 100;

export interface PagedHead {
  fetchedAt: number;
  /** Entries in all pages. */
  total: number;
  pages: number;
}

/** What storage holds under the key: the head, or the whole list as stored before pages. */
export type Stored<E> = PagedHead | Cached<E[]>;

export const isWhole = <E>(stored: Stored<E>): stored is Cached<E[]> => 'data' in stored;

export interface PagedItem<E> extends StorageItem<Cached<E[]> | null> {
  pageKey(index: number): string;
  /** The head alone as an item, for a writer that reads it in the same turn as it writes (background store.ts). */
  readonly head: StorageItem<Stored<E> | null>;
  /**
   * What storing `value` writes when `previous` is the head in storage: the head and every page, and
   * the pages the previous copy had beyond the new one's (emptied; nothing reads past the head's count).
   */
  layout(value: Cached<E[]>, previous: Stored<E> | null): { set: Record<string, unknown>; remove: string[] };
  /** Every key `head` stands for: the head's own and its pages'. */
  keysOf(head: Stored<E> | null): string[];
  /** The head (or the whole list, stored before pages); null when nothing is stored. */
  readHead(): Promise<Stored<E> | null>;
  /** Calls back with each new head (null once removed); returns a function that stops watching. */
  watchHead(callback: (head: Stored<E> | null) => void): () => void;
  /** Entries `from` on, `count` of them at most, in one read of the pages that hold them. */
  readEntries(head: Stored<E>, from: number, count: number): Promise<E[]>;
}

/** `order`: the order the list is kept in, whoever writes it (pages show it in that order). */
/* @__NO_SIDE_EFFECTS__ */
export function definePagedItem<E>(
  key: string,
  order: (list: readonly E[]) => E[] = (list) => [...list],
): PagedItem<E> {
  const pageKey = (index: number) => `${key}:${index}`;
  const readHead = async (): Promise<Stored<E> | null> =>
    ((await storage().local.get(key))[key] as Stored<E> | undefined) ?? null;
  const pagesOf = (head: Stored<E> | null) => (head && !isWhole(head) ? head.pages : 0);
  async function readEntries(head: Stored<E>, from: number, count: number): Promise<E[]> {
    if (isWhole(head)) return head.data.slice(from, from + count);
    const first = Math.floor(from / PAGE_ENTRIES);
    const last = Math.min(head.pages, Math.ceil((from + count) / PAGE_ENTRIES));
    const keys = Array.from({ length: Math.max(0, last - first) }, (_, i) => pageKey(first + i));
    const pages = keys.length ? await storage().local.get(keys) : {};
    const entries = keys.flatMap((k) => (pages[k] as E[] | undefined) ?? []);
    return entries.slice(from - first * PAGE_ENTRIES, from - first * PAGE_ENTRIES + count);
  }
  async function getValue(): Promise<Cached<E[]> | null> {
    const head = await readHead();
    if (!head) return null;
    if (isWhole(head)) return head;
    return { data: await readEntries(head, 0, head.total), fetchedAt: head.fetchedAt };
  }
  function layout(value: Cached<E[]>, previous: Stored<E> | null) {
    const list = order(value.data);
    const pages = Math.ceil(list.length / PAGE_ENTRIES);
    const set: Record<string, unknown> = {
      [key]: { fetchedAt: value.fetchedAt, total: list.length, pages } satisfies PagedHead,
    };
    for (let i = 0; i < pages; i += 1) set[pageKey(i)] = list.slice(i * PAGE_ENTRIES, (i + 1) * PAGE_ENTRIES);
    const before = pagesOf(previous);
    return { set, remove: Array.from({ length: Math.max(0, before - pages) }, (_, i) => pageKey(pages + i)) };
  }
  const keysOf = (head: Stored<E> | null) => [key, ...Array.from({ length: pagesOf(head) }, (_, i) => pageKey(i))];
  async function removeValue() {
    await storage().local.remove(keysOf(await readHead()));
  }
  return {
    key,
    pageKey,
    head: defineItem<Stored<E> | null>(key, null),
    layout,
    keysOf,
    readHead,
    readEntries,
    getValue,
    removeValue,
    async setValue(value) {
      if (value === null) return removeValue();
      const { set, remove } = layout(value, await readHead());
      await storage().local.set(set);
      if (remove.length) await storage().local.remove(remove);
    },
    watchHead(callback) {
      const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
        if (area === 'local' && changes[key]) callback((changes[key].newValue as Stored<E> | undefined) ?? null);
      };
      storage().onChanged.addListener(listener);
      return () => storage().onChanged.removeListener(listener);
    },
    // Pages are read with getValue, never preloaded.
    peek: () => undefined,
    fromStored: (stored) => (stored && isWhole(stored as Stored<E>) ? (stored as Cached<E[]>) : null),
    watch(callback) {
      // The head changes with every write; the latest read wins when writes come close together.
      let latestRead = 0;
      const listener = (changes: Record<string, { newValue?: unknown }>, area: string) => {
        if (area !== 'local' || !changes[key]) return;
        const mine = ++latestRead;
        void getValue().then((value) => mine === latestRead && callback(value));
      };
      storage().onChanged.addListener(listener);
      return () => storage().onChanged.removeListener(listener);
    },
  };
}
