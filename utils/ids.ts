/**
 * Reward and redemption ids as types. The interface calls them integers, but a panel with 64-bit
 * ids (Snowflake-style, or a database's BIGINT) sends values a JavaScript number cannot hold:
 * 2^53 + 1 and 2^53 + 2 both read as 2^53, so two redemptions would pass for one. So an id is
 * kept as the exact decimal digits of the integer the panel meant, in one canonical form (no
 * leading zeros, no "-0"), and compared as such: two ids are the same exactly when their strings
 * are equal. An id is parsed into this type once, where it enters: the panel's answers
 * (utils/api/schemas.ts, which reads a number beyond 2^53 from the body's own digits:
 * utils/api/json.ts), a page's message (utils/message-schemas.ts), and storage an earlier version
 * wrote with numbers (entrypoints/background/store/stored-ids.ts). Nothing else makes one.
 */

declare const rewardBrand: unique symbol;
declare const redemptionBrand: unique symbol;

/** A reward's id: the exact decimal digits of the panel's integer. */
export type RewardId = string & { readonly [rewardBrand]: true };
/** A redemption's id: the exact decimal digits of the panel's integer. */
export type RedemptionId = string & { readonly [redemptionBrand]: true };

/** More digits than any integer id a panel uses (an unsigned 128-bit one has 39). */
const DIGITS = /^(-?)0*(\d+)$/;
const ID_TEXT = /^-?\d{1,40}$/;

/**
 * The canonical decimal form of an integer id: a number only while it is a safe integer (beyond
 * 2^53 it may already be another integer than the panel sent), or a string of decimal digits
 * (with an optional minus), leading zeros dropped. Null for anything else.
 */
export function canonicalId(raw: unknown): string | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? String(raw + 0) : null;
  if (typeof raw !== 'string' || !ID_TEXT.test(raw)) return null;
  const match = DIGITS.exec(raw)!;
  const digits = match[2]!;
  return match[1] && digits !== '0' ? `-${digits}` : digits;
}

export const rewardIdOf = (raw: unknown): RewardId | null => canonicalId(raw) as RewardId | null;
export const redemptionIdOf = (raw: unknown): RedemptionId | null => canonicalId(raw) as RedemptionId | null;

/** Numeric order of two canonical ids: by sign, then by length, then digit by digit. */
export function compareIds(a: string, b: string): number {
  const negA = a.startsWith('-');
  const negB = b.startsWith('-');
  if (negA !== negB) return negA ? -1 : 1;
  const magnitude = a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  return negA ? 0 - magnitude : magnitude;
}

declare const keyBrand: unique symbol;

/**
 * A redemption's identity: its id, its reward's id and when it was made, together. A panel that
 * numbers redemptions max + 1 gives a deleted one's id to the next, and one that numbers each
 * panelist's redemptions apart gives two people the same ids: an id alone says neither "the same
 * redemption" nor "the same account". Neither id holds a space, so the key reads one way only.
 */
export type RedemptionKey = string & { readonly [keyBrand]: true };

export function redemptionKey(r: { id: RedemptionId; created_at: string; reward: { id: RewardId } }): RedemptionKey {
  return `${r.id} ${r.reward.id} ${r.created_at}` as RedemptionKey;
}
