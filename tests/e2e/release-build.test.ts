/**
 * What `npm run zip` ships: a release build for each browser made without
 * any development setting, checked for leaked sandbox details, least permissions, icons, and a
 * Firefox sources zip that holds the build's inputs and nothing else.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SANDBOX_DEV_URL } from '../../utils/build-settings';
import { EXTENSION_PAGES_CSP } from '../../utils/content-policy';
import { SANDBOX_TOKEN } from '../sandbox/server';
import { zipEntries } from '../tools/zip-read';

/** SECURITY.md, "Permissions": what a panelist may grant on "Connect", never at install. */
const OPTIONAL_HOSTS = ['https://*/*', 'http://localhost/*', 'http://127.0.0.1/*'];
const ICON_SIZES = ['16', '32', '48', '96', '128'];

let outDir: string;
let zips: { chrome: string; firefox: string; sources: string };

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'panel-release-'));
  // PANEL_CONFIG none: the project's release build, whatever panel.config.json a developer keeps here.
  const env: NodeJS.ProcessEnv = { ...process.env, PANEL_OUT_DIR: outDir, PANEL_CONFIG: 'none' };
  delete env.PANEL_API_BASE_URL;
  delete env.PANEL_DEV_TOKEN;
  // What `npm run zip` runs: each builds the release build, then zips it.
  for (const args of [
    ['wxt', 'zip'],
    ['wxt', 'zip', '-b', 'firefox'],
  ]) {
    execFileSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  }
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { name: string; version: string };
  const zip = (suffix: string) => join(outDir, `${pkg.name}-${pkg.version}-${suffix}.zip`);
  zips = { chrome: zip('chrome'), firefox: zip('firefox'), sources: zip('sources') };
}, 180_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

async function manifest(build: 'chrome-mv3' | 'firefox-mv2'): Promise<Record<string, any>> {
  return JSON.parse(await readFile(join(outDir, build, 'manifest.json'), 'utf8'));
}

test('npm run zip makes the Chrome zip, the Firefox zip and the Firefox sources zip', async () => {
  const sizes: string[] = [];
  for (const [name, path] of Object.entries(zips)) {
    const { size } = await stat(path);
    sizes.push(`${name} ${(size / 1024).toFixed(1)} KiB`);
    expect(size).toBeGreaterThan(0);
  }
  console.log(`zip sizes: ${sizes.join(', ')}`);
  // Each extension zip holds exactly its build.
  for (const [zip, build] of [
    [zips.chrome, 'chrome-mv3'],
    [zips.firefox, 'firefox-mv2'],
  ] as const) {
    expect(zipEntries(zip).toSorted()).toEqual((await filesUnder(join(outDir, build))).toSorted());
  }
});

test('the release builds contain neither the sandbox URL nor the sandbox token', async () => {
  const needles = [new URL(SANDBOX_DEV_URL).host, SANDBOX_TOKEN];
  for (const build of ['chrome-mv3', 'firefox-mv2']) {
    const files = await filesUnder(join(outDir, build));
    expect(files).toContain('manifest.json');
    for (const file of files) {
      const text = (await readFile(join(outDir, build, file))).toString('latin1');
      for (const needle of needles) expect(text.includes(needle), `${build}/${file} contains ${needle}`).toBe(false);
    }
  }
});

