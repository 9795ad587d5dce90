/**
 * The message catalogues (public/_locales) as a translator leaves them: every language has
 * English's messages, with each plural message in exactly the CLDR categories its language uses,
 * the same substitutions, its own `lang`, a manifest description that fits the stores, and
 * accessible names that contain the visible words of their buttons.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  PLURAL,
  catalogue,
  categoriesOf,
  en,
  holdsOneNumber,
  langOf,
  pluralBases,
  substitutions,
} from './catalogues';

const ROOT = join(__dirname, '../..');
const others = LANGUAGES.filter((l) => l !== 'en');
const bases = pluralBases(en);
/** English's messages that are not plural forms. */
const singular = Object.keys(en).filter((key) => !bases.has(PLURAL.exec(key)?.[1] ?? ''));

describe('the languages', () => {
  it('are English (the default locale), German and eight more, Arabic written right to left', () => {
    expect(LANGUAGES).toEqual(['en', 'ar', 'de', 'es', 'fr', 'it', 'ja', 'nl', 'pl', 'pt_BR']);
  });

  it("are each a row of OPERATORS.md's table of languages, with their directory", () => {
    const doc = readFileSync(join(ROOT, 'OPERATORS.md'), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('| '));
    expect(LANGUAGES.filter((locale) => !rows.some((row) => row.includes(`| \`${locale}\` |`)))).toEqual([]);
  });

  it.each(LANGUAGES)("%s: 'lang' is the directory's BCP 47 tag (pt_BR → pt-BR), which Intl knows", (locale) => {
    const lang = langOf(locale);
    expect(lang).toBe(locale.replace('_', '-'));
    expect(Intl.PluralRules.supportedLocalesOf([lang])).toEqual([lang]);
  });

  it('use key names both browsers accept, none differing only in case (Chrome ignores case)', () => {
    const seen = new Map<string, string>();
    for (const key of Object.keys(en)) {
      expect(key, key).toMatch(/^[A-Za-z0-9_]+$/);
      expect(seen.get(key.toLowerCase()), `${key} clashes`).toBeUndefined();
      seen.set(key.toLowerCase(), key);
    }
  });
});

describe.each(others)('%s has every English message', (locale) => {
  const messages = catalogue(locale);
  const lang = langOf(locale);

  it('with the same keys, apart from plural categories', () => {
    const keys = Object.keys(messages);
    const plain = keys.filter((key) => !bases.has(PLURAL.exec(key)?.[1] ?? ''));
    expect({ missing: singular.filter((k) => !(k in messages)), extra: plain.filter((k) => !(k in en)) }).toEqual({
      missing: [],
      extra: [],
    });
    expect([...pluralBases(messages)].sort()).toEqual([...bases].sort());
  });

  it('with each plural message in exactly the categories of its language (Intl.PluralRules)', () => {
    const needed = categoriesOf(lang).sort();
    for (const base of bases) {
      const present = Object.keys(messages)
        .flatMap((key) => (PLURAL.exec(key)?.[1] === base ? [PLURAL.exec(key)![2]!] : []))
        .sort();
      expect(present, `${locale}/${base}`).toEqual(needed);
    }
  });

  it('with the same numbered substitutions as English', () => {
    const differ: string[] = [];
    for (const [key, entry] of Object.entries(messages)) {
      const plural = PLURAL.exec(key);
      const english = plural ? en[`${plural[1]}_other`]! : en[key]!;
      let want = substitutions(english.message);
      // A form for one single number may say it in words (Arabic "نقطتان", two points).
      if (plural && holdsOneNumber(lang, plural[2] as Intl.LDMLPluralRule) && !entry.message.includes('$1'))
        want = want.filter((s) => s !== '1');
      const got = substitutions(entry.message);
      if (got.join() !== want.join()) differ.push(`${key}: en ${want.join() || '-'}, ${locale} ${got.join() || '-'}`);
    }
    expect(differ).toEqual([]);
  });
});

