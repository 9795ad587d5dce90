import type { PanelApi } from '../../../utils/api/client';
import type { StorageItem } from '../../../utils/storage-item';
import { duplicatesItem, ledgerItem, settledItem, unsettledItem } from '../../../utils/storage-items';
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
export const CONFIRM_ITEMS: ReadonlyArray<StorageItem<unknown>> = [ledgerItem, unsettledItem, settledItem, duplicatesItem];

/**
 * The history ids the new key reads, when the stored Confirms of the same panel leave something to
 * carry over (null otherwise, without a request): read before the switch, judged inside it.
 */
export async function historyIdsForCarryOver(api: PanelApi, samePanel: boolean): Promise<ReadonlySet<number> | null> {
  if (!samePanel) return null;
  const [current, awaitingCheck] = await Promise.all([ledgerItem.getValue(), unsettledItem.getValue()]);
  if (unsettledConfirms({ current, awaitingCheck }).length === 0) return null;
  const history = await api.listRedemptions().catch(() => null);
  return history && new Set(history.map((r) => r.id));
}

/**
 * Whether the new session takes over the Confirms as the switch's turn reads them: every open one
 * has a baseline and the new key's history (`ids`) holds all of it.
 */
export function carriesOver(get: Get, ids: ReadonlySet<number> | null): boolean {
  if (!ids) return false;
  const confirms = unsettledConfirms({ current: get(ledgerItem), awaitingCheck: get(unsettledItem) });
  return confirms.length > 0 && confirms.every((entry) => (entry.knownRedemptionIds?.length ?? 0) > 0 && entry.knownRedemptionIds!.every((id) => ids.has(id)));
}
