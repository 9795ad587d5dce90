/**
 * `npm run release` end to end, as an operator and their CI run it, in a copy of the project with
 * its own git history, its panel.config.json for an https panel, and every store's secrets set
 * (made-up ones). Every Node process runs with a guard that fails and records any connection to a
 * host but this machine (no-network.cjs): the dry run builds the real zips and checks each store's
 * options, and the guard's record proves nothing tried to reach a store. The credentials check,
 * which does call the stores, is run too, to show the guard would see it.
 */
import { generateKeyPairSync } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { zipFile } from '../tools/zip-read';
import { cleanEnv, copyProject } from './project-copy';

const temporary: string[] = [];
let project: string;
const GUARD = resolve('tests/e2e/no-network.cjs');

/** Made-up secrets of all three stores, under the names publish-browser-extension reads. */
const SECRETS = {
  CHROME_API_VERSION: 'v2',
  CHROME_EXTENSION_ID: 'abcdefghijklmnopabcdefghijklmnop',
  CHROME_PUBLISHER_ID: 'acme-publisher',
  CHROME_SERVICE_ACCOUNT_CLIENT_EMAIL: 'release@acme-panel.example',
  // A real key, so the credentials check gets as far as asking the store for a token.
  CHROME_SERVICE_ACCOUNT_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
  FIREFOX_JWT_ISSUER: 'user:12345:67',
  FIREFOX_JWT_SECRET: 'made-up-secret',
  EDGE_PRODUCT_ID: 'acme-product',
  EDGE_CLIENT_ID: 'acme-client',
  EDGE_API_KEY: 'made-up-key',
};

function git(...args: string[]): string {
  return spawnSync('git', ['-c', 'user.name=Acme Release', '-c', 'user.email=release@acme-panel.example', ...args], {
    cwd: project,
    encoding: 'utf8',
  }).stdout;
}

/** `npm run release -- …` in the copy, every Node process under the guard; what it printed and what the guard saw. */
function release(...args: string[]) {
  const log = join(project, `network-${Date.now()}.log`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'tests/tools/release.ts', ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { ...cleanEnv(), ...SECRETS, NODE_OPTIONS: `--require ${GUARD}`, NO_NETWORK_LOG: log },
  });
  const attempts = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
  rmSync(log, { force: true });
  return { code: run.status, out: `${run.stdout}\n${run.stderr}`, attempts };
}

const manifestOf = (zip: string) => JSON.parse(zipFile(zip, 'manifest.json')!.toString()) as Record<string, unknown>;
const zip = (kind: string, version = '0.2.0') =>
  join(project, '.output/release', `acme-opinions-${version}-${kind}.zip`);

beforeAll(() => {
  project = copyProject(temporary);
  writeFileSync(
    join(project, 'panel.config.json'),
    JSON.stringify(
      {
        panelName: 'Acme Opinions',
        apiBaseUrl: 'https://api.acme-panel.example',
        geckoId: 'rewards@acme-panel.example',
        oauth: {
          authorizationEndpoint: 'https://login.acme-panel.example/oauth/authorize',
          tokenEndpoint: 'https://login.acme-panel.example/oauth/token',
          clientId: 'acme-rewards-extension',
        },
      },
      null,
      2,
    ),
  );
  // The operator's own German words for this release; no other language has any.
  // The operator's own notes for panelists, in English and German; no other language has any.
  writeFileSync(
    join(project, 'whats-new.json'),
    JSON.stringify({ unreleased: { en: ['Save for a goal.', 'A faster popup.'], de: 'Neu:\n• Ein Sparziel.' } }),
  );
  writeFileSync(
    join(project, 'package.json'),
    readFileSync(join(project, 'package.json'), 'utf8').replace(/"version": "[^"]*"/, '"version": "0.1.0"'),
  );
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'Acme Opinions');
  git('tag', 'v0.1.0');
}, 60_000);

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

test('the guard sees a Node process that tries to reach a host', () => {
  const log = join(project, 'guard-check.log');
  spawnSync('node', ['-e', "fetch('https://addons.mozilla.org/').catch(() => {})"], {
    env: { ...cleanEnv(), NODE_OPTIONS: `--require ${GUARD}`, NO_NETWORK_LOG: log },
  });
  expect(readFileSync(log, 'utf8')).toMatch(/connect addons\.mozilla\.org:443|lookup addons\.mozilla\.org/);
});

test('refuses a version not higher than the last tag, changing nothing', () => {
  const { code, out, attempts } = release('0.1.0');
  expect(code).toBe(1);
  expect(out).toContain('0.1.0 is not higher than the last release tag v0.1.0');
  expect(git('status', '--porcelain', '--untracked-files=no')).toBe('');
  expect(attempts).toEqual([]);
}, 60_000);

test('a --submit that fails at every store leaves the tree as it was, and the command it ran carries no --dry-run', () => {
  const notesFile = readFileSync(join(project, 'whats-new.json'), 'utf8');
  const { code, out, attempts } = release('minor', '--submit');
  expect(code, out).toBe(1);
  // The stores were tried (and refused at the guard), each with the command --submit runs.
  expect(attempts.length).toBeGreaterThan(0);
  expect(out).toMatch(
    /\nChrome Web Store: .*npx wxt submit --chrome-zip \.output\/release\/acme-opinions-0\.2\.0-chrome\.zip\n/,
  );
  expect(out).toMatch(/\naddons\.mozilla\.org: .*npx wxt submit --firefox-zip /);
  expect(out).not.toContain('--dry-run');
  expect(out).toContain('No store took 0.2.0: the version and whats-new.json are put back as they were.');
  expect(git('status', '--porcelain', '--untracked-files=no')).toBe('');
  expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).version).toBe('0.1.0');
  expect(readFileSync(join(project, 'whats-new.json'), 'utf8')).toBe(notesFile);
}, 240_000);

