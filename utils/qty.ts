/**
 * A number and the word after it ("500 points", "11,000 ポイント", "30 Tage", "٥٠٠ نقطة") never break
 * apart, in any language, nor does the word itself (Japanese broke "500 ポイン / ト" at
 * 320 px). The pages set each pair in its own `<span class="qty">` (components/popup/Qty.tsx; the
 * popup's first frame splits its text the same way, frame-fill.ts), styled not to wrap.
 *
 * The pair: digits with the group and decimal separators `Intl` uses (",", ".", no-break and
 * narrow no-break spaces, Arabic's "٬" and "٫", "'" and "’"), then at most one space, then one
 * word: a run of katakana, or of kanji, or of letters of any other script (with a short word
 * before it, "700 more points"). The word is the unit wherever a message puts a count: the rest of
 * the sentence wraps as it would.
 */
const NUMBER = "\\p{Nd}(?:[\\p{Nd},.\\u00a0\\u202f\\u066b\\u066c'\u2019]*\\p{Nd})?";
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const WORD = `(?:[\\p{Script=Katakana}\\u30fc]+|\\p{Script=Han}+|(?:(?![${CJK}])[\\p{L}\\p{M}])+)`;
/** A short word between the number and its unit ("700 more points"; four letters at most, so "3 weeks to" stays "3 weeks"). */
const SHORT = `(?:(?![${CJK}])[\\p{L}\\p{M}]){1,4}`;
const SPACE = '[ \\u00a0\\u202f]';
const PAIR = new RegExp(`${NUMBER}${SPACE}?(?:${SHORT}${SPACE}(?=[\\p{L}]))?${WORD}`, 'gu');

/** `text` as plain parts and `{ qty }` parts, in order; one plain part when it holds no pair. */
export function qtyParts(text: string): Array<string | { qty: string }> {
  const parts: Array<string | { qty: string }> = [];
  let at = 0;
  for (const match of text.matchAll(PAIR)) {
    const start = match.index ?? 0;
    if (start > at) parts.push(text.slice(at, start));
    parts.push({ qty: match[0] });
    at = start + match[0].length;
  }
  if (at < text.length || parts.length === 0) parts.push(text.slice(at));
  return parts;
}

/** The class of the element whose text is split into pairs, in Preact's render and in the first frame's. */
export const QTY_TEXT = 'qt';
