import { t } from './i18n';
import { profileWord } from './profile-words';

/** A machine name's words, lower case: "POSTAL_CODE" → postal, code; "firstName" → first, name. */
function nameWords(raw: string): string[] {
  return raw
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.:\-/]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/**
 * A machine name in words a panelist can read: "POSTAL_CODE" → "Postal code", "IN_REVIEW" →
 * "In review", "firstName" → "First name". Used where the panel sent only its internal name;
 * the raw name stays available for support, out of the panelist's way.
 */
export function humanise(raw: string): string {
  const text = nameWords(raw).join(' ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : raw.trim();
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
 * in words on an English page, and as the panel wrote it on any other.
 */
export function nameLabel(raw: string): string {
  const known = profileWord(nameWords(raw));
  const label = known && t(known);
  if (label && label !== known) return label;
  return englishPage() ? humanise(raw) : raw.trim();
}
