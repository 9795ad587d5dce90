/**
 * Unit-test stand-in for the browser's i18n API (vitest setup file of the unit project): messages
 * come from public/_locales as Chrome reads them, so components render English unless a test
 * switches with {@link installI18n}. Every test starts in English again.
 */
import { afterEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import de from '../../public/_locales/de/messages.json';
import en from '../../public/_locales/en/messages.json';

interface Entry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

/** `pseudo` is English in ⟦brackets⟧: text on a page outside brackets did not come from a message. */
const pseudo = Object.fromEntries(Object.entries(en as Record<string, Entry>).map(([k, v]) => [k, { ...v, message: `⟦${v.message}⟧` }]));

export const LOCALES: Record<string, Record<string, Entry>> = { en, de, pseudo };
export type TestLocale = 'en' | 'de' | 'pseudo';
const UI_LANGUAGE: Record<TestLocale, string> = { en: 'en-US', de: 'de-DE', pseudo: 'en-US' };

/**
 * Chrome's rules: names are case-insensitive, named `$PLACEHOLDER$`s take their content, then
 * `$1`…`$9` take the substitutions (a missing one is empty) and `$$` is a dollar sign; an unknown
 * name gives ''.
 */
export function getMessageIn(locale: string) {
  const byName = new Map(Object.entries(LOCALES[locale] ?? {}).map(([name, entry]) => [name.toLowerCase(), entry]));
  return (name: string, substitutions?: string | string[]): string => {
    const entry = byName.get(name.toLowerCase());
    if (!entry) return '';
    const subs = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
    const named = entry.message.replace(/\$([A-Za-z0-9_@]+)\$/g, (whole, key: string) => {
      const found = Object.entries(entry.placeholders ?? {}).find(([k]) => k.toLowerCase() === key.toLowerCase());
      return found ? found[1].content : whole;
    });
    return named.replace(/\$(\$|[1-9])/g, (_, what: string) => (what === '$' ? '$' : (subs[Number(what) - 1] ?? '')));
  };
}

/** Makes `chrome.i18n` (and the fake browser's, which some tests install as `chrome`) speak `locale`. */
export function installI18n(locale: TestLocale = 'en'): void {
  const api = {
    getMessage: getMessageIn(locale),
    getUILanguage: () => UI_LANGUAGE[locale],
  };
  const global = globalThis as { chrome?: { i18n?: unknown } };
  global.chrome ??= {};
  global.chrome.i18n = { ...(global.chrome.i18n as object | undefined), ...api };
  Object.assign(fakeBrowser.i18n, api);
}

installI18n('en');
afterEach(() => installI18n('en'));
