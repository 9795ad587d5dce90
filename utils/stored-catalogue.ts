import type { Cached } from './cached';
import type { StoredForm } from './storage-item';
import type { Balance, Reward } from './types';

/** The catalogue as pages and the background read it (utils/storage-items.ts `rewardsItem`). */
export interface RewardsData {
  rewards: Reward[];
  balance: Balance;
}

/**
 * How `cache:rewards` is kept: the rewards as one JSON text beside the balance and `fetchedAt`,
 * which stay plain values (a page or test reads them without the list).
 *
 * Why text: `storage.local` turns a value into the browser's own value tree one node at a time,
 * and tells every listening context of the change with a copy of it. 5,000 rewards are some
 * 150,000 nodes: one `set` of them took 0.9 s on a quiet machine (tests/bench/connect.ts, "storing
 * it alone") and a `get` about half that, where one string of the same 4.6 MB is copied whole,
 * four to five times faster each way, and `JSON.parse` of it costs 15–80 ms (JOURNAL.md).
 *
 * As text, each quote counts twice against `storage.local`'s 10 MiB quota (5,000 rewards: 4.97 MB
 * against the object's 4.57); the three provider fields nothing reads are left out at the door
 * (utils/api/records.ts), and the text takes what the object took (4.57 MB).
 */
interface StoredCatalogue {
  fetchedAt: number;
  data: { balance: Balance; rewardsJson: string };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Reads either form: this one, and the whole object an earlier version stored (read as it is, and
 * written in this form by the next refresh). Text that does not parse to a list is no catalogue
 * (undefined: the item's fallback, so the next read fetches it), never an empty one.
 */
export const catalogueForm: StoredForm<Cached<RewardsData> | null> = {
  encode: (cache): StoredCatalogue | null =>
    cache && {
      fetchedAt: cache.fetchedAt,
      data: { balance: cache.data.balance, rewardsJson: JSON.stringify(cache.data.rewards) },
    },
  decode(stored) {
    if (!isObject(stored) || !isObject(stored.data)) return undefined;
    const { rewardsJson } = stored.data;
    if (typeof rewardsJson !== 'string') return stored as unknown as Cached<RewardsData>;
    let rewards: unknown;
    try {
      rewards = JSON.parse(rewardsJson);
    } catch {
      return undefined;
    }
    if (!Array.isArray(rewards)) return undefined;
    const { balance } = stored.data as { balance: Balance };
    return { fetchedAt: stored.fetchedAt as number, data: { rewards: rewards as Reward[], balance } };
  },
};