test('the manifests ask for storage, alarms and idle only (none warns at install); API origins and notifications are optional', async () => {
  const chrome = await manifest('chrome-mv3');
  expect(chrome.permissions).toEqual(['storage', 'alarms', 'idle']);
  expect(chrome.host_permissions ?? []).toEqual([]);
  expect(chrome.optional_host_permissions).toEqual(OPTIONAL_HOSTS);
  // Asked for when the panelist turns notifications on, never at install; no `identity` without sign-in.
  expect(chrome.optional_permissions).toEqual(['notifications']);
  expect(chrome).not.toHaveProperty('browser_specific_settings');

  // MV2 has one list for permissions and host permissions, and optional_permissions for both.
  const firefox = await manifest('firefox-mv2');
  expect(firefox.manifest_version).toBe(2);
  expect(firefox.permissions).toEqual(['storage', 'alarms', 'idle']);
  expect(firefox).not.toHaveProperty('host_permissions');
  // Firefox cannot make `identity` optional; a build without sign-in settings does not ask for it.
  expect(firefox.optional_permissions).toEqual([...OPTIONAL_HOSTS, 'notifications']);
  expect(firefox.background).toEqual({ persistent: false, scripts: ['background.js'] });
  expect(firefox.browser_action).toMatchObject({ default_popup: 'popup.html' });
  expect(firefox.browser_specific_settings.gecko).toMatchObject({
    id: 'panel-rewards@panelist.example',
    // What it sends to the panel: the key, profile answers, redemptions, and by default the location answers.
    data_collection_permissions: {
      required: ['authenticationInfo', 'personallyIdentifyingInfo', 'financialAndPaymentInfo', 'locationInfo'],
    },
  });

  // Images only from the extension, data: and where a panel may be, and no media; MV2's policy is a string.
  expect(chrome.content_security_policy).toEqual({ extension_pages: EXTENSION_PAGES_CSP });
  expect(firefox.content_security_policy).toBe(EXTENSION_PAGES_CSP);
  expect(EXTENSION_PAGES_CSP).toBe(
    "script-src 'self'; object-src 'none'; base-uri 'none'; frame-src 'none'; img-src 'self' data: https: http://localhost:* http://127.0.0.1:*; media-src 'none'",
  );

  for (const m of [chrome, firefox]) {
    expect(m).not.toHaveProperty('content_scripts');
    expect(m).not.toHaveProperty('externally_connectable');
    expect(m).not.toHaveProperty('web_accessible_resources');
  }
});

test('a build without sign-in carries neither the sign-in code nor the OAuth library in its background', async () => {
  // Strings only the sign-in flow (sign-in.ts), the revocation (revoke.ts) and oauth4webapi's
  // token requests hold; checked against the sources first, so a renamed string cannot pass unseen.
  const needles = {
    code_challenge: 'entrypoints/background/session/sign-in.ts',
    token_type_hint: 'entrypoints/background/auth/revoke.ts',
  };
  const library = ['grant_type', 'authorization_code', 'DPoP'];
  for (const [needle, source] of Object.entries(needles)) expect(await readFile(source, 'utf8')).toContain(needle);
  const oauth4webapi = await readFile('node_modules/oauth4webapi/build/index.js', 'utf8');
  for (const needle of library) expect(oauth4webapi).toContain(needle);
  for (const build of ['chrome-mv3', 'firefox-mv2'] as const) {
    const { background } = await manifest(build);
    const scripts: string[] = background.service_worker ? [background.service_worker] : background.scripts;
    for (const script of scripts) {
      const text = await readFile(join(outDir, build, script), 'utf8');
      for (const needle of [...Object.keys(needles), ...library])
        expect(text.includes(needle), `${build}/${script} contains ${needle}`).toBe(false);
    }
  }
});

test('both builds carry PNG icons in every size the stores ask for, listed in the manifest', async () => {
  for (const build of ['chrome-mv3', 'firefox-mv2'] as const) {
    const icons = (await manifest(build)).icons as Record<string, string>;
    expect(Object.keys(icons)).toEqual(expect.arrayContaining(ICON_SIZES));
    for (const [size, path] of Object.entries(icons)) {
      const png = await readFile(join(outDir, build, path));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], `${build}/${path}`).toEqual([Number(size), Number(size)]);
    }
  }
});

test("the sources zip holds the build's inputs, and no dependencies, outputs, tests or secrets", async () => {
  const entries = zipEntries(zips.sources);
  for (const needed of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'wxt.config.ts',
    'README.md',
    'entrypoints/background/index.ts',
    'public/icon/128.png',
  ]) {
    expect(entries).toContain(needed);
  }
  const unwanted = entries.filter(
    (e) =>
      /(^|\/)(node_modules|\.output|tests|bench|web-ext-artifacts)\//.test(e) ||
      /(^|\/)\./.test(e) || // .env, .git, .wxt, .ci, any dotfile
      /\.(test|spec)\.[cm]?[jt]sx?$|\.(log|zip|pem|key|crx|xpi)$/.test(e),
  );
  expect(unwanted).toEqual([]);
  // The sandbox's token lives in tests/, which stays out.
  for (const e of entries) expect(e.startsWith('tests/')).toBe(false);
});