/**
 * Messages a language writes exactly as English does: words it shares ("Panel", "Details",
 * "Status", "1 week" in Dutch). Any other English copy is a message left untranslated.
 */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  ar: ['notifyRedemptionText', 'namedAction'],
  de: ['stateOther', 'notifyRedemptionText', 'namedAction'],
  es: ['notifyRedemptionText', 'namedAction'],
  fr: ['points_one', 'points_other', 'balancePoints_one', 'balancePoints_other', 'detailsDescription'],
  it: ['notifyRedemptionText', 'namedAction'],
  ja: ['notifyRedemptionText', 'namedAction'],
  nl: ['stateOther', 'detailsDisclaimer', 'notifyRedemptionText', 'durationWeek_one', 'namedAction'],
  pl: ['stateOther', 'notifyRedemptionText', 'namedAction'],
  pt_BR: ['stateOther', 'notifyRedemptionText', 'namedAction'],
};

it.each(others)('%s: no message is left in English, apart from the words the language shares with it', (locale) => {
  const messages = catalogue(locale);
  const copies = Object.keys(messages).filter((key) => en[key]?.message === messages[key]!.message);
  expect(copies.sort()).toEqual([...(SAME_AS_ENGLISH[locale] ?? [])].sort());
});

describe.each(LANGUAGES)('%s: plural forms', (locale) => {
  const messages = catalogue(locale);
  const lang = langOf(locale);

  it('each category of the language is there, and no other: every count finds its own form', () => {
    const rules = new Intl.PluralRules(lang);
    for (const base of bases) {
      for (const count of [0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 100, 101, 102, 111, 1000, 1_000_000]) {
        expect(messages[`${base}_${rules.select(count)}`], `${locale}/${base}, ${count}`).toBeDefined();
      }
    }
    for (const key of Object.keys(messages)) {
      const plural = PLURAL.exec(key);
      if (plural) expect(categoriesOf(lang), key).toContain(plural[2]);
    }
  });

  it('each form shows the count, unless its category holds one number it can say in words', () => {
    for (const [key, entry] of Object.entries(messages)) {
      const plural = PLURAL.exec(key);
      if (!plural || entry.message.includes('$1')) continue;
      expect(holdsOneNumber(lang, plural[2] as Intl.LDMLPluralRule), `${locale}/${key} has no $1`).toBe(true);
    }
  });
});

/**
 * A count is always a plural message's `$1`: "went down by 1 points", "Try again in 1 seconds" and
 * Arabic's "$1 مرات" (its 3–10 form, said for 11 too) were counts put into a message of one form.
 * A count is found by what follows it in English: a word the catalogue counts with (the words after
 * `$1` in its own plural messages: points, seconds, days…, and "times" and "characters"). A count
 * with its unit passed in whole (`tp('points', n)` as `$2`) is no count of the message's own.
 * Breakages this fails on: "$2 points" in a message again, a message counting "days" without forms.
 */
describe('counts', () => {
  /** The word after `$1` in a message, if any. */
  const after = (message: string | undefined) => (message ? /\$1 ([a-z]+)/.exec(message)?.[1] : undefined);
  // A word the English forms inflect ("$1 point" / "$1 points"); "of" in "$1 of $2" is no unit.
  const counted = new Set([
    'times',
    'characters',
    ...[...bases].flatMap((base) => {
      const [one, other] = [after(en[`${base}_one`]?.message), after(en[`${base}_other`]?.message)];
      return one && other && one !== other ? [one, other] : [];
    }),
  ]);
  /** A list of numbers, never one count: "Choose a refresh interval of 15, 30, 60 minutes". */
  const LISTS = new Set(['errRefreshInterval']);

  it('the words counted with are the catalogue’s own', () => {
    expect([...counted]).toEqual(expect.arrayContaining(['points', 'point', 'seconds', 'days', 'minutes']));
  });

  /** Whether the description says `$n` is a name ("$1: the panel's name."): "your Panel Rewards points" counts nothing. */
  const isName = (description: string | undefined, n: string) =>
    new RegExp(`\\$${n}: [^;.]*\\bname\\b`).test(description ?? '');

  it('no message takes a count without plural forms: a number before a counted word is a plural message’s $1', () => {
    const wrong = Object.entries(en).flatMap(([key, { message, description }]) =>
      [...message.matchAll(/\$(\d) ([a-z]+)/g)]
        .filter(([, n, word]) => counted.has(word!) && !(PLURAL.test(key) && n === '1'))
        .filter(([, n]) => !LISTS.has(key) && !isName(description, n!))
        .map(([found]) => `${key}: “${found}”`),
    );
    expect(wrong).toEqual([]);
  });
});

