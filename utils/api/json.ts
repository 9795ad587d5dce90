/**
 * The panel's JSON, with every `id` exact. `JSON.parse` rounds an integer beyond 2^53 to the
 * nearest number it can hold, before any schema sees it: a 64-bit panel's redemptions
 * 1152921504606846977 and …978 would both arrive as …976. So an integer under an `id` key that a
 * number cannot hold exactly is read as its digits (a string; utils/ids.ts makes it an id). Every
 * other value reads as `JSON.parse` reads it, a large integer elsewhere included (a points cost
 * beyond 2^53 is refused by its own check).
 *
 * How: such a value is put in quotes in the text, then the native parse reads it. The pattern
 * matches a key only: `"id"` right after `{` or `,` (and white space), which inside a JSON string
 * cannot occur, since every quote there is escaped (`\"`), and a quote right after `{` or `,`
 * inside a string would end it where JSON allows no key. The digits must end the value (a `,`,
 * `}` or `]` follows), so a fraction or an exponent is left alone. A lossless JSON parser read
 * the same 18 MB history of 10,000 redemptions in 6–10 s against the native parse's 0.1–0.2 s
 * (CONTRIBUTING.md, "Ids beyond 2^53"), which a panel's every refresh could not afford.
 */
const LARGE_ID = /([{,]\s*"id"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g;

export function parseJsonExactIds(text: string): unknown {
  // Every integer of 15 digits or fewer is exact as a number: most panels' bodies need nothing done.
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const exact = text.replace(LARGE_ID, (whole, key: string, digits: string) =>
    Number.isSafeInteger(Number(digits)) ? whole : `${key}"${digits}"`,
  );
  return JSON.parse(exact);
}
