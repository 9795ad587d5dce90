/**
 * The browser's i18n API for code run under Node (the unit tests, the panel doctor): messages
 * from public/_locales/<lang>/messages.json with Chrome's rules, so the extension's modules speak
 * as they do in the browser.
 */
import { readFileSync } from 'node:fs';
import { messageLookup, type Messages } from '../../utils/build/operator/locale-messages';

export { messageLookup, type Messages } from '../../utils/build/operator/locale-messages';

export function localeMessages(locale: string): Messages {
  return JSON.parse(
    readFileSync(new URL(`../../public/_locales/${locale}/messages.json`, import.meta.url), 'utf8'),
  ) as Messages;
}

/** Gives `globalThis.chrome.i18n` in `locale` (`uiLanguage` for number and date formats). */
export function installNodeI18n(locale = 'en', uiLanguage = 'en-US'): void {
  const global = globalThis as { chrome?: { i18n?: unknown } };
  global.chrome ??= {};
  global.chrome.i18n = { getMessage: messageLookup(localeMessages(locale)), getUILanguage: () => uiLanguage };
}
