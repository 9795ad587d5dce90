/**
 * Messages put together into one text the way their language writes it. Japanese (and Chinese)
 * end a sentence with "。" and start the next one without a space; the other languages end with
 * "." (or "!", "?", "؟") and a space. Decided from the text itself, so a panel's own words in
 * another language than the page's are still joined as they are written.
 */

const ENDED = /[.!?…。！？؟]$/;
const FULL_WIDTH_END = /[。！？]$/;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

/**
 * What goes between a sentence ending `before` and the next one: nothing after "。", else a space;
 * a name's closing isolate (utils/qty.ts, `asName`) after it is not its end.
 */
export function gap(before: string): string {
  return FULL_WIDTH_END.test(before.trimEnd().replace(/[\u2066-\u2069]+$/u, '')) ? '' : ' ';
}

/** `text` as a sentence: with a full stop ("." or "。") when it ends without one. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed || ENDED.test(trimmed)) return trimmed;
  return trimmed + (CJK.test(trimmed) ? '。' : '.');
}

/** Sentences one after another; empty ones are left out. */
export function sentences(...parts: readonly string[]): string {
  let text = '';
  for (const part of parts.map((p) => p.trim()).filter(Boolean)) text = text ? text + gap(text) + part : part;
  return text;
}
