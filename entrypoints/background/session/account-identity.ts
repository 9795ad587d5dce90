import { redemptionKey, type RedemptionKey } from '../../../utils/ids';
import type { Redemption } from '../../../utils/types';
import type { Credentials } from '../store/credentials';

/**
 * Is the new session the same account as the one whose data is stored? One answer, here, for
 * every piece of session data alike: the Confirms still being settled, the unsaved profile draft,
 * the goal, the balance history, what was notified and the new questions (session.ts keeps them
 * all or none). The panel has no "who am I"; a redemption history is the account's own, so the
 * evidence is whole redemptions (id, reward and `created_at`: utils/ids.ts), never ids alone — a
 * panel that numbers each panelist's redemptions apart gives another person the same ids.
 *
 * - The same key on the same panel is the same account unless a history read contradicts it: the
 *   stored history holds redemptions and the key's own history holds none of them. A read that
 *   failed, or an account with no redemption yet, contradicts nothing: no Confirm still being
 *   settled is dropped for a switch to the same account. (One deleted redemption does not
 *   contradict it either: a panel may delete a cancelled one.)
 * - A new key on the same panel (pasted after the panel stopped accepting the old one, or from
 *   signing in) is the same account only when its own history holds every redemption the stored
 *   history holds, and there is at least one. Without that (another person's key, an account that
 *   never redeemed, a history that could not be read) nothing carries over: a draft saved into
 *   another person's profile, or their Confirms taken for ours, is worse than a draft discarded
 *   with a notice.
 * - Another panel is another account.
 */

export type AccountKey = Pick<Credentials, 'baseUrl' | 'token'>;

/** The new key's own history, read before the switch, as whole redemptions; null: not read, or unreadable. */
export type Evidence = ReadonlySet<RedemptionKey> | null;

const samePanel = (previous: AccountKey | null, next: AccountKey): previous is AccountKey =>
  !!previous && previous.baseUrl === next.baseUrl;

/**
 * Whether the new key's history is worth reading before the switch: only its own history can
 * decide, and only for the same panel when something is stored to compare it with.
 */
export function evidenceWanted(previous: AccountKey | null, next: AccountKey, storedRedemptions: number): boolean {
  return samePanel(previous, next) && storedRedemptions > 0;
}

/** The new key's history as evidence: its redemptions, whole. */
export function evidenceOf(history: readonly Redemption[]): Evidence {
  return new Set(history.map(redemptionKey));
}

/**
 * Whether `next` is the account whose data is stored: `stored` is the history the switch's turn
 * read (null: none), `evidence` the new key's own (see above).
 */
export function sameAccount(
  previous: AccountKey | null,
  next: AccountKey,
  stored: readonly Redemption[] | null,
  evidence: Evidence,
): boolean {
  if (!samePanel(previous, next)) return false;
  const known = (stored ?? []).map(redemptionKey);
  if (previous.token === next.token) return !evidence || known.length === 0 || known.some((k) => evidence.has(k));
  return !!evidence && known.length > 0 && known.every((k) => evidence.has(k));
}
