/**
 * `npm run store` as an operator runs it: in a copy of the project with their
 * panel.config.json and icon at its root. Checks both zips carry the brand, the sources zip
 * rebuilds the very same Firefox add-on the way addons.mozilla.org's reviewers do, and there are
 * screenshots and a listing for every language in public/_locales.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { chromeIdFromKey, firefoxRedirectUrl, newChromeKey } from '../../utils/build/operator/extension-ids';
import { messageLookup, localeMessages } from '../tools/node-i18n';
import { cleanEnv, copyProject } from './project-copy';
import { zipEntries, zipFile } from '../tools/zip-read';

const BRAND = {
  panelName: 'Acme Rewards',
  brandColor: '#0b7a75',
  geckoId: 'rewards@acme-panel.example',
  icon: 'brand/acme-icon.svg',
};
const chromeKey = newChromeKey().publicKey;
const LOCALES = readdirSync('public/_locales').filter((name) => statSync(join('public/_locales', name)).isDirectory());
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
/** Within 2 of each channel: gradients and anti-aliasing round differently between renderers. */
const near = (got: Iterable<number>, want: number[]) =>
  [...got].slice(0, 3).every((c, i) => Math.abs(c - want[i]!) <= 2);
const TEAL = [0x0b, 0x7a, 0x75];

let project: string;
let out: string;
const zip = (kind: string) => join(out, `acme-rewards-${version}-${kind}.zip`);
const temporary: string[] = [];

/**
 * A guard against a hang, not a time limit: the kit builds three times and launches a browser per
 * language, which took over 300 s on a slow host with a second suite beside it. The run is killed
 * there, since the hook's own time-out cannot stop a synchronous child.
 */
const KIT_GUARD = 900_000;

function store(cwd: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'tests/tools/store.ts'], {
    cwd,
    timeout: KIT_GUARD,
    env: { ...cleanEnv(), ...env },
    encoding: 'utf8',
  });
}

beforeAll(() => {
  project = copyProject(temporary);
  mkdirSync(join(project, 'brand'));
  copyFileSync('tests/fixtures/acme-icon.svg', join(project, BRAND.icon));
  writeFileSync(
    join(project, 'panel.config.json'),
    JSON.stringify({ ...BRAND, chromeKey, earnUrl: 'https://www.acme-panel.example/surveys' }, null, 2),
  );
  execFileSync('npx', ['wxt', 'prepare'], { cwd: project, stdio: 'ignore', env: cleanEnv() });
  const run = store(project);
  if (run.status !== 0)
    throw new Error(`npm run store failed (${run.signal ?? run.status}):\n${run.stdout}\n${run.stderr}`);
  out = join(project, '.output/store');
}, KIT_GUARD + 60_000);

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

test('both zips carry the brand; the Chrome zip leaves the key to the unpacked build', () => {
  const chrome = JSON.parse(zipFile(zip('chrome'), 'manifest.json')!.toString()) as Record<string, any>;
  expect(chrome).toMatchObject({ name: 'Acme Rewards', action: { default_title: 'Acme Rewards' } });
  expect(chrome).not.toHaveProperty('key');
  expect(JSON.parse(readFileSync(join(out, 'chrome-mv3/manifest.json'), 'utf8')).key).toBe(chromeKey);
  const firefox = JSON.parse(zipFile(zip('firefox'), 'manifest.json')!.toString()) as Record<string, any>;
  expect(firefox).toMatchObject({ name: 'Acme Rewards', browser_action: { default_title: 'Acme Rewards' } });
  expect(firefox.browser_specific_settings.gecko.id).toBe(BRAND.geckoId);
  const submit = readFileSync(join(out, 'SUBMIT.md'), 'utf8');
  // No sign-in in this build: the ids, without redirect URLs to register, and the Chrome id's caveat.
  expect(submit).toContain(`Chrome id from chromeKey: ${chromeIdFromKey(chromeKey)}.`);
  expect(submit).toContain("this is the store's id only if chromeKey is your store item's public key");
  expect(submit).toContain(`Firefox id: ${BRAND.geckoId}\n`);
  expect(submit).not.toContain(firefoxRedirectUrl(BRAND.geckoId));
});