/**
 * How each language speaks to the panelist (CONTRIBUTING.md, "Form of address"): one form of "you"
 * throughout, so no message of the other form is there; and how a notification kind completes
 * "Notify me when …" (`prefNotifyKinds`, then each `notifyKind…` label). The table is
 * CONTRIBUTING.md's, read from it; these are the rules each row's words stand for. Breakages this
 * fails on: a German "du" among the "Sie" messages, a Dutch "u", a kind label with a final full
 * stop or a capital, a German label ending on a noun (not a clause with its verb last), a Japanese
 * one not ending on とき, an Arabic one not starting with its present-tense verb.
 */
/** Any of `words` as a word of its own (JavaScript's \\b knows no accented letter: "complètes" is no "tes"). */
const words = (list: string, flags = 'u') => new RegExp(`(?<![\\p{L}\\p{M}])(${list})(?![\\p{L}\\p{M}])`, flags);
const ADDRESS: Record<string, { form: string; never: RegExp | null }> = {
  en: { form: 'you', never: null },
  de: { form: 'formal', never: words('du|dich|dir|dein\\p{L}*', 'iu') },
  fr: { form: 'formal', never: words('tu|toi|ton|tes|t’', 'iu') },
  es: { form: 'informal', never: words('usted|ustedes', 'iu') },
  it: { form: 'informal', never: words('Lei') },
  nl: { form: 'informal', never: words('u|uw', 'iu') },
  pl: { form: 'informal', never: words('Pan|Pani|Pana|Panu|Państwo|Państwa') },
  pt_BR: { form: 'você', never: words('tu|teu|tua|te|contigo|o senhor|a senhora') },
  ja: { form: 'polite', never: /君|お前|あんた/ },
  ar: { form: 'informal', never: /أنتم|حضرتك/ },
};
/** What completes "Notify me when …" in each language, beyond what every language keeps (no capital, no full stop). */
const COMPLETES: Record<string, (label: string) => boolean> = {
  // A clause with its verb last: it ends on a word with no capital (German nouns have one).
  de: (label) => /(^|\s)[a-zäöüß]+$/.test(label.replace(/\s*\(.*\)$/, '')),
  // "…とき": when it happens.
  ja: (label) => label.replace(/（.*）$/, '').endsWith('とき'),
  // Its verb first, in the present tense (تـ، يـ، نـ، أ).
  ar: (label) => /^[تينأ]/.test(label),
};
/** The connective "Notify me when" ends with: never said again at the start of a label. */
const CONNECTIVE = /^(when|wenn|quand|cuando|quando|als|gdy|عندما)\b/i;

