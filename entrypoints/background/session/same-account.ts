import type { PanelApi } from '../../../utils/api/client';
import { historyItem } from '../../../utils/storage-items';
import { evidenceOf, evidenceWanted, type AccountKey, type Evidence } from './account-identity';

/**
 * The evidence a switch is judged on (account-identity.ts decides): the new key's own history,
 * read before the switch, when it can decide anything — the same panel, and a stored history to
 * compare it with. Null when not read, or when the panel did not answer (which contradicts
 * nothing for the same key, and proves nothing for a new one).
 */
export async function readEvidence(
  api: PanelApi,
  previous: AccountKey | null,
  next: AccountKey,
  /** The stored history's head, when the caller started reading it beside its own read. */
  stored = historyItem.readHead(),
): Promise<Evidence> {
  const head = await stored;
  const count = head ? ('total' in head ? head.total : head.data.length) : 0;
  if (!evidenceWanted(previous, next, count)) return null;
  const history = await api.listRedemptions().catch(() => null);
  return history && evidenceOf(history);
}
