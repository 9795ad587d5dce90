// @vitest-environment node
/**
 * The store kit: the sources zip is an allow-list it prints; `npm run store`
 * finds a missing Chromium before building anything and says what to install; the listing needs no
 * inflection of the operator's name in any language (no "Acme Opinions’s", no "de Acme"); the store
 * icon is 96 px artwork with transparent padding in 128 px; OPERATORS.md says how to ship an update.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wxt } from 'wxt';
import { STORE_ICON, edgeLogo, storeIcon } from '../../utils/build/operator/icons';
import { LOCALES_DIR, messageLookup, readMessages, shippedLocales } from '../../utils/build/operator/locale-messages';
import { NEVER_IN_SOURCES, SOURCE_PATHS, describeSources, sourcesAllowList } from '../../utils/build/operator/sources';
import { LISTING_MESSAGES, listingFor } from '../../utils/build/operator/store-listing';
import config from '../../wxt.config';
import { browserProblem } from '../tools/store/browser';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-kit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the sources zip', () => {
  it("is an allow-list of the build's inputs, with this build's config file and icon", () => {
    expect(config.zip?.includeSources).toEqual([...SOURCE_PATHS]);
    expect(config.zip?.excludeSources).toEqual([...NEVER_IN_SOURCES]);
    for (const kept of [
      'package.json',
      'package-lock.json',
      'wxt.config.ts',
      'utils/**',
      'entrypoints/**',
      'components/**',
      'public/**',
    ])
      expect(SOURCE_PATHS).toContain(kept);
    // Nothing is let in by "everything but": no catch-all pattern, nothing of the tests, tools or reports.
    for (const pattern of SOURCE_PATHS) expect(pattern).not.toMatch(/^\*|^tests|^bench|^reports|^\.|vitest|stryker/);

    expect(
      sourcesAllowList({ configFile: '/work/shop/panel.config.json', icon: '/work/shop/brand/icon.svg' }, '/work/shop'),
    ).toEqual([...SOURCE_PATHS, 'panel.config.json', 'brand/icon.svg']);
    // Outside the project (npm run store refuses that) nothing is added; inside an allowed folder, nothing twice.
    expect(sourcesAllowList({ configFile: null, icon: '/elsewhere/icon.svg' }, '/work/shop')).toEqual([
      ...SOURCE_PATHS,
    ]);
    expect(sourcesAllowList({ configFile: '/work/shop/panel.config.jsonc', icon: '' }, '/work/shop')).toEqual([
      ...SOURCE_PATHS,
      'panel.config.jsonc',
    ]);
  });

  it('takes the allow-list when WXT zips the sources (the hook in wxt.config.ts)', () => {
    const saved = { ...process.env };
    try {
      for (const name of Object.keys(process.env)) if (name.startsWith('PANEL_')) delete process.env[name];
      Object.assign(process.env, { PANEL_CONFIG: 'none', PANEL_ICON: 'tests/fixtures/acme-icon.svg' });
      const wxt = {
        config: { mode: 'production', root: process.cwd(), zip: { includeSources: ['**/*'] } },
      } as unknown as Wxt;
      const hook = (config.hooks as Record<string, (wxt: Wxt) => void>)['zip:sources:start']!;
      hook(wxt);
      expect(wxt.config.zip.includeSources).toEqual([...SOURCE_PATHS, 'tests/fixtures/acme-icon.svg']);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it('is printed as the list of what it holds', () => {
    const entries = [
      'package.json',
      'wxt.config.ts',
      'utils/a.ts',
      'utils/b/c.ts',
      'public/icon/16.png',
      'panel.config.json',
    ];
    expect(
      describeSources(entries, [
        'package.json',
        'package-lock.json',
        'wxt.config.ts',
        'utils/**',
        'public/**',
        'components/**',
        'panel.config.json',
      ]),
    ).toEqual([
      'package.json',
      'package-lock.json (missing)',
      'wxt.config.ts',
      'utils/ (2 files)',
      'public/ (1 file)',
      'components/ (0 files)',
      'panel.config.json',
    ]);
  });
});

