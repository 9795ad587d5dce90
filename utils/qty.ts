/**
 * A figure with its unit or currency ("500 points", "11,000 ポイント", "30 Tage", "٥٠٠ نقطة",
 * "$5.00", "5,00 €", "‏5.00 US$") never breaks apart, nor does the unit itself (Japanese broke
 * "500 ポイン / ト" at 320 px), and reads as one unit in a sentence written the other way: in
 * Arabic, "5.00 US$ · 500 نقطة" laid out as plain text put the currency beside the points. The
 * pages set each figure in its own `<span class="qty">` (components/popup/Qty.tsx, which the popup's
 * first frame renders too), styled not to wrap and isolated for
 * the bidirectional algorithm (components/theme.css); text that cannot hold markup (a select's
 * options, notifications) isolates each figure with Unicode's isolates instead ({@link isolateFigures}).
 *
 * A figure is one of:
 * - money, as `Intl.NumberFormat` writes it in any language: the amount with its currency symbol or
 *   code before or after it ("$5.00", "US$ 5,00", "5,00 $US", "25,00 €"), a direction mark first
 *   where Arabic puts one, and a currency token already isolated (utils/format.ts) taken whole;
 * - a number and the word after it: digits with the group and decimal separators `Intl` uses (",",
 *   ".", no-break and narrow no-break spaces, Arabic's "٬" and "٫", "'" and "’"), at most one space,
 *   then one word: a run of katakana, or of kanji, or of letters of any other script (with a short
 *   word before it, "700 more points", in a script with capitals: a caseless script's word after the
 *   unit is the sentence's own, Arabic's "800 نقطة تفصلك" being "800 points" and the verb after them).
 *   The word is the unit wherever a message puts a count: the rest of the sentence wraps as it would.
 *
 * A name from the panel set into a message ({@link asName}: a reward's "Greenleaf Markt 30 €
 * Einkaufsgutschein") is one unit of its own, not searched for figures: isolated, it reads in its
 * own direction exactly as the reward's row shows it. A figure inside it, isolated on its own,
 * took the page's direction: in Arabic "Greenleaf Markt € 30".
 */
const NUMBER = "\\p{Nd}(?:[\\p{Nd},.\\u00a0\\u202f\\u066b\\u066c'\u2019]*\\p{Nd})?";
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const WORD = `(?:[\\p{Script=Katakana}\\u30fc]+|\\p{Script=Han}+|(?:(?![${CJK}])[\\p{L}\\p{M}])+)`;
/**
 * A short word between the number and its unit ("700 more points"; four letters at most, so "3 weeks
 * to" stays "3 weeks"), lower-case: only a script with capitals has such words by this rule (Arabic's unit is
 * four letters or fewer itself, and the word after it is the sentence's).
 */
const SHORT = '\\p{Ll}{1,4}';
const SPACE = '[ \\u00a0\\u202f]';
/** A currency as Intl writes it: a symbol with at most three capitals around it ("$", "US$", "$US", "R$"), or a token isolated by utils/format.ts. */
const SYMBOL = '(?:\\u2066[^\\u2069]*\\u2069|\\p{Lu}{0,3}\\p{Sc}\\p{Lu}{0,3})';
/** Before the amount, also a bare ISO code ("USD 5.00"), not the end of a longer word. */
const CURRENCY_BEFORE = `(?<![\\p{L}\\p{M}])(?:${SYMBOL}|\\p{Lu}{3})`;
const MARK = '[\\u200e\\u200f\\u061c]?';
const MONEY = `${MARK}(?:${CURRENCY_BEFORE}${SPACE}?${NUMBER}|${NUMBER}${SPACE}?${SYMBOL})`;
const COUNT = `${NUMBER}${SPACE}?(?:${SHORT}${SPACE}(?=[\\p{L}]))?${WORD}`;
const FIGURE = new RegExp(`${MONEY}|${COUNT}`, 'gu');

/** First strong isolate and pop directional isolate: a figure's direction comes from its own first letter, and it reads as one unit. */
const FSI = '\u2068';
const PDI = '\u2069';
/** A name as {@link asName} marks it, whole. */
const NAME = /\u2068([^\u2066-\u2069]*)\u2069/gu;

/**
 * A name from the panel (a reward's), for a message that sets it among its own words: between
 * FSI and PDI, so it is one unit in its own direction (the isolates {@link qtyParts} knows it by, and
 * what plain text without markup needs anyway). Isolates of its own are left out: they would end it early.
 */
export const asName = (name: string): string => FSI + name.replace(/[\u2066-\u2069]/gu, '') + PDI;

export type QtyPart = string | { qty: string } | { name: string };

/** `text` as plain parts, `{ qty }` parts and `{ name }` parts ({@link asName}), in order; one plain part when it holds neither. */
export function qtyParts(text: string): QtyPart[] {
  const parts: QtyPart[] = [];
  let at = 0;
  for (const match of text.matchAll(NAME)) {
    const start = match.index;
    if (start > at) figures(text.slice(at, start), parts);
    parts.push({ name: match[1]! });
    at = start + match[0].length;
  }
  if (at < text.length || parts.length === 0) figures(text.slice(at), parts);
  return parts;
}

function figures(text: string, parts: QtyPart[]): void {
  let at = 0;
  const before = parts.length;
  for (const match of text.matchAll(FIGURE)) {
    const start = match.index;
    if (start > at) parts.push(text.slice(at, start));
    parts.push({ qty: match[0] });
    at = start + match[0].length;
  }
  if (at < text.length || parts.length === before) parts.push(text.slice(at));
}

/**
 * `text` with each figure between Unicode isolates (FSI … PDI), for text shown without markup in a
 * page or a notification written right to left: there `.qty` cannot be set, and the bidirectional
 * algorithm would otherwise pull a currency away from its amount. Left-to-right text is returned
 * as it is: no figure moves there, and the isolates would only be noise in what a screen reader or
 * a copy takes.
 */
export function isolateFigures(text: string, dir: 'ltr' | 'rtl'): string {
  if (dir === 'ltr') return text;
  return qtyParts(text)
    .map((part) => (typeof part === 'string' ? part : FSI + ('qty' in part ? part.qty : part.name) + PDI))
    .join('');
}

/** The class of the element whose text is split into figures, in Preact's render and in the first frame's. */
export const QTY_TEXT = 'qt';
