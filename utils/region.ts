import { formatList } from './format';
import { uiLocale } from './i18n';

/** A country's name for its ISO code ("US" → "United States") in the UI language; anything else as it is. */
export function countryName(code: string): string {
  const trimmed = code.trim();
  if (!/^[A-Za-z]{2}$/.test(trimmed)) return code;
  try {
    return new Intl.DisplayNames(uiLocale(), { type: 'region' }).of(trimmed.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Countries by name, listed as the UI language lists them ("United States, Canada"). */
export function countryList(codes: readonly string[]): string {
  return formatList(codes.map(countryName));
}