describe('npm run store without a browser', () => {
  it('says what to install before building anything', () => {
    const missing = browserProblem(join(dir, 'no-chromium'), false);
    expect(missing).toMatch(
      /^The store screenshots are taken in Chromium, and there is no Chromium at .*no-chromium: install Chromium \(Debian, Ubuntu: sudo apt install chromium;/,
    );
    expect(missing).toContain('CHROMIUM_PATH');
    expect(browserProblem(join(dir, 'no-chromium'), true)).toMatch(
      /CHROMIUM_PATH names .*no-chromium, which does not exist/,
    );

    const notProgram = join(dir, 'chromium.txt');
    writeFileSync(notProgram, 'text');
    expect(browserProblem(notProgram, true)).toMatch(/is not a program this user can run/);

    const stub = join(dir, 'chromium-stub');
    writeFileSync(
      stub,
      '#!/bin/sh\necho "Command \'chromium-browser\' requires the chromium snap to be installed." >&2\nexit 1\n',
    );
    chmodSync(stub, 0o755);
    expect(browserProblem(stub, true)).toMatch(
      /--version did not run \(exit 1: Command 'chromium-browser' requires the chromium snap/,
    );

    const fine = join(dir, 'chromium');
    writeFileSync(fine, '#!/bin/sh\necho "Chromium 140.0"\n');
    chmodSync(fine, 0o755);
    expect(browserProblem(fine, true)).toBeNull();
  });

  it('is checked in the tool before its first build', () => {
    const tool = readFileSync('tests/tools/store.ts', 'utf8');
    const preflight = tool.slice(tool.indexOf('async function preflight'), tool.indexOf('function outputTree'));
    const main = tool.slice(tool.indexOf('async function main'));
    expect(preflight).toContain('browserProblem(');
    expect(preflight).toContain('checkSettings(');
    expect(main.indexOf('preflight(')).toBeGreaterThan(0);
    expect(main.indexOf('preflight(')).toBeLessThan(main.indexOf('zips('));
  });
});

/** The word each language puts before the operator's name, so the name stays as it is: "the panel Acme Opinions". */
const BEFORE_NAME: Record<string, string[]> = {
  en: ['panel'],
  de: ['Panel'],
  fr: ['panel'],
  es: ['panel'],
  it: ['panel'],
  nl: ['panel'],
  pl: ['panelu'],
  pt_BR: ['painel'],
  ja: ['パネル'],
  // Verb first, then the name as its subject; or "the platform <name>".
  ar: ['يضع', 'منصة'],
};

/**
 * Promises about what the panel charges, in each language: "exactly once", "only once", "never
 * charged twice", a guarantee. Only a panel that honours Idempotency-Key charges a re-sent
 * redemption once (OPERATORS.md, "Redemptions sent twice"), so the listing, the extension's own
 * promise, may say only what it does on its side. Checked against the listings as they were, which
 * promised "exactly once" in every language, each of which these patterns refused.
 */
const PANEL_PROMISES: Record<string, RegExp> = {
  en: /\b(exactly|only|just) once\b|\bonce and only once\b|\ba single time\b|\bcharged (only )?once\b|\bnever (be )?(charged|billed|debited) twice\b|\bguarantee/i,
  de: /genau einmal|nur einmal|ein einziges Mal|einmalig|nie doppelt|niemals doppelt|garantiert/i,
  fr: /exactement une fois|une seule fois|qu[’']une fois|jamais (débité|facturé)e?s? deux fois|garanti/i,
  es: /exactamente una vez|una sola vez|s[oó]lo una vez|nunca se cobra dos veces|garantiza/i,
  it: /esattamente una volta|una volta sola|una sola volta|solo una volta|mai addebitat\w* due volte|garantit/i,
  nl: /precies (één|een) keer|slechts (één|een) keer|maar (één|een) keer|eenmalig|nooit dubbel|gegarandeerd/i,
  pl: /dokładnie raz|tylko raz|jeden jedyny raz|nigdy dwa razy|nigdy podwójnie|gwarant/i,
  pt_BR: /exatamente uma vez|uma única vez|apenas uma vez|só uma vez|nunca (é )?cobrad\w* duas vezes|garant/i,
  ja: /確実に一度|一度だけ|1回だけ|一回だけ|二重に請求されません|保証/,
  ar: /مرة واحدة فقط|مرة واحدة بالضبط|مرة واحدة لا غير|مضمون/,
};

describe('the store listing in every language', () => {
  const locales = shippedLocales(LOCALES_DIR);

  it('promises only what the extension does on its side, never "exactly once" about the panel, in any language', () => {
    expect(locales.toSorted()).toEqual(Object.keys(PANEL_PROMISES).toSorted());
    for (const locale of locales)
      for (const signIn of [false, true]) {
        const { listing } = listingFor(
          locale,
          'Acme Opinions',
          messageLookup(readMessages(LOCALES_DIR, locale)),
          signIn,
        );
        const all = [listing.summary, listing.description, listing.headlines.rewards, listing.headlines.profile];
        for (const text of all) expect(text, `${locale}: ${text}`).not.toMatch(PANEL_PROMISES[locale]!);
      }
    // What it does promise, in English: its own side, and the truth about repeats.
    const english = listingFor('en', 'Acme Opinions', messageLookup(readMessages(LOCALES_DIR, 'en'))).listing;
    expect(english.description).toContain(
      'The extension never sends a redemption twice by itself, and tells you what your panel’s history shows, a possible repeat included.',
    );
  });

  it('puts the name only where it takes no inflection: a sentence\'s subject, or after the word for "panel"', () => {
    expect(locales.toSorted()).toEqual(Object.keys(BEFORE_NAME).toSorted());
    for (const locale of locales) {
      const messages = readMessages(LOCALES_DIR, locale);
      for (const key of Object.values(LISTING_MESSAGES)) {
        const text = messages[key]!.message;
        for (const match of text.matchAll(/\$1/g)) {
          const before = text.slice(0, match.index).trimEnd();
          const startsParagraph = before === '' || text.slice(0, match.index).endsWith('\n');
          // Japanese writes no spaces between words; elsewhere the word stands on its own.
          const afterWord = BEFORE_NAME[locale]!.some(
            (word) => before.endsWith(word) && (locale === 'ja' || /(^|\s)$/.test(before.slice(0, -word.length))),
          );
          expect(
            startsParagraph || afterWord,
            `${locale} ${key}: "…${text.slice(Math.max(0, match.index - 30), match.index + 2)}"`,
          ).toBe(true);
        }
      }
    }
  });

  it('reads right with a name ending in s and one starting with a vowel', () => {
    for (const [name, signIn] of [
      ['Acme Opinions', false],
      ['Opinion Express', true],
    ] as const) {
      for (const locale of locales) {
        const { listing } = listingFor(locale, name, messageLookup(readMessages(LOCALES_DIR, locale)), signIn);
        const all = `${listing.summary}\n${listing.description}`;
        expect(all, locale).not.toMatch(new RegExp(`${name}[’']s`));
        expect(all, locale).not.toMatch(new RegExp(`\\b(?:de|que|à|le|la|du|di|da|do|von|van) ${name}`));
        expect(all, locale).toContain(name);
      }
    }
  });

  it('no longer says the extension collects nothing, and says where the data goes', () => {
    for (const locale of locales) {
      const { description } = listingFor(
        locale,
        'Acme Opinions',
        messageLookup(readMessages(LOCALES_DIR, locale)),
      ).listing;
      expect(description, locale).not.toMatch(
        /collects nothing|sammelt nichts|ne collecte rien|no recopila nada|non raccoglie nulla|verzamelt niets|niczego nie zbiera|não coleta nada|何も収集しません|لا تجمع الإضافة أي شيء/,
      );
    }
    const english = (signIn: boolean) =>
      listingFor('en', 'Acme Opinions', messageLookup(readMessages(LOCALES_DIR, 'en')), signIn).listing.description;
    expect(english(false)).toContain(
      'What you send goes to the panel Acme Opinions: your key, the profile answers you save and the rewards you redeem.',
    );
    expect(english(true)).toContain(
      'What you send goes to the panel Acme Opinions: your sign-in, the profile answers you save and the rewards you redeem.',
    );
  });
});

describe("Edge Add-ons' store logo", () => {
  it('is the icon drawn at 300 px from an SVG, a PNG never enlarged, and the build’s 128 px icon without one', async () => {
    const fromSvg = await edgeLogo('tests/fixtures/acme-icon.svg', Buffer.alloc(0));
    expect(fromSvg.size).toBe(300);
    expect(await sharp(fromSvg.png).metadata()).toMatchObject({ width: 300, height: 300, format: 'png' });
    const png200 = join(dir, 'icon-200.png');
    await sharp({ create: { width: 200, height: 200, channels: 4, background: '#0b7a75' } })
      .png()
      .toFile(png200);
    const fromPng = await edgeLogo(png200, Buffer.alloc(0));
    expect(fromPng.size).toBe(200);
    expect(await sharp(fromPng.png).metadata()).toMatchObject({ width: 200, height: 200 });
    const own = await sharp({ create: { width: 128, height: 128, channels: 4, background: '#2458d6' } })
      .png()
      .toBuffer();
    expect(await edgeLogo('', own)).toEqual({ png: own, size: 128 });
  });
});

describe('the store icon', () => {
  it('is 128 px with the 96 px artwork in the middle and 16 px of transparent padding', async () => {
    const artwork = await sharp({ create: { width: 96, height: 96, channels: 4, background: '#0b7a75' } })
      .png()
      .toBuffer();
    const icon = await storeIcon(artwork);
    const { data, info } = await sharp(icon).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([STORE_ICON.size, STORE_ICON.size, 4]);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
    for (const [x, y] of [
      [0, 0],
      [15, 64],
      [64, 15],
      [112, 64],
      [64, 112],
      [127, 127],
    ] as const)
      expect(alpha(x, y), `${x},${y}`).toBe(0);
    for (const [x, y] of [
      [16, 16],
      [64, 64],
      [111, 111],
    ] as const)
      expect(alpha(x, y), `${x},${y}`).toBe(255);
  });

  it("is made from the build's own 96 px icon, not another size", async () => {
    const wrong = await sharp({ create: { width: 128, height: 128, channels: 4, background: '#000' } })
      .png()
      .toBuffer();
    await expect(storeIcon(wrong)).rejects.toThrow('the store icon is made from the 96 px icon, not 128×128');
    const tool = readFileSync('tests/tools/store.ts', 'utf8');
    expect(tool).toContain("storeIcon(readFileSync(join(OUT, 'chrome-mv3/icon/96.png')))");
  });
});

describe('OPERATORS.md, in the order an operator works', () => {
  const doc = readFileSync('OPERATORS.md', 'utf8');
  const section = (heading: string) => {
    const start = doc.indexOf(`\n## ${heading}`);
    return start < 0 ? '' : doc.slice(start, doc.indexOf('\n## ', start + 1));
  };

  it('says prominently, before any step, that browsers re-send a redeem and only Idempotency-Key prevents a double charge', () => {
    const top = doc.slice(0, doc.indexOf('\n## '));
    expect(top).toMatch(/> \*\*Browsers re-send a redeem\.\*\*/);
    expect(top).toContain('only a panel that honours the `Idempotency-Key`');
    expect(top).toContain('--idempotency-check <reward id>');
  });

  it('has its steps in the order they are taken: the Chrome zip is made before its key is asked for', () => {
    const steps = section('Ship it under your brand');
    const at = (words: string) => steps.indexOf(words);
    expect(at('npm run store')).toBeGreaterThan(0);
    expect(at('npm run store')).toBeLessThan(at("copy the item's public key"));
    expect(at("copy the item's public key")).toBeLessThan(at('npm run preflight'));
    expect(at('npm run preflight')).toBeLessThan(at('npm run release'));
    const order = [...doc.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(order).toEqual([
      'Ship it under your brand',
      'Build settings',
      'The doctor',
      'Redemptions sent twice',
      'Sign-in (OAuth 2.0)',
      'The store kit',
      'Pre-flight',
      'Releases',
      'Languages',
    ]);
  });

  it('lists what the store kit writes, folders included', () => {
    const kit = section('The store kit');
    for (const written of [
      'promo-tile-440x280.png',
      'listing/<language>.txt',
      'screenshots/<language>/',
      'SUBMIT.md',
      'chrome-mv3/',
    ])
      expect(kit).toContain(written);
  });

  it('says how to ship an update: the version to raise, and what must never change', () => {
    const releases = section('Releases');
    expect(releases).toMatch(/### Versions and updates/);
    expect(releases).toMatch(/`version` in `package\.json`/);
    expect(releases).toMatch(/never change[^.]*`geckoId`/i);
    expect(releases).toMatch(/`chromeKey`/);
    for (const heading of ['### From CI', '### Staged rollout and beta', '### Rollback'])
      expect(releases).toContain(heading);
  });

  it('says what is declared to the stores and where the privacy policy comes from', () => {
    const kit = section('The store kit');
    expect(kit).toContain('data_collection_permissions');
    expect(kit).toContain('profileData');
    expect(kit).toMatch(/privacy policy/i);
    expect(kit).toContain('privacyPolicyUrl');
  });

  it('has a checklist page that follows the same steps', () => {
    const checklist = readFileSync('OPERATOR-CHECKLIST.md', 'utf8');
    for (const command of [
      'npm run doctor',
      '--idempotency-check',
      'npm run store',
      'npm run ids',
      'npm run preflight',
      'npm run release',
    ])
      expect(checklist).toContain(command);
  });
});
