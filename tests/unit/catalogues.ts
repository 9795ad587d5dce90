/**
 * The message catalogues as the tests read them (public/_locales through i18n-setup), and what
 * CLDR says each language's plural messages need.
 */
import { LANGUAGES, LOCALES, type Catalogue } from './i18n-setup';

export { LANGUAGES };
export const catalogue = (locale: string): Catalogue => LOCALES[locale]!;
export const en = catalogue('en');

export const PLURAL = /^(.+)_(zero|one|two|few|many|other)$/;

/** Bases of the plural messages: `points` for `points_one`, `points_other`… */
export const pluralBases = (messages: Catalogue): Set<string> =>
  new Set(Object.keys(messages).flatMap((key) => (key.endsWith('_other') ? [key.slice(0, -'_other'.length)] : [])));

/** `$1`-style substitutions a message uses, sorted: ["1", "2"]. */
export const substitutions = (message: string): string[] =>
  [...new Set([...message.matchAll(/\$([1-9])/g)].map((m) => m[1]!))].sort();

/** The BCP 47 tag a catalogue's `lang` message gives, the language its plural rules come from. */
export const langOf = (locale: string): string => catalogue(locale).lang!.message;

/** The CLDR plural categories of `lang` (Intl.PluralRules, as the pages choose with). */
export const categoriesOf = (lang: string): Intl.LDMLPluralRule[] => [
  ...new Intl.PluralRules(lang).resolvedOptions().pluralCategories,
];

/** Counts the pages pass (whole numbers, truncated): up to 10,000 and some large ones. */
const COUNTS = [...Array.from({ length: 10_001 }, (_, n) => n), 100_000, 1_000_000, 2_000_000, 1_000_000_000];

/**
 * Whether `category` holds one single whole number in `lang` (Arabic `zero`, `one`, `two`; English
 * `one`). Such a form may say its number in words ("نقطتان", two points) instead of `$1`; a form
 * shared by several counts (French `one`: 0 and 1) must show the count.
 */
export function holdsOneNumber(lang: string, category: Intl.LDMLPluralRule): boolean {
  return countsIn(lang).get(category) === 1;
}

/**
 * How many of COUNTS fall in each category of `lang`, worked out once per language: every plural
 * message of a catalogue asks, and ten thousand selects per message took the catalogue test past
 * its time on a busy machine.
 */
const tallies = new Map<string, Map<Intl.LDMLPluralRule, number>>();
function countsIn(lang: string): Map<Intl.LDMLPluralRule, number> {
  let tally = tallies.get(lang);
  if (!tally) {
    const rules = new Intl.PluralRules(lang);
    tally = new Map();
    for (const n of COUNTS) {
      const category = rules.select(n);
      tally.set(category, (tally.get(category) ?? 0) + 1);
    }
    tallies.set(lang, tally);
  }
  return tally;
}
