import { humanise, nameWords } from './humanise';
import { t } from './i18n';
import { profileWord } from './profile-words';
import type { VariableDefinition } from './types';

/**
 * A question as the panelist reads it: its text, or, when the panel gave no text, a label made
 * from its name in the page's language ({@link nameLabel}), else the panel's own name for it.
 */
export function questionText(def: Pick<VariableDefinition, 'name' | 'text'>): string {
  const text = def.text.trim();
  return text && text !== def.name.trim() ? text : nameLabel(def.name);
}

/** The page speaks English (or no language is known, as under Node): words made here from a name are English. */
function englishPage(): boolean {
  const lang = t('lang');
  if (lang === 'lang') return true;
  try {
    return new Intl.Locale(lang).language === 'en';
  } catch {
    return true;
  }
}

/**
 * A profile question's label made from its machine name, in the page's language (never
 * "Postal code" on a German page): a common profile word from the page's own messages
 * (utils/profile-words.ts: `POSTAL_CODE`, `zip`, `postalCode` → "Postleitzahl"); any other name
 * in words on an English page, and as the panel wrote it on any other. Here, not in humanise.ts,
 * which the popup's first frame loads: the table of profile words is the options page's alone.
 */
export function nameLabel(raw: string): string {
  const known = profileWord(nameWords(raw));
  const label = known && t(known);
  if (label && label !== known) return label;
  return englishPage() ? humanise(raw) : raw.trim();
}
