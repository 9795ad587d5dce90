import type { PanelApi } from '../../utils/api/client';
import { historyItem, ledgerItem, unsettledItem } from '../../utils/storage-items';
import type { Credentials } from './credentials';
import { unsettledConfirms } from './redemption/machine';
import type { Get } from './store';

/**
 * The panel has no "who am I". The same key on the same panel is the same account. A new key on
 * the same panel (pasted after the panel stopped accepting the old one, or from signing in) is taken
 * for it only on evidence: a redemption history is the account's own, so the new key's history must
 * hold every redemption the stored history holds, and there must be at least one. Without it
 * (another person's key, or an account that has never redeemed) nothing of the account carries
 * over: not its unsaved profile draft, which a Save would write into the other person's profile,
 * nor its goal or balance history.
 */

type Key = Pick<Credentials, 'baseUrl' | 'token'>;

const samePanel = (previous: Key | null, next: Key): previous is Key => !!previous && previous.baseUrl === next.baseUrl;

/**
 * The redemption ids the new key's own history holds, read before the switch when something may
 * carry over on them (a new key of the same panel, or Confirms still being settled); null when no
 * evidence is needed or the history could not be read.
 */
export async function newKeyHistoryIds(
  api: PanelApi,
  previous: Key | null,
  next: Key,
): Promise<ReadonlySet<number> | null> {
  if (!samePanel(previous, next)) return null;
  if (previous.token === next.token) {
    const [current, awaitingCheck] = await Promise.all([ledgerItem.getValue(), unsettledItem.getValue()]);
    if (unsettledConfirms({ current, awaitingCheck }).length === 0) return null;
  }
  const history = await api.listRedemptions().catch(() => null);
  return history && new Set(history.map((r) => r.id));
}

/** Whether `ids` (a new key's history) holds every one of `known`, and `known` is not empty. */
export function holdsAll(ids: ReadonlySet<number> | null, known: readonly number[] | undefined): boolean {
  return !!ids && !!known && known.length > 0 && known.every((id) => ids.has(id));
}

/**
 * Whether the new key is the account whose data is stored, as the switch's turn reads it (`get`
 * must have read {@link historyItem}).
 */
export function isSameAccount(get: Get, previous: Key | null, next: Key, ids: ReadonlySet<number> | null): boolean {
  if (!samePanel(previous, next)) return false;
  if (previous.token === next.token) return true;
  return holdsAll(
    ids,
    get(historyItem)?.data.map((r) => r.id),
  );
}
