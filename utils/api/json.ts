import { isInteger, isSafeNumber, parse } from 'lossless-json';

/**
 * The panel's JSON, with every `id` exact. `JSON.parse` rounds an integer beyond 2^53 to the
 * nearest number it can hold, before any schema sees it: a 64-bit panel's redemptions
 * 1152921504606846977 and …978 would both arrive as …976. So an integer under an `id` key that a
 * number cannot hold exactly is kept as its digits (a string; utils/ids.ts makes it an id). Every
 * other value reads as `JSON.parse` reads it, a large integer elsewhere included (a points cost
 * beyond 2^53 is refused by its own check).
 *
 * Most panels never send such a number: when no run of 16 digits is anywhere in the text (every
 * integer of 15 digits or fewer is exact as a number), the native parse gives the same values at
 * its own speed. Only otherwise does lossless-json read the digits.
 */
export function parseJsonExactIds(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return parse(text, revive, {
    parseNumber: (digits) => (isInteger(digits) && !isSafeNumber(digits) ? new Unsafe(digits) : Number(digits)),
    // As JSON.parse: the last of two equal keys wins.
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

/** An integer a number cannot hold exactly, as the panel wrote it. */
class Unsafe {
  constructor(readonly digits: string) {}
}

function revive(key: string, value: unknown): unknown {
  if (!(value instanceof Unsafe)) return value;
  return key === 'id' ? value.digits : Number(value.digits);
}
