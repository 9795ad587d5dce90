import { canonicalId } from '../../../utils/ids';
import { instantOf } from '../../../utils/instants';
import { defineItem } from '../../../utils/storage-item';
import {
  duplicatesItem,
  goalItem,
  historyItem,
  ledgerItem,
  popupViewItem,
  rewardsItem,
  settledItem,
  unsettledItem,
} from '../../../utils/storage-items';

/**
 * Storage an earlier version wrote kept reward and redemption ids as numbers, and a redemption's
 * `created_at` as the text the panel sent; this version keeps ids as their exact digits
 * (utils/ids.ts) and `created_at` as its canonical instant (utils/instants.ts), and compares both
 * as strings. At worker start, in the store's first turn (store.ts, settleStorage), every item that
 * holds them (a Confirm's baseline of whole redemptions included) is brought to this version's form
 * once, so no id or timestamp of a stored Confirm, goal or history ever meets a fresh one in another
 * form. A number beyond 2^53 was already rounded when that version stored it: its digits are kept as
 * they are, which is all that is left of it; a timestamp of no accepted spelling is kept as it was.
 */

/** The items holding reward or redemption ids (the history's pages are read with its head). */
const ID_ITEMS = [ledgerItem, unsettledItem, settledItem, duplicatesItem, goalItem, rewardsItem, popupViewItem];

/**
 * Which form the ids in storage have: 0 as an earlier version wrote them (numbers), 1 as digits, 2
 * with `created_at` as instants too. The device's, not a session's.
 */
export const idsFormItem = defineItem<number>('form:ids', 0);
export const IDS_FORM = 2;

/** The storage keys that may hold numeric ids (the history's pages with its head); none once the marker says so. */
export async function idKeys(): Promise<string[]> {
  if ((await idsFormItem.getValue()) >= IDS_FORM) return [];
  return [...ID_ITEMS.map((item) => item.key), ...historyItem.keysOf(await historyItem.readHead())];
}

/**
 * What to write so that storage holds ids in this version's form, from what those keys hold (the
 * store reads and writes them in one turn): the values that held numeric ids, rewritten, and the
 * form's marker, so nothing is read again.
 */
export function idUpgrade(stored: Record<string, unknown>): Array<{ key: string; value: unknown }> {
  const puts = Object.entries(stored).flatMap(([key, value]) => {
    const upgraded = withIdDigits(value);
    return upgraded === value ? [] : [{ key, value: upgraded }];
  });
  return [...puts, { key: idsFormItem.key, value: IDS_FORM }];
}

/** Fields whose number is a reward's or redemption's id; lists of such ids. */
const ID_FIELDS = new Set(['id', 'rewardId']);
const ID_LISTS = new Set(['knownRedemptionIds', 'duplicates', 'redemptionIds']);

const digits = (value: unknown): unknown =>
  typeof value === 'number' && Number.isInteger(value) ? (canonicalId(value) ?? BigInt(value).toString()) : value;

/** A stored `created_at` as its instant (the same string when it already is one, or is none). */
const instant = (value: unknown): unknown => {
  const at = instantOf(value);
  return at === null || at === value ? value : at;
};

/**
 * A baseline's whole redemption (`id reward created_at`, utils/ids.ts) with its time as an instant.
 * Neither id holds a space, so the time is what follows the second one, spaces and all.
 */
const rekeyed = (key: unknown): unknown => {
  if (typeof key !== 'string') return key;
  const match = /^(\S+) (\S+) (.+)$/.exec(key);
  const at = match ? instantOf(match[3]) : null;
  return match && at !== null && at !== match[3] ? `${match[1]} ${match[2]} ${at}` : key;
};

const eachOf = (list: unknown, form: (item: unknown) => unknown): unknown => {
  if (!Array.isArray(list)) return list;
  const mapped = list.map(form);
  return mapped.some((item, i) => item !== list[i]) ? mapped : list;
};

/**
 * `value` with every numeric id in it as its digits, or `value` itself when it holds none (so
 * nothing is written for an item this version wrote). Walks objects and lists; the items it is
 * given hold rewards, redemptions and Confirms, whose `id` and `rewardId` are those ids.
 */
export function withIdDigits(value: unknown): unknown {
  if (Array.isArray(value)) {
    const mapped = value.map(withIdDigits);
    return mapped.some((item, i) => item !== value[i]) ? mapped : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const next = ID_FIELDS.has(key)
      ? digits(field)
      : ID_LISTS.has(key)
        ? eachOf(field, digits)
        : key === 'created_at'
          ? instant(field)
          : key === 'baseline'
            ? eachOf(field, rekeyed)
            : withIdDigits(field);
    if (next !== field) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}
