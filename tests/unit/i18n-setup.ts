/**
 * Unit-test stand-in for the browser's i18n API (vitest setup file of the unit project): messages
 * come from public/_locales as Chrome reads them, so components render English unless a test
 * switches with {@link installI18n}. Every test starts in English again.
 */
import { afterEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import de from '../../public/_locales/de/messages.json';
import en from '../../public/_locales/en/messages.json';
import { messageLookup } from '../tools/node-i18n';

interface Entry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

/** `pseudo` is English in ⟦brackets⟧: text on a page outside brackets did not come from a message. */
const pseudo = Object.fromEntries(Object.entries(en as Record<string, Entry>).map(([k, v]) => [k, { ...v, message: `⟦${v.message}⟧` }]));

export const LOCALES: Record<string, Record<string, Entry>> = { en, de, pseudo };
export type TestLocale = 'en' | 'de' | 'pseudo';
const UI_LANGUAGE: Record<TestLocale, string> = { en: 'en-US', de: 'de-DE', pseudo: 'en-US' };

/** Chrome's getMessage over the messages of `locale` (its rules: tests/tools/node-i18n.ts). */
export function getMessageIn(locale: string) {
  return messageLookup(LOCALES[locale] ?? {});
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