describe('form of address and “Notify me when …”', () => {
  const doc = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const kinds = Object.keys(en).filter((key) => key.startsWith('notifyKind'));

  it('CONTRIBUTING.md names each language’s form of address and its “Notify me when …”', () => {
    // The table of each language's words, whose last two columns are these.
    const rows = Object.fromEntries(
      [...doc.matchAll(/^\| `(\w+)` \|(.*)\|$/gm)].map((m) => [m[1]!, m[2]!.split('|').at(-2)!.trim()]),
    );
    for (const locale of LANGUAGES)
      expect(rows[locale], locale).toMatch(new RegExp(`^${ADDRESS[locale]!.form}(?![\\p{L}])`, 'u'));
  });

  it.each(LANGUAGES)('%s: one form of address in every message', (locale) => {
    const never = ADDRESS[locale]!.never;
    const other = Object.entries(catalogue(locale)).filter(([, { message }]) => never?.test(message));
    expect(other.map(([key, { message }]) => `${key}: ${message}`)).toEqual([]);
  });

  it('Japanese is polite: every sentence ends in its polite form (す, ます, ください, ません, ました…)', () => {
    const plain = Object.entries(catalogue('ja')).flatMap(([key, { message }]) =>
      [...message.matchAll(/[^。]*。/g)]
        .map((m) => m[0].replace(/（[^）]*）/g, '').replace(/[:：]\s*\$\d。$/, '。'))
        .filter((sentence) => !/^\$\d。$/.test(sentence) && !/(す|さい|ん|た|か)。$/.test(sentence))
        .map((sentence) => `${key}: ${sentence}`),
    );
    expect(plain).toEqual([]);
  });

  it.each(LANGUAGES)('%s: each notification kind completes “Notify me when …” as a clause', (locale) => {
    const messages = catalogue(locale);
    expect(kinds.length).toBeGreaterThanOrEqual(6);
    const wrong = kinds
      .map((key) => [key, messages[key]!.message] as const)
      .filter(
        ([, label]) =>
          /[.!?。]$/.test(label) ||
          /^\p{Lu}/u.test(label) !== /^(Sie|Ihr|Twój|Twoj)\b/.test(label) ||
          CONNECTIVE.test(label) ||
          !(COMPLETES[locale]?.(label) ?? true),
      )
      .map(([key, label]) => `${key}: ${label}`);
    expect(wrong).toEqual([]);
  });
});

describe.each(LANGUAGES)('%s: every message', (locale) => {
  const messages = catalogue(locale);

  it('is written, and a dollar sign only ever starts a numbered substitution', () => {
    for (const [key, entry] of Object.entries(messages)) {
      expect(entry.message.trim(), `${locale}/${key}`).not.toBe('');
      expect(entry.message, `${locale}/${key}`).toBe(entry.message.trim());
      // "$$" (a literal $) and named $PLACEHOLDERS$ are not used, so any other "$" is a mistake.
      expect(entry.message.replace(/\$[1-9]/g, ''), `${locale}/${key}`).not.toContain('$');
    }
  });

  it('the manifest description fits the Chrome Web Store (132 characters with the default name)', () => {
    const description = `Panel Rewards: ${messages.extDescription!.message}`;
    expect(description.length, description).toBeLessThanOrEqual(132);
  });

  /** [visible text, accessible name]: the name holds the visible words (WCAG 2.5.3, label in name). */
  const LABEL_IN_NAME = [
    ['redeemButton', 'redeemReward'],
    ['checkNow', 'checkNowFor'],
    ['redeemAgain', 'redeemAgainFor'],
    ['confirmButton', 'confirmRedeeming'],
    ['confirmButton', 'confirmRedeemingAgain'],
    ['removeGoalShort', 'removeGoal'],
    ['setGoalShort', 'setGoal'],
    ['isGoalShort', 'isGoal'],
  ] as const;

  it.each(LABEL_IN_NAME)('the accessible name %s is part of %s', (visible, name) => {
    const label = messages[visible]!.message.toLocaleLowerCase();
    const full = messages[name]!.message.toLocaleLowerCase();
    // Whole, or word by word where the language puts the reward's name between them (German
    // "Details zu $1 ausblenden").
    const words = label.split(/\s+/);
    expect(
      full.includes(label) || words.every((w) => full.split(/[\s:]+/).includes(w)),
      `${locale}: “${label}” in “${full}”`,
    ).toBe(true);
  });
});

describe('French typography', () => {
  const fr = catalogue('fr');
  it('a no-break space before “:”, a narrow one before “;”, “?” and “!”, never a plain space', () => {
    // "https://…": a colon that starts an address is no punctuation.
    const wrong = Object.entries(fr).flatMap(([key, { message }]) =>
      [...message.matchAll(/(.)([;?!]|:(?!\/\/))/gu)]
        .filter(([, before, mark]) => before !== (mark === ':' ? '\u00a0' : '\u202f'))
        .map(([found]) => `${key}: ${JSON.stringify(found)}`),
    );
    expect(wrong).toEqual([]);
  });
});
