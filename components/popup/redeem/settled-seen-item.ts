import { defineItem, type StorageItem } from '../../../utils/storage-item';
import { settledItem, type LedgerEntry } from '../../../utils/storage-items';
import { outcomeSeenItem } from './outcome-seen-item';

/**
 * The request ids of the settled redemptions a popup has shown settled (on the card, or as a line
 * of "Still being checked"), newest last. A redemption that settles while no popup shows it (the
 * card had moved on to a newer one, the popup was closed) is owed word at the next opening, once:
 * "contact the panel before redeeming it again" must not go unsaid. null: never written, as on an
 * install from before it, where the settled ones kept were told by what came before. Only the popup
 * reads or writes it.
 */
export const settledSeenItem = defineItem<string[] | null>('popup:settled-seen', null);

/**
 * Three times what the background keeps settled (machine.ts, SETTLED_KEPT): an id can leave only
 * after many more redemptions have settled, long after its own entry left the settled ones.
 */
const SEEN_KEPT = 60;

/**
 * The settled redemptions owed word: those no opening has shown settled. None before the first
 * record. The card's own mark (`cardSeen`, outcome-seen-item.ts) counts too: a page closed at once
 * may have written it and not yet this record, and the card it marks was seen settled.
 */
export function untold(
  settled: readonly LedgerEntry[] | undefined,
  seen: readonly string[] | null | undefined,
  cardSeen: string | undefined,
): LedgerEntry[] {
  if (!settled || !seen) return [];
  return settled.filter((entry) => !seen.includes(entry.requestId) && entry.requestId !== cardSeen);
}

/** What {@link toldFrom} reads. */
export const TOLD_ITEMS = [settledItem, settledSeenItem, outcomeSeenItem] as const;

/**
 * {@link untold} of the three items as `read` gives them (a peek, or what storage holds): undefined
 * while the settled ones or the record are unread, so a page that has not read them tells none.
 */
export function toldFrom(read: <T>(item: StorageItem<T>) => T | undefined): LedgerEntry[] | undefined {
  const [settled, seen] = [read(settledItem), read(settledSeenItem)];
  return settled === undefined || seen === undefined ? undefined : untold(settled, seen, read(outcomeSeenItem));
}

/** This page's records, one after another: two at once would each write back what the other had not seen. */
let recording: Promise<void> = Promise.resolve();

/**
 * Records `shown` as seen: this opening showed them settled. The first record takes every settled
 * one there is, so an update does not greet the panelist with old news.
 */
export function markSeen(shown: readonly string[], settled: readonly LedgerEntry[]): Promise<void> {
  recording = recording.then(
    () => record(shown, settled),
    () => record(shown, settled),
  );
  return recording;
}

async function record(shown: readonly string[], settled: readonly LedgerEntry[]): Promise<void> {
  const seen = await settledSeenItem.getValue();
  const add = seen ? shown : [...settled.map((entry) => entry.requestId), ...shown];
  const next = [...new Set([...(seen ?? []), ...add])].slice(-SEEN_KEPT);
  if (seen && next.length === seen.length && next.every((id, i) => id === seen[i])) return;
  await settledSeenItem.setValue(next);
}
