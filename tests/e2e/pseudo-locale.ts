/**
 * The pseudo-locale of the fit test: every English message 40 % longer and accented
 * ("Redeem" → "Ŕéðééɱ éð"), written over `_locales/en` of a copy of the e2e build, so the pages
 * render every word longer than any language we ship, with marks above and below the line. It is
 * made at test time and never shipped.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Catalogue } from './words';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'áƀçðéƒĝĥíĵķĺɱñóƥǫŕšţúṽŵẋýžÅƁÇÐÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ'][i]!,
  ]),
);

/** Messages that are not words on a page: the language tag, and the store's texts. */
const KEPT = /^(lang|extDescription|store[A-Z]\w*)$/;

/**
 * One message, 40 % longer (rounded up) and accented. `$1`… stay as they are; the added letters
 * come as words after the text, so the lines break as a longer language's would.
 */
export function pseudoMessage(message: string): string {
  const parts = message.split(/(\$[1-9$])/);
  const letters = parts
    .filter((_, i) => i % 2 === 0)
    .join('')
    .replace(/[^\p{L}]/gu, '');
  if (!letters) return message;
  const accented = parts.map((part, i) => (i % 2 ? part : [...part].map((c) => ACCENTED[c] ?? c).join(''))).join('');
  const extra = Math.ceil(message.length * 0.4);
  const filler = [...letters].map((c) => ACCENTED[c] ?? c);
  // Words of up to six letters, as long as German's long ones are not: a space every seventh.
  const pad = Array.from({ length: extra }, (_, i) =>
    i % 7 === 0 && i < extra - 1 ? ' ' : filler[i % filler.length],
  ).join('');
  return `${accented}${pad}`;
}

export function pseudoCatalogue(english: Catalogue): Catalogue {
  return Object.fromEntries(
    Object.entries(english).map(([key, entry]) => [
      key,
      KEPT.test(key) ? entry : { ...entry, message: pseudoMessage(entry.message) },
    ]),
  );
}

/** A copy of the built extension at `dir` speaking the pseudo-locale in place of English; returns it and its catalogue. */
export async function pseudoBuild(dir: string): Promise<{ dir: string; messages: Catalogue }> {
  const copy = await mkdtemp(join(tmpdir(), 'panel-pseudo-'));
  await cp(dir, copy, { recursive: true });
  const file = join(copy, '_locales/en/messages.json');
  const messages = pseudoCatalogue(JSON.parse(await readFile(file, 'utf8')) as Catalogue);
  await writeFile(file, JSON.stringify(messages));
  return { dir: copy, messages };
}
