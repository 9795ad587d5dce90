/**
 * The browser's i18n API for code run under Node (the unit tests, the panel doctor): messages
 * from public/_locales/<lang>/messages.json with Chrome's rules, so the extension's modules speak
 * as they do in the browser.
 */
import { readFileSync } from 'node:fs';

export interface MessageEntry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

export type Messages = Record<string, MessageEntry>;

export function localeMessages(locale: string): Messages {
  return JSON.parse(readFileSync(new URL(`../../public/_locales/${locale}/messages.json`, import.meta.url), 'utf8')) as Messages;
}

/**
 * Chrome's rules: names are case-insensitive, named `$PLACEHOLDER$`s take their content, then
 * `$1`…`$9` take the substitutions (a missing one is empty) and `$$` is a dollar sign; an unknown
 * name gives ''.
 */
export function messageLookup(messages: Messages) {
  const byName = new Map(Object.entries(messages).map(([name, entry]) => [name.toLowerCase(), entry]));
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

/** Gives `globalThis.chrome.i18n` in `locale` (`uiLanguage` for number and date formats). */
export function installNodeI18n(locale = 'en', uiLanguage = 'en-US'): void {
  const global = globalThis as { chrome?: { i18n?: unknown } };
  global.chrome ??= {};
  global.chrome.i18n = { getMessage: messageLookup(localeMessages(locale)), getUILanguage: () => uiLanguage };
}
