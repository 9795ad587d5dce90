/**
 * Unit-test stand-in for the browser's i18n API (vitest setup file of the unit project): messages
 * come from public/_locales as Chrome reads them, so components render English unless a test
 * switches with {@link installI18n}. Every test starts in English again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { messageLookup } from '../tools/node-i18n';

export interface Entry {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string }>;
}
export type Catalogue = Record<string, Entry>;

const LOCALES_DIR = join(__dirname, '../../public/_locales');
const read = (locale: string): Catalogue =>
  JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'messages.json'), 'utf8'));

/** Every locale directory in public/_locales (`en`, `de`, `pt_BR`…), English first. */
export const LANGUAGES: readonly string[] = readdirSync(LOCALES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b)));

const en = read('en');
/** `pseudo` is English in ⟦brackets⟧: text on a page outside brackets did not come from a message. */
const pseudo = Object.fromEntries(Object.entries(en).map(([k, v]) => [k, { ...v, message: `⟦${v.message}⟧` }]));

export const LOCALES: Record<string, Catalogue> = { ...Object.fromEntries(LANGUAGES.map((l) => [l, read(l)])), pseudo };
export type TestLocale = string;

/** What `chrome.i18n.getUILanguage()` says in a browser set to `locale`: the messages' own `lang` for most. */
function uiLanguage(locale: string): string {
  const fixed: Record<string, string> = { en: 'en-US', de: 'de-DE', pseudo: 'en-US' };
  return fixed[locale] ?? LOCALES[locale]!.lang!.message;
}

/** Names asked for since the last {@link installI18n} that the locale's own file lacks. */
const missed = new Set<string>();

/**
 * Messages the page asked for that the chosen language's file does not have: Chrome then answers
 * from the default locale (English) or, for a name English lacks too, with ''. Empty when every
 * word came from the language's own file.
 */
export function missedMessages(): string[] {
  return [...missed];
}

/**
 * Chrome's getMessage over the messages of `locale` (its rules: tests/tools/node-i18n.ts); a name
 * the locale lacks comes from the default locale (English) and is recorded in {@link missedMessages}.
 */
export function getMessageIn(locale: string) {
  const own = LOCALES[locale] ?? {};
  const ownNames = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const inOwn = messageLookup(own);
  const inEnglish = messageLookup(en);
  return (name: string, substitutions?: string | string[]): string => {
    if (ownNames.has(name.toLowerCase())) return inOwn(name, substitutions);
    missed.add(name);
    return inEnglish(name, substitutions);
  };
}

/** Makes `chrome.i18n` (and the fake browser's, which some tests install as `chrome`) speak `locale`. */
export function installI18n(locale: TestLocale = 'en'): void {
  if (!LOCALES[locale]) throw new Error(`no messages for ${locale}: ${Object.keys(LOCALES).join(', ')}`);
  missed.clear();
  const api = {
    getMessage: getMessageIn(locale),
    getUILanguage: () => uiLanguage(locale),
  };
  const global = globalThis as { chrome?: { i18n?: unknown } };
  global.chrome ??= {};
  global.chrome.i18n = { ...(global.chrome.i18n as object | undefined), ...api };
  Object.assign(fakeBrowser.i18n, api);
}

installI18n('en');
afterEach(() => installI18n('en'));
