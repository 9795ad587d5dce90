/**
 * A release's "what's new" in every shipped language, from its CHANGELOG.md entry. No translation
 * is made up: a language gets the operator's own words from the translations file
 * (`whats-new.json` at the project's root: `{"1.2.0": {"de": "…", "fr": "…"}}`), or else the
 * English entry, and every file and the release notes say which of the two it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRANSLATIONS_FILE = 'whats-new.json';

export interface WhatsNew {
  locale: string;
  text: string;
  /** Where the words come from: the operator's translation, or the English entry in its place. */
  source: 'translation' | 'english' | 'english-fallback';
}

/** The translations file's entries for `version`, and what is wrong with the file. */
export function readTranslations(
  root: string,
  version: string,
  locales: string[],
): { texts: Record<string, string>; problems: string[] } {
  const path = join(root, TRANSLATIONS_FILE);
  if (!existsSync(path)) return { texts: {}, problems: [] };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { texts: {}, problems: [`${TRANSLATIONS_FILE} is not JSON (${(error as Error).message})`] };
  }
  const entry = (data as Record<string, unknown> | null)?.[version];
  if (entry === undefined) return { texts: {}, problems: [] };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return { texts: {}, problems: [`${TRANSLATIONS_FILE} › ${version} must be an object of language → text`] };
  const problems: string[] = [];
  const texts: Record<string, string> = {};
  for (const [locale, text] of Object.entries(entry)) {
    if (!locales.includes(locale))
      problems.push(`${TRANSLATIONS_FILE} › ${version} › ${locale}: not a shipped language (${locales.join(', ')})`);
    else if (typeof text !== 'string' || !text.trim())
      problems.push(`${TRANSLATIONS_FILE} › ${version} › ${locale}: must be the text, not empty`);
    else texts[locale] = text.trim();
  }
  return { texts, problems };
}

/** Each shipped language's text: its translation, English for English, and English in its place otherwise. */
export function whatsNew(english: string, locales: string[], translations: Record<string, string>): WhatsNew[] {
  return locales.map((locale) =>
    locale === 'en'
      ? { locale, text: english, source: 'english' }
      : translations[locale]
        ? { locale, text: translations[locale], source: 'translation' }
        : { locale, text: english, source: 'english-fallback' },
  );
}

/** How a language's words were made, for the release notes. */
export function sourceText(item: WhatsNew, version: string): string {
  switch (item.source) {
    case 'translation':
      return `your translation (${TRANSLATIONS_FILE} › ${version} › ${item.locale})`;
    case 'english':
      return 'the CHANGELOG.md entry';
    default:
      return `ENGLISH FALLBACK: no translation in ${TRANSLATIONS_FILE} › ${version} › ${item.locale}, so this language's panelists read the English entry`;
  }
}
