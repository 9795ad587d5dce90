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

let page: { ui: string; lang: string; locale: string } | undefined;

/**
 * The page's language for `Intl` formats: the browser's UI language (`en-GB`, `de-AT`) when the
 * messages are in that language, else the messages' own `lang`, so numbers and dates never speak
 * another language than the words around them (a browser in Portuguese (Portugal) reads English,
 * with English numbers). Undefined outside an extension.
 */
export function uiLocale(): string | undefined {
  const ui = api()?.getUILanguage() || undefined;
  if (!ui) return undefined;
  const lang = t('lang');
  if (page?.ui !== ui || page.lang !== lang) page = { ui, lang, locale: pageLocale(ui, lang) };
  return page.locale;
}

function pageLocale(ui: string, lang: string): string {
  try {
    return new Intl.Locale(ui).language === new Intl.Locale(lang).language ? ui : lang;
  } catch {
    // A tag Intl does not read: the browser's own is the better guess.
    return ui;
  }
}

/** Scripts written right to left (ISO 15924), as `Intl.Locale#maximize` names them. */
const RTL_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Mend', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa', 'Yezi']);

/**
 * The writing direction of a language (`ar`, `he`, `fa` and `ur` are 'rtl'), by the script CLDR
 * gives it, so a language an operator adds is laid out right to left without a setting. Both
 * browsers have `Intl.Locale#maximize`; Firefox has no `getTextInfo`.
 */
export function direction(lang: string = t('lang')): 'ltr' | 'rtl' {
  let dir = directions.get(lang);
  if (!dir) {
    try {
      dir = RTL_SCRIPTS.has(new Intl.Locale(lang).maximize().script ?? '') ? 'rtl' : 'ltr';
    } catch {
      dir = 'ltr';
    }
    directions.set(lang, dir);
  }
  return dir;
}

/** Asked for each figure a list formats: the answer per language is kept. */
const directions = new Map<string, 'ltr' | 'rtl'>();

let counts: { locale: string | undefined; format: Intl.NumberFormat } | undefined;

/** Counts in the UI language; the formatter is made once (see utils/format.ts on the cost). */
function formatCount(count: number): string {
  const locale = uiLocale();
  if (!counts || counts.locale !== locale)
    counts = { locale, format: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }) };
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
