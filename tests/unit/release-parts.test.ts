// @vitest-environment node
/**
 * The pieces `npm run release` is made of: versions the stores take and their order, the
 * panelists' notes from the operator's whats-new.json (never CHANGELOG.md), "what's new" in every
 * language with no translation made up, and each store's options checked offline as `wxt submit` would
 * (the CI workflow template: ci-template.test.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshot } from '../tools/release/snapshot';
import { chosenStores, plan } from '../tools/release/stores';
import { commandLine, submitArgs } from '../tools/release/submit';
import { bumped, compareVersions, parseVersion } from '../tools/release/version';
import { readNotes, releaseNotesFile, sourceText, whatsNew } from '../tools/release/whats-new';

describe('versions', () => {
  it('are X.Y.Z of whole numbers up to 65535, what both stores take', () => {
    expect(parseVersion('1.2.3')).toEqual([1, 2, 3]);
    for (const refused of ['1.2.3-beta.1', '1.2', 'v1.2.3', '1.2.65536', '01.2.x'])
      expect(parseVersion(refused), refused).toBeNull();
  });

  it('bump and compare as numbers, not text', () => {
    expect(bumped([1, 9, 9], 'patch')).toEqual([1, 9, 10]);
    expect(bumped([1, 9, 9], 'minor')).toEqual([1, 10, 0]);
    expect(bumped([1, 9, 9], 'major')).toEqual([2, 0, 0]);
    expect(compareVersions([1, 10, 0], [1, 9, 99])).toBeGreaterThan(0);
    expect(compareVersions([1, 2, 3], [1, 2, 3])).toBe(0);
  });
});

describe("what's new for panelists", () => {
  const locales = ['en', 'de', 'fr'];
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'release-notes-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const notesFile = (data: unknown) => writeFileSync(join(dir, 'whats-new.json'), JSON.stringify(data));

  it('is the operator’s own notes, never CHANGELOG.md: none, and the release is refused, naming the file', () => {
    writeFileSync(join(dir, 'CHANGELOG.md'), '## [Unreleased]\n\n### Added\n\n- npm run preflight for every release\n');
    expect(readNotes(dir, '0.2.0', locales)).toEqual({
      entry: null,
      texts: {},
      problems: [
        expect.stringMatching(
          /^no notes for panelists: write what they notice in this release in whats-new\.json under "unreleased" › "en"/,
        ),
      ],
    });
  });

  it('takes "unreleased", a list as bullets, and a language without its own notes gets the English, named as such', () => {
    notesFile({ unreleased: { en: ['A goal to save for.', 'A faster popup.'], de: 'Neu: ein Sparziel.' } });
    const notes = readNotes(dir, '0.2.0', locales);
    expect(notes).toEqual({
      entry: 'unreleased',
      texts: { en: '• A goal to save for.\n• A faster popup.', de: 'Neu: ein Sparziel.' },
      problems: [],
    });
    const words = whatsNew(notes.texts, locales);
    expect(words).toEqual([
      { locale: 'en', text: '• A goal to save for.\n• A faster popup.', source: 'own' },
      { locale: 'de', text: 'Neu: ein Sparziel.', source: 'own' },
      { locale: 'fr', text: '• A goal to save for.\n• A faster popup.', source: 'english-fallback' },
    ]);
    expect(sourceText(words[1]!, '0.2.0')).toBe('your notes (whats-new.json › 0.2.0 › de)');
    expect(sourceText(words[2]!, '0.2.0')).toMatch(/^ENGLISH FALLBACK: no notes in whats-new.json › 0.2.0 › fr/);
  });

  it('prefers the version’s own entry, and names what is wrong: no English, a language not shipped, empty notes', () => {
    notesFile({ unreleased: { en: 'later' }, '0.2.0': { de: 'Neu.', pt_PT: 'Novo.', fr: [] } });
    expect(readNotes(dir, '0.2.0', locales)).toEqual({
      entry: '0.2.0',
      texts: { de: 'Neu.' },
      problems: [
        'whats-new.json › 0.2.0 › pt_PT: not a shipped language (en, de, fr)',
        'whats-new.json › 0.2.0 › fr: must be the notes, a text or a list of lines, not empty',
        'whats-new.json › 0.2.0 has no English notes ("en"), which every language without its own falls back to',
      ],
    });
  });

  it('moves "unreleased" under the version a release takes, with a new empty one first, the rest kept', () => {
    notesFile({ unreleased: { en: 'New.' }, '0.1.0': { en: 'First.' } });
    releaseNotesFile(dir, '0.2.0');
    expect(JSON.parse(readFileSync(join(dir, 'whats-new.json'), 'utf8'))).toEqual({
      unreleased: {},
      '0.2.0': { en: 'New.' },
      '0.1.0': { en: 'First.' },
    });
    expect(readNotes(dir, '0.2.0', locales).entry).toBe('0.2.0');
  });
});

describe('the stores, checked offline as wxt submit would take them', () => {
  const zips = { chrome: 'out/a-chrome.zip', firefox: 'out/a-firefox.zip', sources: 'out/a-sources.zip' };
  const base = { zips, channel: 'stable' as const, rollout: null, geckoId: 'rewards@acme.example' };

  it('names each secret a store lacks, by its variable', () => {
    const [chrome, firefox] = plan({ ...base, env: { CHROME_API_VERSION: 'v2' }, stores: ['chrome', 'firefox'] });
    expect(chrome!.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^CHROME_EXTENSION_ID \(chrome\.extensionId\)/),
        expect.stringMatching(/^CHROME_PUBLISHER_ID \(chrome\.publisherId\)/),
      ]),
    );
    expect(firefox!.problems).toEqual([
      expect.stringMatching(/^FIREFOX_JWT_ISSUER/),
      expect.stringMatching(/^FIREFOX_JWT_SECRET/),
    ]);
    // The add-on id is the build's geckoId, and the listing covers Firefox for Android.
    expect(firefox!.env).toEqual({
      FIREFOX_EXTENSION_ID: 'rewards@acme.example',
      FIREFOX_COMPATIBILITY: 'firefox,android',
      FIREFOX_CHANNEL: 'listed',
    });
    expect(firefox!.flags).toEqual(['--firefox-zip', zips.firefox, '--firefox-sources-zip', zips.sources]);
  });

  it('is ready with every secret set; a beta goes unlisted and to the trusted testers’ item; a staged rollout needs API v2', () => {
    const env = {
      CHROME_API_VERSION: 'v2',
      CHROME_EXTENSION_ID: 'public-item',
      CHROME_BETA_EXTENSION_ID: 'testers-item',
      CHROME_PUBLISHER_ID: 'p',
      CHROME_SERVICE_ACCOUNT_CLIENT_EMAIL: 'ci@acme.example',
      CHROME_SERVICE_ACCOUNT_PRIVATE_KEY: 'k',
      FIREFOX_JWT_ISSUER: 'i',
      FIREFOX_JWT_SECRET: 's',
    };
    const stable = plan({ ...base, env, stores: ['chrome', 'firefox'], rollout: 10 });
    expect(stable.map((p) => p.problems)).toEqual([[], []]);
    expect(stable[0]!.env).toEqual({ CHROME_DEPLOY_PERCENTAGE: '10' });
    const beta = plan({ ...base, env, stores: ['chrome', 'firefox', 'edge'], channel: 'beta' });
    expect(beta[0]!.env.CHROME_EXTENSION_ID).toBe('testers-item');
    // The build's chromeBetaId names the testers' item where the secret does not.
    const { CHROME_BETA_EXTENSION_ID: _, ...withoutSecret } = env;
    const fromSettings = plan({
      ...base,
      env: withoutSecret,
      stores: ['chrome'],
      channel: 'beta',
      chromeBetaId: 'abcd',
    });
    expect(fromSettings[0]!.env.CHROME_EXTENSION_ID).toBe('abcd');
    expect(fromSettings[0]!.problems).toEqual([]);
    expect(beta[1]!.env.FIREFOX_CHANNEL).toBe('unlisted');
    expect(beta[2]!.problems).toContainEqual(expect.stringContaining('Edge Add-ons has no beta channel'));
    const v1 = plan({ ...base, env: { ...env, CHROME_API_VERSION: '' }, stores: ['chrome'], rollout: 10 });
    expect(v1[0]!.problems).toContainEqual(
      expect.stringContaining('CHROME_API_VERSION must be v2 for a staged rollout'),
    );
  });

  it('tell an operator with the Chrome Web Store API v1.1 secrets what to do, and one without any where v2’s come from', () => {
    const [v1] = plan({
      ...base,
      env: { CHROME_EXTENSION_ID: 'item', CHROME_CLIENT_ID: 'c', CHROME_CLIENT_SECRET: 's', CHROME_REFRESH_TOKEN: 'r' },
      stores: ['chrome'],
    });
    expect(v1!.problems).toContainEqual(
      expect.stringMatching(
        /^CHROME_CLIENT_ID, CHROME_CLIENT_SECRET, CHROME_REFRESH_TOKEN are the Chrome Web Store API v1\.1's \(what `wxt submit init` may write\), which was shut down on 15 October 2026: make a service account for the Chrome Web Store API v2 .*CHROME_PUBLISHER_ID/,
      ),
    );
    const [none] = plan({ ...base, env: { CHROME_EXTENSION_ID: 'item' }, stores: ['chrome'] });
    expect(none!.problems).toContainEqual(
      expect.stringMatching(
        /^the Chrome Web Store API v2's secrets are missing \(CHROME_PUBLISHER_ID, CHROME_SERVICE_ACCOUNT_CLIENT_EMAIL, CHROME_SERVICE_ACCOUNT_PRIVATE_KEY\): make a service account/,
      ),
    );
  });

  it('are the ones whose secrets are set, unless named; a beta leaves Edge Add-ons out, saying so', () => {
    expect(chosenStores(undefined, { FIREFOX_JWT_ISSUER: 'i', EDGE_PRODUCT_ID: 'e' }, 'beta')).toEqual({
      stores: ['firefox'],
      problems: [],
      left: 'Edge Add-ons is left out of the beta: it has no beta channel',
    });
    expect(chosenStores('edge', { EDGE_PRODUCT_ID: 'e' }, 'beta').stores).toEqual(['edge']);
    expect(chosenStores(undefined, { FIREFOX_JWT_ISSUER: 'i', EDGE_PRODUCT_ID: ' ' }).stores).toEqual(['firefox']);
    expect(chosenStores('chrome,opera', {})).toEqual({
      stores: ['chrome'],
      problems: ['--stores: "opera" is not a store (chrome, firefox, edge)'],
    });
  });
});

describe('a release that fails', () => {
  it('puts back every file it edited as it was, removes one it made, and says which', () => {
    const dir = mkdtempSync(join(tmpdir(), 'release-snapshot-'));
    try {
      writeFileSync(join(dir, 'package.json'), '{"version": "0.1.0"}\n');
      writeFileSync(join(dir, 'CHANGELOG.md'), '## [Unreleased]\n- a\n');
      const kept = snapshot(dir, ['package.json', 'CHANGELOG.md', 'whats-new.json']);
      writeFileSync(join(dir, 'package.json'), '{"version": "0.2.0"}\n');
      writeFileSync(join(dir, 'whats-new.json'), '{}');
      expect(kept.restore()).toEqual(['package.json', 'whats-new.json']);
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{"version": "0.1.0"}\n');
      expect(existsSync(join(dir, 'whats-new.json'))).toBe(false);
      expect(kept.restore()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the command --submit runs', () => {
  it('is one wxt submit per store, without --dry-run; the credentials check runs it with --dry-run', () => {
    const [firefox] = plan({
      zips: { chrome: 'c.zip', firefox: 'f.zip', sources: 's.zip' },
      env: {},
      stores: ['firefox'],
      channel: 'stable',
      rollout: null,
      geckoId: 'rewards@acme.example',
    });
    expect(commandLine(firefox!, false)).toBe(
      'FIREFOX_EXTENSION_ID=rewards@acme.example FIREFOX_COMPATIBILITY=firefox,android FIREFOX_CHANNEL=listed npx wxt submit --firefox-zip f.zip --firefox-sources-zip s.zip',
    );
    expect(submitArgs(firefox!, true)).toEqual([
      'wxt',
      'submit',
      '--dry-run',
      '--firefox-zip',
      'f.zip',
      '--firefox-sources-zip',
      's.zip',
    ]);
  });
});