test("the icons in both zips are the operator's, in every size", async () => {
  for (const kind of ['chrome', 'firefox']) {
    for (const size of [16, 32, 48, 64, 96, 128]) {
      const png = zipFile(zip(kind), `icon/${size}.png`)!;
      const { width, height } = await sharp(png).metadata();
      expect([width, height]).toEqual([size, size]);
      // The top middle of the tile, above the check mark: the icon's teal, not the default blue.
      const { data } = await sharp(png)
        .extract({ left: size / 2, top: Math.round(size * 0.15), width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(near(data, TEAL), `${kind} ${size}: ${[...data.subarray(0, 3)].join(',')}`).toBe(true);
    }
  }
  expect((await sharp(join(out, 'store-icon-128.png')).metadata()).width).toBe(128);
  // The Chrome Web Store's small promo tile: 440×280, on the brand colour, named in SUBMIT.md.
  const tile = join(out, 'promo-tile-440x280.png');
  const { width, height } = await sharp(tile).metadata();
  expect([width, height]).toEqual([440, 280]);
  const { data } = await sharp(tile)
    .extract({ left: 2, top: 2, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect(near(data, TEAL), `promo tile: ${[...data.subarray(0, 3)].join(',')}`).toBe(true);
  expect(readFileSync(join(out, 'SUBMIT.md'), 'utf8')).toContain(
    'the small promo tile `promo-tile-440x280.png` (440×280',
  );
  // Edge Add-ons' store logo: the operator's SVG drawn at the 300 px Edge recommends, in their colour.
  const logo = join(out, 'edge-logo-300.png');
  expect(await sharp(logo).metadata()).toMatchObject({ width: 300, height: 300 });
  const { data: edge } = await sharp(logo)
    .extract({ left: 150, top: 45, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect(near(edge, TEAL), `Edge logo: ${[...edge.subarray(0, 3)].join(',')}`).toBe(true);
});

test('SUBMIT.md walks Edge Add-ons through the Chrome zip, every language’s listing and a way in for its testers', () => {
  const submit = readFileSync(join(out, 'SUBMIT.md'), 'utf8');
  const edge = submit.slice(submit.indexOf('## Microsoft Edge Add-ons'), submit.indexOf('## Languages'));
  expect(edge).toContain(`upload \`acme-rewards-${version}-chrome.zip\``);
  expect(edge).toContain('the store logo `edge-logo-300.png` (300×300)');
  const languages = /the package has \(([^)]*)\)/.exec(edge.replace(/\s+/g, ' '))?.[1]?.split(', ');
  expect(languages?.toSorted()).toEqual(LOCALES.toSorted());
  expect(edge).toContain('Notes for certification');
});

test('the sources zip rebuilds the very same Firefox add-on, as the reviewers do', () => {
  const entries = zipEntries(zip('sources'));
  expect(entries).toEqual(
    expect.arrayContaining(['panel.config.json', BRAND.icon, 'package-lock.json', 'wxt.config.ts']),
  );
  expect(entries.filter((e) => e.startsWith('tests/') || e.startsWith('.output/'))).toEqual([]);

  const rebuild = mkdtempSync(join(tmpdir(), 'panel-review-'));
  temporary.push(rebuild);
  for (const entry of entries) {
    mkdirSync(join(rebuild, dirname(entry)), { recursive: true });
    writeFileSync(join(rebuild, entry), zipFile(zip('sources'), entry)!);
  }
  symlinkSync(resolve('node_modules'), join(rebuild, 'node_modules'));
  execFileSync('npx', ['wxt', 'build', '-b', 'firefox'], { cwd: rebuild, stdio: 'ignore', env: cleanEnv() });
  const built = join(rebuild, '.output/firefox-mv2');
  const files = readdirSync(built, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(built, join(e.parentPath, e.name)));
  expect(files.toSorted()).toEqual(zipEntries(zip('firefox')).toSorted());
  for (const file of files)
    expect(readFileSync(join(built, file)).equals(zipFile(zip('firefox'), file)!), file).toBe(true);
}, 120_000);

test('every shipped language has two 1280×800 screenshots on the brand colour and its listing text', async () => {
  for (const locale of LOCALES) {
    for (const name of ['1-rewards.png', '2-profile.png']) {
      const path = join(out, 'screenshots', locale, name);
      const { width, height } = await sharp(path).metadata();
      expect([width, height], path).toEqual([1280, 800]);
      const { data } = await sharp(path)
        .extract({ left: 2, top: 2, width: 1, height: 1 })
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(near(data, TEAL), `${path}: ${[...data.subarray(0, 3)].join(',')}`).toBe(true);
    }
    const say = messageLookup(localeMessages(locale));
    const listing = readFileSync(join(out, 'listing', `${locale}.txt`), 'utf8');
    expect(listing).toContain('Title: Acme Rewards');
    expect(listing).toContain(`Acme Rewards: ${say('extDescription')}`);
    expect(listing).toContain(say('storeDescription', ['Acme Rewards']));
    // A build without sign-in connects with the personal key; the pictures' hosts are named in every language.
    expect(listing).toContain(`${say('storeConnectKey', ['Acme Rewards'])} ${say('storeImages')}`);
  }
});

test('refuses a build the sources zip would not reproduce: a setting only in the environment, an icon outside it', () => {
  const fromEnv = store(project, { PANEL_BRAND_COLOR: '#123456' });
  expect(fromEnv.status).toBe(1);
  expect(fromEnv.stderr).toContain(
    'PANEL_BRAND_COLOR is set in the environment: put it in panel.config.json as brandColor',
  );

  const elsewhere = mkdtempSync(join(tmpdir(), 'panel-icon-elsewhere-'));
  temporary.push(elsewhere);
  copyFileSync('tests/fixtures/acme-icon.svg', join(elsewhere, 'icon.svg'));
  const outside = store(project, { PANEL_CONFIG: 'panel.config.json', PANEL_ICON: join(elsewhere, 'icon.svg') });
  expect(outside.status).toBe(1);
  expect(outside.stderr).toMatch(/icon .*icon\.svg: keep it inside the project/);
});
