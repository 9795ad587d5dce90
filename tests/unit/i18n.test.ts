/**
 * The messages in the code: every key the code names exists, every key exists for a reason, and
 * no user-facing text is written into a component. Then t/tp themselves: English and German as
 * they always read, and each language's own plural forms and numbers.
 * (The catalogues themselves: i18n-catalogues.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPoints, formatRelative } from '../../utils/format';
import { t, tp, tpParts, type PluralKey } from '../../utils/i18n';
import { describeState } from '../../utils/redemption-state';
import { PLURAL, catalogue, en, pluralBases } from './catalogues';
import { checkoutRoot } from './checkout-root';
import { installI18n, missedMessages } from './i18n-setup';

const ROOT = checkoutRoot();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}
const SOURCES = ['components', 'entrypoints', 'utils'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
const sourceText = new Map(SOURCES.map((file) => [relative(ROOT, file), readFileSync(file, 'utf8')]));

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
      for (const m of code.matchAll(/(?<!=)>([^<>{}`'"=;()&|]*[A-Za-z]{2,}[^<>{}`'"=;()&|]*)</g))
        found.push(`${file}: "${m[1]!.trim()}"`);
      for (const m of code.matchAll(/\b(aria-label|placeholder|title|alt|label)="([^"]*[A-Za-z][^"]*)"/g))
        found.push(`${file}: ${m[1]}="${m[2]}"`);
    }
    expect(found).toEqual([]);
  });
});

describe('t and tp', () => {
  it('English: substitutions, plurals, and numbers in the UI language', () => {
    expect(t('rewardNumber', 42)).toBe('Reward #42');
    expect(t('notRemovedField', 'Your name', 'Too long.')).toBe(
      'Your answer to “Your name” was not removed: Too long.',
    );
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

  it.each(['en', 'de'])('%s still reads as before: the one form for 1, the other for every other count', (locale) => {
    installI18n(locale);
    const messages = catalogue(locale);
    // Every $1 is the count (a message may say it twice); a substitution not given reads as nothing, as chrome.i18n has it.
    const fill = (key: string, count: string) =>
      messages[key]!.message.replaceAll('$1', count)
        .replaceAll('$2', 'X')
        .replace(/\$[3-9]/g, '');
    for (const base of pluralBases(en)) {
      for (const count of [0, 1, 2, 5, 21, 1_000_000]) {
        const form = count === 1 ? 'one' : 'other';
        expect(tp(base as PluralKey, count, 'X'), `${base} ${count}`).toBe(
          fill(`${base}_${form}`, formatPoints(count)),
        );
      }
    }
    expect(missedMessages()).toEqual([]);
  });

  it('English and German, word for word', () => {
    expect([0, 1, 1_000_000].map((n) => tp('points', n))).toEqual(['0 points', '1 point', '1,000,000 points']);
    expect(tp('durationWeek', 1)).toBe('1 week');
    installI18n('de');
    expect([0, 1, 1_000_000].map((n) => tp('points', n))).toEqual(['0 Punkte', '1 Punkt', '1.000.000 Punkte']);
    expect(tp('durationWeek', 1)).toBe('1 Woche');
    expect(tp('progressPoints', 500, '200')).toBe('200 von 500 Punkten');
  });

  /** Each language's own forms, as a native reader expects them (numbers in the language's format). */
  const READINGS: Record<string, Array<[PluralKey, number, string]>> = {
    pl: [
      ['points', 0, '0 punktów'],
      ['points', 1, '1 punkt'],
      ['points', 2, '2 punkty'],
      ['points', 5, '5 punktów'],
      ['points', 12, '12 punktów'],
      ['points', 22, '22 punkty'],
      ['points', 1_000_000, '1\u00a0000\u00a0000 punktów'],
      ['needMorePoints', 1, 'Brakuje Ci 1 punktu'],
      ['unsavedChanges', 3, '3 niezapisane zmiany'],
      ['durationWeek', 5, '5 tygodni'],
    ],
    ar: [
      ['points', 0, '0 نقطة'],
      ['points', 1, 'نقطة واحدة'],
      ['points', 2, 'نقطتان'],
      ['points', 3, '3 نقاط'],
      ['points', 11, '11 نقطة'],
      ['points', 100, '100 نقطة'],
      ['savedChanges', 11, 'تم حفظ 11 تغييرًا.'],
      ['durationWeek', 2, 'أسبوعان'],
    ],
    fr: [
      ['points', 0, '0 point'],
      ['points', 2, '2 points'],
      ['points', 1_000_000, '1\u202f000\u202f000 points'],
    ],
    es: [
      ['points', 1, '1 punto'],
      ['points', 2500, '2500 puntos'],
      ['points', 1_000_000, '1.000.000 puntos'],
    ],
    it: [['points', 1_000_000, '1.000.000 punti']],
    pt_BR: [
      ['points', 0, '0 ponto'],
      ['points', 2, '2 pontos'],
      ['points', 1_000_000, '1.000.000 pontos'],
    ],
    nl: [
      ['points', 1, '1 punt'],
      ['points', 2500, '2.500 punten'],
    ],
    ja: [
      ['points', 1, '1 ポイント'],
      ['points', 2500, '2,500 ポイント'],
    ],
  };

  it.each(Object.keys(READINGS))('%s: plural forms and numbers read as the language writes them', (locale) => {
    installI18n(locale);
    for (const [base, count, text] of READINGS[locale]!) expect(tp(base, count), `${base} ${count}`).toBe(text);
    expect(missedMessages()).toEqual([]);
  });

  it('Arabic: the balance keeps its number to set large, whatever the form', () => {
    installI18n('ar');
    expect(tpParts('balancePoints', 1)).toEqual(['', '1', ' نقطة']);
    expect(tpParts('balancePoints', 2)).toEqual(['', '2', ' نقطة']);
    expect(tpParts('balancePoints', 7)).toEqual(['', '7', ' نقاط']);
  });

  it('an unknown key shows the key rather than nothing', () => {
    expect(t('no such key' as 'close')).toBe('no such key');
  });
});
