import type { StorageItem } from '../../../utils/storage-item';
import { duplicatesItem, ledgerItem, settledItem, unsettledItem } from '../../../utils/storage-items';

/**
 * The items that hold the Confirms and what they claimed: a switch to the same account takes them
 * over together, another account gets none of them (session.ts, as account-identity.ts decides
 * for every piece of session data alike). A Confirm still being settled is the account's: a
 * reconnect of that account never drops it, and another person's key never inherits it.
 */
export const CONFIRM_ITEMS: ReadonlyArray<StorageItem<unknown>> = [
  ledgerItem,
  unsettledItem,
  settledItem,
  duplicatesItem,
];