test('a dry run bumps, writes what is new, builds the zips for the https panel, checks the stores, and reaches none', () => {
  const { code, out, attempts } = release('minor', '--rollout', '10');
  expect(code, out).toBe(0);
  expect(attempts).toEqual([]);
  // What --submit would run, store by store, without --dry-run.
  expect(out).toContain(
    [
      'Dry run: nothing was sent to any store. With --submit this runs:',
      '  CHROME_DEPLOY_PERCENTAGE=10 npx wxt submit --chrome-zip .output/release/acme-opinions-0.2.0-chrome.zip',
      '  FIREFOX_EXTENSION_ID=rewards@acme-panel.example FIREFOX_COMPATIBILITY=firefox,android FIREFOX_CHANNEL=listed npx wxt submit --firefox-zip .output/release/acme-opinions-0.2.0-firefox.zip --firefox-sources-zip .output/release/acme-opinions-0.2.0-sources.zip',
      '  npx wxt submit --edge-zip .output/release/acme-opinions-0.2.0-chrome.zip',
    ].join('\n'),
  );
  expect(out).not.toContain('--dry-run');
  // The version everywhere the stores read it; the operator's notes moved under it; the project's CHANGELOG.md untouched.
  expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).version).toBe('0.2.0');
  expect(JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')).packages[''].version).toBe('0.2.0');
  expect(git('status', '--porcelain', 'CHANGELOG.md')).toBe('');
  expect(JSON.parse(readFileSync(join(project, 'whats-new.json'), 'utf8'))).toEqual({
    unreleased: {},
    '0.2.0': { en: ['Save for a goal.', 'A faster popup.'], de: 'Neu:\n• Ein Sparziel.' },
  });
  for (const kind of ['chrome', 'firefox'] as const) {
    const manifest = manifestOf(zip(kind));
    expect(manifest.version).toBe('0.2.0');
    // A release build for an https panel asks for no local host access, in either browser, nor allows its images.
    expect(JSON.stringify(manifest), kind).not.toMatch(/localhost|127\.0\.0\.1/);
  }
  expect(zipFile(zip('sources'), 'panel.config.json')).toBeTruthy();
  // What's new: the operator's notes, German in their words, French in English and said to be, never a made-up translation.
  const whatsNew = (locale: string) =>
    readFileSync(join(project, '.output/release/whats-new', `${locale}.txt`), 'utf8');
  expect(whatsNew('de')).toBe('Neu:\n• Ein Sparziel.\n');
  expect(whatsNew('fr')).toBe(whatsNew('en'));
  expect(whatsNew('en')).toBe('• Save for a goal.\n• A faster popup.\n');
  const notes = readFileSync(join(project, '.output/release/RELEASE.md'), 'utf8');
  expect(notes).toContain('| de | your notes (whats-new.json › 0.2.0 › de) |');
  expect(notes).toContain('| fr | ENGLISH FALLBACK: no notes in whats-new.json › 0.2.0 › fr');
  // addons.mozilla.org: each language's own notes and the reviewers' notes, shown as the request that would leave.
  expect(out).toContain("and, once addons.mozilla.org took the version, sets its notes (AMO's v5 API):");
  expect(out).toContain(
    '  PATCH https://addons.mozilla.org/api/v5/addons/addon/rewards%40acme-panel.example/versions/{id of 0.2.0}/',
  );
  expect(out).toContain('"en-US": "• Save for a goal.\\n• A faster popup."');
  expect(out).toContain('"de": "Neu:\\n• Ein Sparziel."');
  const amoBody = JSON.parse(readFileSync(join(project, '.output/release/amo-version-notes.json'), 'utf8'));
  expect(amoBody).toEqual({
    release_notes: { 'en-US': '• Save for a goal.\n• A faster popup.', de: 'Neu:\n• Ein Sparziel.' },
    approval_notes: expect.stringContaining('npm ci && npx wxt build -b firefox'),
  });
  expect(amoBody.approval_notes).toContain('The sources zip holds only: package.json;');
  expect(notes).toContain("## addons.mozilla.org: the version's notes");
  expect(notes).toContain('Once `--submit` has made 0.2.0 there, the release sets its release notes in en-US, de');
  expect(notes).toMatch(/- Chrome Web Store: ready \(staged: published to 10 % of users first/);
  expect(notes).toContain('- addons.mozilla.org: ready (listed:');
  expect(notes).toContain('- Edge Add-ons: ready');
}, 240_000);

test('CI releases the tag at HEAD; only the credentials check would reach a store, and only a store', () => {
  git('commit', '-q', '-am', 'Release 0.2.0');
  git('tag', 'v0.2.0');
  const { code, out, attempts } = release('--from-tag', '--check-credentials');
  // The stores cannot be asked here: wxt submit --dry-run fails at the guard, and the release says so.
  expect(code).toBe(1);
  expect(out).toContain('wxt submit failed');
  expect(out).toContain('A store refused the secrets: no file was changed.');
  expect(attempts.length).toBeGreaterThan(0);
  for (const attempt of attempts)
    expect(attempt).toMatch(
      / (connect|lookup) (addons\.mozilla\.org|oauth2\.googleapis\.com|chromewebstore\.googleapis\.com)\b/,
    );
  // Built from the tag, changing no file: the notes name the release before it.
  expect(manifestOf(zip('firefox')).version).toBe('0.2.0');
  expect(git('status', '--porcelain', '--untracked-files=no')).toBe('');
  expect(readFileSync(join(project, '.output/release/RELEASE.md'), 'utf8')).toContain('Previous release: v0.1.0.');
}, 240_000);
