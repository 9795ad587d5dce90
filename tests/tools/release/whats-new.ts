/**
 * What panelists read about a release ("what's new"), kept apart from what engineers and operators
 * read (CHANGELOG.md, the project's own, which the release neither reads nor edits): the operator's
 * own file, `whats-new.json` at the project's root, which this project never ships, so a fork keeps
 * it without ever editing ours.
 *
 *     {
 *       "unreleased": { "en": ["Save for a goal, with your pace.", "…"], "de": ["…"] },
 *       "1.3.0": { "en": "…" }
 *     }
 *
 * Each language's notes are a text, or a list of lines each shown as a bullet. English (the default
 * language) is required; no translation is made up: a language without its own notes gets the
 * English, and every file and the release notes say so. A release takes its version's entry, else
 * `unreleased`, and a local release moves `unreleased` under its version.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NOTES_FILE = 'whats-new.json';
export const UNRELEASED_NOTES = 'unreleased';
const ENGLISH = 'en';

export interface WhatsNew {
  locale: string;
  text: string;
  /** Where the words come from: the operator's notes in this language, or the English in their place. */
  source: 'own' | 'english-fallback';
}

export interface Notes {
  /** The entry the notes were taken from (the version, or `unreleased`); null when there is none. */
  entry: string | null;
  texts: Record<string, string>;
  problems: string[];
}

type Data = Record<string, unknown>;

function readData(root: string): { data: Data | null; problem: string | null } {
  const path = join(root, NOTES_FILE);
  if (!existsSync(path)) return { data: null, problem: null };
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return { data: null, problem: `${NOTES_FILE} must be an object of release → language → notes` };
    return { data: data as Data, problem: null };
  } catch (error) {
    return { data: null, problem: `${NOTES_FILE} is not JSON (${(error as Error).message})` };
  }
}

/** A language's notes as text: a list is one bullet per line. */
function notesText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || null;
  if (Array.isArray(value) && value.length > 0 && value.every((line) => typeof line === 'string' && line.trim()))
    return value.map((line: string) => `• ${line.trim()}`).join('\n');
  return null;
}

/** The panelists' notes for `version`: its own entry, else `unreleased`, with what is wrong with them. */
export function readNotes(root: string, version: string, locales: string[]): Notes {
  const { data, problem } = readData(root);
  const none = `no notes for panelists: write what they notice in this release in ${NOTES_FILE} under "${UNRELEASED_NOTES}" › "${ENGLISH}" (OPERATORS.md, "Releases")`;
  if (problem) return { entry: null, texts: {}, problems: [problem] };
  const entry = data && version in data ? version : data && UNRELEASED_NOTES in data ? UNRELEASED_NOTES : null;
  if (!data || entry === null) return { entry: null, texts: {}, problems: [none] };
  const languages = data[entry];
  const at = `${NOTES_FILE} › ${entry}`;
  if (typeof languages !== 'object' || languages === null || Array.isArray(languages))
    return { entry, texts: {}, problems: [`${at} must be an object of language → notes`] };
  const problems: string[] = [];
  const texts: Record<string, string> = {};
  for (const [locale, value] of Object.entries(languages)) {
    const text = notesText(value);
    if (!locales.includes(locale)) problems.push(`${at} › ${locale}: not a shipped language (${locales.join(', ')})`);
    else if (text === null) problems.push(`${at} › ${locale}: must be the notes, a text or a list of lines, not empty`);
    else texts[locale] = text;
  }
  if (!texts[ENGLISH] && !problems.some((p) => p.startsWith(`${at} › ${ENGLISH}:`)))
    problems.push(`${at} has no English notes ("${ENGLISH}"), which every language without its own falls back to`);
  return { entry, texts, problems };
}

/** Each shipped language's notes: its own, or the English in its place. */
export function whatsNew(texts: Record<string, string>, locales: string[]): WhatsNew[] {
  return locales.map((locale) =>
    texts[locale]
      ? { locale, text: texts[locale], source: 'own' }
      : { locale, text: texts[ENGLISH] ?? '', source: 'english-fallback' },
  );
}

/** How a language's words were made, for the release notes. */
export function sourceText(item: WhatsNew, entry: string): string {
  return item.source === 'own'
    ? `your notes (${NOTES_FILE} › ${entry} › ${item.locale})`
    : `ENGLISH FALLBACK: no notes in ${NOTES_FILE} › ${entry} › ${item.locale}, so this language's panelists read the English`;
}

/** The file with `unreleased` moved under `version`, and a new empty `unreleased` first. */
export function releaseNotesFile(root: string, version: string): void {
  const { data } = readData(root);
  if (!data || !(UNRELEASED_NOTES in data)) return;
  const { [UNRELEASED_NOTES]: released, ...rest } = data;
  const next = { [UNRELEASED_NOTES]: {}, [version]: released, ...rest };
  writeFileSync(join(root, NOTES_FILE), `${JSON.stringify(next, null, 2)}\n`);
}
