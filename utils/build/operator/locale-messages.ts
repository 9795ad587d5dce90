/**
 * The shipped languages' messages (public/_locales/<lang>/messages.json), read under Node with
 * Chrome's rules: for the build's checks (the manifest description in every language), the store
 * listing, and the browser's i18n API in unit tests and tools (tests/tools/node-i18n.ts).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface MessageEntry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

export type Messages = Record<string, MessageEntry>;

export const LOCALES_DIR = 'public/_locales';

/** The languages shipped in `dir` (one folder each), English first. */
export function shippedLocales(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory())
    .sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b)));
}

export function readMessages(dir: string, locale: string): Messages {
  return JSON.parse(readFileSync(join(dir, locale, 'messages.json'), 'utf8')) as Messages;
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
