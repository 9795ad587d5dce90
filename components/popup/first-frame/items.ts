import {
  balanceHistoryItem,
  goalItem,
  ledgerItem,
  popupViewItem,
  sessionItem,
  settledItem,
  syncItem,
  unsettledItem,
} from '../../../utils/storage-items';
import type { StorageItem } from '../../../utils/storage-item';
import type { PopupSnapshot } from '../model/popup-state';
import { outcomeSeenItem, outcomeShown } from '../redeem/outcome-seen-item';
import { settledSeenItem, toldFrom } from '../redeem/settled-seen-item';

/**
 * What the popup's first frame reads, in ONE storage.local.get (entrypoints/first-frame.ts), and what
 * main.tsx preloads for Preact's first render: the same items, so both frames show the same state.
 */
export const FIRST_FRAME_ITEMS = [
  sessionItem,
  popupViewItem,
  syncItem,
  ledgerItem,
  outcomeSeenItem,
  unsettledItem,
  settledItem,
  settledSeenItem,
  goalItem,
  balanceHistoryItem,
] as const;

/**
 * The popup's snapshot from what storage.local.get answered (key → value): each item as its own
 * reader takes it, and the outcome card's entry only while an earlier opening has not seen it settled.
 */
export function snapshotOf(stored: Record<string, unknown>): PopupSnapshot {
  const get = <T>(item: StorageItem<T>): T => item.fromStored(stored[item.key]);
  const ledger = get(ledgerItem);
  return {
    session: get(sessionItem),
    view: get(popupViewItem),
    sync: get(syncItem).rewards,
    outcome: ledger && outcomeShown(ledger, get(outcomeSeenItem)) ? ledger : null,
    unsettled: get(unsettledItem),
    told: toldFrom(get) ?? [],
    goal: get(goalItem),
    samples: get(balanceHistoryItem),
  };
}
