import type en from '../public/_locales/en/messages.json';

/**
 * Every word the panelist reads, from `public/_locales/<lang>/messages.json` through the browser's
 * own i18n API. The `chrome` global serves pages and the background in Chrome and Firefox alike;
 * 'wxt/browser' is not imported so the webextension polyfill stays out of the popup's first chunk.
 *
 * Messages take `$1`…`$9` substitutions. Plurals are separate messages per CLDR category
 * (`unsavedChanges_one`, `unsavedChanges_other`), chosen with `Intl.PluralRules`; the count, a
 * whole number (points, changes, seconds), is always `$1`. Each language has exactly its own
 * categories (Polish `_few` and `_many`, Arabic `_zero` to `_other`, Japanese `_other` alone), so
 * the keys other languages add are never named in code: the types below come from English, whose
 * `_other` names every plural base. A form a language lacked would be answered by the browser from
 * English (its default locale), silently; tests/unit/i18n-catalogues.test.ts rules that out.
 */

type Key = Extract<keyof typeof en, string>;
type Category = Intl.LDMLPluralRule;

/** Bases of plural messages: `unsavedChanges` for `unsavedChanges_one` and `unsavedChanges_other`. */
export type PluralKey = BaseOf<Key>;
type BaseOf<K> = K extends `${infer Base}_other` ? Base : never;
/** Every message that is not one plural form of a {@link PluralKey}. */
export type MessageKey = Exclude<Key, `${PluralKey}_${Category}`>;

type Substitution = string | number;

const api = (): typeof chrome.i18n | undefined => (globalThis as { chrome?: typeof chrome }).chrome?.i18n;

function message(key: string, subs: readonly Substitution[]): string {
  // An unknown key gives '' in both browsers; the key itself is more useful than a blank.
  return api()?.getMessage(key, subs.map(String)) || key;
}

/** The message `key` in the browser's language, with `subs` for `$1`, `$2`, … */
export function t(key: MessageKey, ...subs: Substitution[]): string {
  return message(key, subs);
}

/** The browser's UI language (`en-US`, `de`), for `Intl` formats; undefined outside an extension. */
export function uiLocale(): string | undefined {
  return api()?.getUILanguage() || undefined;
}

let counts: { locale: string | undefined; format: Intl.NumberFormat } | undefined;

/** Counts in the UI language; the formatter is made once (see utils/format.ts on the cost). */
function formatCount(count: number): string {
  const locale = uiLocale();
  if (!counts || counts.locale !== locale) counts = { locale, format: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }) };
  return counts.format.format(count);
}

/** The plural form of `base` for `count` (truncated to a whole number); `$1` is the count, formatted, `subs` `$2`, … */
export function tp(base: PluralKey, count: number, ...subs: Substitution[]): string {
  const whole = Math.trunc(count);
  return plural(base, whole, formatCount(whole), subs);
}

const MARK = '\uE000';

/**
 * {@link tp} in three parts, before the count, the count, and after it, so the count can be set
 * in markup (`<strong>2,500</strong> points`).
 */
export function tpParts(base: PluralKey, count: number): [string, string, string] {
  const whole = Math.trunc(count);
  const text = plural(base, whole, MARK, []);
  const at = text.indexOf(MARK);
  return at < 0 ? [text, '', ''] : [text.slice(0, at), formatCount(whole), text.slice(at + MARK.length)];
}

function plural(base: PluralKey, count: number, shown: string, subs: readonly Substitution[]): string {
  // The rules of the language the messages are in (`lang`), which may differ from the UI's when
  // the UI language has no messages and English stands in.
  let category: Category = 'other';
  try {
    category = new Intl.PluralRules(t('lang')).select(count);
  } catch {
    // An unknown language tag: 'other' is every language's fallback.
  }
  const all = [shown, ...subs];
  const text = api()?.getMessage(`${base}_${category}`, all.map(String));
  return text || message(`${base}_other`, all);
}
