import { useEffect, useState } from 'preact/hooks';
import { newestFirst } from '../../utils/history-order';
import { isWhole, type Stored } from '../../utils/paged-item';
import { historyItem } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';

export interface HistoryPages {
  /** undefined until the first read returns; null when nothing is cached. */
  fetchedAt: number | null | undefined;
  total: number;
  /** The newest `count` redemptions, read from the pages that hold them. */
  rows: Redemption[];
}

/**
 * The newest `count` redemptions and how many there are, read from the history's pages
 * (utils/paged-item.ts) as they are needed: ten thousand redemptions cost the page what the rows
 * it shows cost. Follows each new copy the background writes.
 */
export function useHistoryPages(count: number): HistoryPages {
  const [head, setHead] = useState<Stored<Redemption> | null | undefined>(undefined);
  const [rows, setRows] = useState<Redemption[]>([]);
  useEffect(() => {
    let mounted = true;
    let changed = false;
    const stop = historyItem.watchHead((next) => {
      changed = true;
      setHead(next);
    });
    // A change that beat the first read is newer; keep it.
    void historyItem.readHead().then((first) => mounted && !changed && setHead(first));
    return () => {
      mounted = false;
      stop();
    };
  }, []);
  useEffect(() => {
    if (!head) return setRows([]);
    let mounted = true;
    // A history stored whole (before pages) is in the panel's order until the next refresh.
    const read = isWhole(head)
      ? Promise.resolve(newestFirst(head.data).slice(0, count))
      : historyItem.readEntries(head, 0, count);
    void read.then((entries) => mounted && setRows(entries));
    return () => {
      mounted = false;
    };
  }, [head, count]);
  return {
    fetchedAt: head === undefined ? undefined : (head?.fetchedAt ?? null),
    total: !head ? 0 : isWhole(head) ? head.data.length : head.total,
    rows,
  };
}
