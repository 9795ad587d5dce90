import type { StorageItem } from '../../../utils/storage-item';
import { duplicatesItem, ledgerItem, settledItem, unsettledItem } from '../../../utils/storage-items';
import { holdsAll } from '../same-account';
import type { Get } from '../store';
import { unsettledConfirms } from './machine';

/**
 * A new session of the same panel (a new key or sign-in after the panel stopped accepting the old
 * one) takes over the Confirms still being settled only on evidence that it is the same account:
 * the panel has no "who am I", but a redemption history is the account's own, so the new key's
 * history must hold every redemption those Confirms' baselines held. Another person's key on the
 * same panel shares none of them, and gets none of this account's Confirms.
 */

/** The items that hold the Confirms and what they claimed: carried over together or not at all. */
export const CONFIRM_ITEMS: ReadonlyArray<StorageItem<unknown>> = [
  ledgerItem,
  unsettledItem,
  settledItem,
  duplicatesItem,
];

/**
 * Whether the new session takes over the Confirms as the switch's turn reads them: every open one
 * has a baseline and the new key's history (`ids`, same-account.ts) holds all of it.
 */
export function carriesOver(get: Get, ids: ReadonlySet<number> | null): boolean {
  const confirms = unsettledConfirms({ current: get(ledgerItem), awaitingCheck: get(unsettledItem) });
  return confirms.length > 0 && confirms.every((entry) => holdsAll(ids, entry.knownRedemptionIds));
}
