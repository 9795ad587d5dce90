/**
 * A redemption's `created_at` as a type: an instant, parsed once where it enters, never compared as
 * the text the panel wrote. The interface writes `YYYY-MM-DDTHH:MM:SS` with no time zone (UTC), but
 * the same instant reaches the extension spelled several ways (`2024-09-14 08:12:45` from a DATETIME
 * column, `2024-09-14T08:12:45` from another API server mid-deploy, Laravel's
 * `2024-09-14T08:12:45.000000Z`), and compared as text an old redemption would look new: a Confirm
 * that made nothing would be told "Redeemed", and a reconnect of the same account contradicted.
 *
 * Accepted spellings: a date `YYYY-MM-DD`, then `T`, `t` or one space, then `HH:MM` with optional
 * `:SS` and an optional fraction of a second (`.` or `,`, any number of digits), then optionally a
 * time zone: `Z`/`z`, or an offset `±HH`, `±HHMM` or `±HH:MM` (at most 18 hours). Without a zone the
 * time is UTC. Every part must name a real calendar moment (no 24:00, no 31 April, no second 60).
 *
 * The one canonical form is UTC to the whole second, `YYYY-MM-DDTHH:MM:SSZ`: a fraction is dropped,
 * since servers write the same stored value with and without one. So two redemptions are told
 * apart by their time only when their seconds differ: a panel that deletes a redemption and gives
 * its id to a new one of the same reward within the same second makes two redemptions nothing in
 * the history can tell apart (SECURITY.md says what that means for the panelist). Parsed at the
 * door (utils/api/schemas.ts), and for storage an earlier version wrote
 * (entrypoints/background/store/stored-ids.ts); nothing else makes one.
 */

declare const instantBrand: unique symbol;

/** An instant in its one canonical spelling, `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds). */
export type Instant = string & { readonly [instantBrand]: true };

const SPELLING =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** The canonical instant `raw` spells, or null when it is not one of the accepted spellings. */
export function instantOf(raw: unknown): Instant | null {
  if (typeof raw !== 'string') return null;
  const m = SPELLING.exec(raw.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '00'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls over (31 April is 1 May, 24:00 the next day, year 24 is 1924): a spelling of no
  // real moment is refused, since the moment it makes is not the one written.
  const written = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}`;
  if (new Date(local).toISOString().slice(0, 19) !== written) return null;
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (offsetHours > 18 || offsetMinutes > 59) return null;
  const offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const utc = new Date(local - offset);
  return `${utc.toISOString().slice(0, 19)}Z` as Instant;
}
