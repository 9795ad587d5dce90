import { canonicalId } from '../../../utils/ids';
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
 * Storage an earlier version wrote kept reward and redemption ids as numbers; this version keeps
 * them as their exact digits (utils/ids.ts), and compares them as strings. At worker start, in the
 * store's first turn (store.ts, settleStorage), every item that holds such ids is brought to this
 * version's form once, so no id of a stored Confirm, goal or history ever meets a fresh one in
 * another form. A number beyond 2^53 was already rounded when that version stored it: its digits
 * are kept as they are, which is all that is left of it.
 */

/** The items holding reward or redemption ids (the history's pages are read with its head). */
const ID_ITEMS = [ledgerItem, unsettledItem, settledItem, duplicatesItem, goalItem, rewardsItem, popupViewItem];

/** Which form the ids in storage have: 0 as an earlier version wrote them (numbers), 1 as digits. The device's, not a session's. */
export const idsFormItem = defineItem<number>('form:ids', 0);
export const IDS_FORM = 1;

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
      : ID_LISTS.has(key) && Array.isArray(field)
        ? field.some((id) => typeof id === 'number')
          ? field.map(digits)
          : field
        : withIdDigits(field);
    if (next !== field) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}
