/**
 * The message catalogues (public/_locales) and their use: every locale has exactly English's keys
 * with the same substitutions, every key the code names exists, every key exists for a reason,
 * and no user-facing text is written into a component. Then t/tp themselves, in English and German.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPoints, formatRelative } from '../../utils/format';
import { t, tp, tpParts } from '../../utils/i18n';
import { describeState } from '../../utils/redemption-state';
import { checkoutRoot } from './checkout-root';
import { installI18n } from './i18n-setup';

const ROOT = checkoutRoot();
const LOCALES_DIR = join(ROOT, 'public/_locales');

interface Entry {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string; example?: string }>;
}
type Catalogue = Record<string, Entry>;

const read = (locale: string): Catalogue => JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'messages.json'), 'utf8'));
const locales = readdirSync(LOCALES_DIR).filter((name) => statSync(join(LOCALES_DIR, name)).isDirectory());
const en = read('en');
const others = locales.filter((l) => l !== 'en');

/** `$1`-style substitutions a message uses, sorted: "1,2". */
const substitutions = (message: string) => [...new Set([...message.matchAll(/\$([1-9])/g)].map((m) => m[1]))].sort().join(',');

const PLURAL = /^(.+)_(zero|one|two|few|many|other)$/;
const pluralBases = (catalogue: Catalogue) =>
  new Set(Object.keys(catalogue).flatMap((key) => (key.endsWith('_other') ? [key.slice(0, -'_other'.length)] : [])));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
const SOURCES = ['components', 'entrypoints', 'utils'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
const sourceText = new Map(SOURCES.map((file) => [relative(ROOT, file), readFileSync(file, 'utf8')]));

describe('message catalogues', () => {
  it('has English and at least one more complete language', () => {
    expect(locales).toContain('en');
    expect(others.length).toBeGreaterThanOrEqual(1);
    expect(others).toContain('de');
  });

  it('uses key names both browsers accept, none differing only in case (Chrome ignores case)', () => {
    const seen = new Map<string, string>();
    for (const key of Object.keys(en)) {
      expect(key, key).toMatch(/^[A-Za-z0-9_]+$/);
      expect(seen.get(key.toLowerCase()), `${key} clashes`).toBeUndefined();
      seen.set(key.toLowerCase(), key);
    }
  });

  it.each(others)('%s has exactly the English keys: none missing, none extra', (locale) => {
    const keys = Object.keys(read(locale));
    expect({ missing: Object.keys(en).filter((k) => !keys.includes(k)), extra: keys.filter((k) => !(k in en)) }).toEqual({
      missing: [],
      extra: [],
    });
  });

  it.each(others)('%s uses the same numbered substitutions as English in every message', (locale) => {
    const catalogue = read(locale);
    const differ = Object.keys(en)
      .filter((key) => catalogue[key] && substitutions(catalogue[key].message) !== substitutions(en[key]!.message))
      .map((key) => `${key}: en ${substitutions(en[key]!.message) || '-'}, ${locale} ${substitutions(catalogue[key]!.message) || '-'}`);
    expect(differ).toEqual([]);
  });

  it.each(locales)('%s: every message is written, and a dollar sign only ever starts a numbered substitution', (locale) => {
    for (const [key, entry] of Object.entries(read(locale))) {
      expect(entry.message.trim(), `${locale}/${key}`).not.toBe('');
      expect(entry.message, `${locale}/${key}`).toBe(entry.message.trim());
      // "$$" (a literal $) and named $PLACEHOLDERS$ are not used, so any other "$" is a mistake.
      expect(entry.message.replace(/\$[1-9]/g, ''), `${locale}/${key}`).not.toContain('$');
    }
  });

  it.each(locales)('%s: each plural message has every form its language needs, each with the count', (locale) => {
    const catalogue = read(locale);
    const lang = catalogue.lang?.message ?? locale;
    const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const base of pluralBases(en)) {
      for (const category of needed) {
        const entry = catalogue[`${base}_${category}`];
        expect(entry, `${locale}/${base}_${category}`).toBeDefined();
        expect(entry?.message, `${locale}/${base}_${category}`).toContain('$1');
      }
    }
    // No stray forms: each plural-looking key belongs to a base with an _other form.
    for (const key of Object.keys(catalogue)) {
      const m = PLURAL.exec(key);
      if (m) expect(pluralBases(en).has(m[1]!), key).toBe(true);
    }
  });

  it.each(locales)("%s: 'lang' names the file's own language", (locale) => {
    expect(read(locale).lang?.message.split('-')[0]).toBe(locale.split('_')[0]);
  });
});

describe('messages in the code', () => {
  /** Keys named in t('…'), tp('…') and tpParts('…') calls, with where. */
  const called = [...sourceText].flatMap(([file, text]) =>
    [...text.matchAll(/\b(t|tp|tpParts)\(\s*'([^']+)'/g)].map((m) => ({ file, fn: m[1]!, key: m[2]! })),
  );

  it('finds the calls it checks', () => {
    expect(called.length).toBeGreaterThan(150);
  });

  it('every key a component, page or module passes to t/tp is in en/messages.json', () => {
    const missing = called
      .filter(({ fn, key }) => (fn === 't' ? !(key in en) || PLURAL.test(key) : !pluralBases(en).has(key)))
      .map(({ file, fn, key }) => `${file}: ${fn}('${key}')`);
    expect(missing).toEqual([]);
  });

  it('every English message is used: by the code (a quoted key or plural base) or by the manifest', () => {
    const code = [...sourceText.values()].join('\n');
    const manifest = readFileSync(join(ROOT, 'wxt.config.ts'), 'utf8');
    const unused = Object.keys(en).filter((key) => {
      const base = PLURAL.exec(key)?.[1] ?? key;
      return !code.includes(`'${base}'`) && !manifest.includes(`__MSG_${key}__`);
    });
    expect(unused).toEqual([]);
  });

  it('the manifest sets the default locale and takes its description from the messages', () => {
    const manifest = readFileSync(join(ROOT, 'wxt.config.ts'), 'utf8');
    expect(manifest).toMatch(/default_locale:\s*'en'/);
    for (const [, key] of manifest.matchAll(/__MSG_(\w+)__/g)) expect(en, key).toHaveProperty(key!);
  });

  it('no component writes words of its own: no text between tags, no literal labels', () => {
    const found: string[] = [];
    for (const [file, text] of sourceText) {
      if (!file.endsWith('.tsx')) continue;
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      // Text between a tag's end and the next tag, outside {expressions}.
      for (const m of code.matchAll(/(?<!=)>([^<>{}`'"=;()&|]*[A-Za-z]{2,}[^<>{}`'"=;()&|]*)</g)) found.push(`${file}: "${m[1]!.trim()}"`);
      for (const m of code.matchAll(/\b(aria-label|placeholder|title|alt|label)="([^"]*[A-Za-z][^"]*)"/g)) found.push(`${file}: ${m[1]}="${m[2]}"`);
    }
    expect(found).toEqual([]);
  });
});

describe('t and tp', () => {
  it('English: substitutions, plurals, and numbers in the UI language', () => {
    expect(t('rewardNumber', 42)).toBe('Reward #42');
    expect(t('nothingSavedField', 'Your name', 'Too long.')).toBe('Nothing was saved. “Your name”: Too long.');
    expect(tp('points', 1)).toBe('1 point');
    expect(tp('points', 2500)).toBe('2,500 points');
    expect(tp('points', 0)).toBe('0 points');
    expect(tp('confirmQuestion', 500, 'Coffee')).toBe('Redeem Coffee for 500 points?');
    expect(tpParts('balancePoints', 2500)).toEqual(['', '2,500', ' points']);
    expect(formatRelative(Date.now())).toBe('just now');
    expect(describeState({ kind: 'failed', detail: 'declined' })).toBe('Failed: declined');
  });

  it('German: the same calls read German, with German numbers and plural forms', () => {
    installI18n('de');
    expect(t('rewardNumber', 42)).toBe('Prämie Nr. 42');
    expect(tp('points', 1)).toBe('1 Punkt');
    expect(tp('points', 2500)).toBe('2.500 Punkte');
    expect(tp('needMorePoints', 1)).toBe('Ihnen fehlt 1 Punkt');
    expect(tp('needMorePoints', 3000)).toBe('Ihnen fehlen 3.000 Punkte');
    expect(tp('unsavedChanges', 2)).toBe('2 ungespeicherte Änderungen');
    expect(tpParts('balancePoints', 2500)).toEqual(['', '2.500', ' Punkte']);
    expect(formatPoints(1234567)).toBe('1.234.567');
    expect(formatRelative(Date.now())).toBe('gerade eben');
    expect(describeState({ kind: 'complete' })).toBe('Abgeschlossen');
  });

  it('an unknown key shows the key rather than nothing', () => {
    expect(t('no such key' as 'close')).toBe('no such key');
  });
});
