// @vitest-environment node
/**
 * One pass over the settings names every problem at once — the file and the
 * environment, the icon, the manifest's description in every language with the operator's name —
 * as one list without a stack trace; it warns on an API address ending in /v1. Optional
 * permissions follow the build: `identity` only with sign-in, `https://*\/*` only when the build
 * names no panel.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigEnv, UserManifest } from 'wxt';
import { optionalHostPatterns, reachableByBuild } from '../../utils/base-url';
import { LOCALES_DIR, messageLookup, readMessages, shippedLocales } from '../../utils/build/operator/locale-messages';
import { manifestPermissions } from '../../utils/build/operator/manifest-permissions';
import { PanelConfigError } from '../../utils/build/operator/panel-config';
import { checkSettings, descriptionProblems, settingsWarnings } from '../../utils/build/operator/settings-check';
import { PANEL_NAME_MAX } from '../../utils/build/operator/settings-table';
import { LISTING_MESSAGES, SUMMARY_MAX, manifestDescription } from '../../utils/build/operator/store-listing';
import config from '../../wxt.config';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'settings-check-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (name: string, content: string | Buffer | object) => {
  mkdirSync(join(root, name, '..'), { recursive: true });
  writeFileSync(
    join(root, name),
    typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content),
  );
};

/** The error the one pass throws (or null), with the project's own languages unless `locales` is given. */
async function check(env: Record<string, string>, locales = LOCALES_DIR): Promise<PanelConfigError | null> {
  try {
    await checkSettings(env, 'production', root, locales);
    return null;
  } catch (error) {
    if (error instanceof PanelConfigError) return error;
    throw error;
  }
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#0b7a75' } })
    .png()
    .toBuffer();

describe('one pass over the settings', () => {
  it('names every problem at once — the file, the environment, the icon — as one list without a stack trace', async () => {
    write('brand/icon.png', await png(100, 60));
    write('panel.config.json', { brandColor: '#12g', icon: 'brand/icon.png', colour: 'teal' });
    const error = await check({ PANEL_GECKO_ID: 'not an id' });
    expect(error?.problems).toEqual([
      expect.stringMatching(/^panel\.config\.json › colour: unknown key/),
      'panel.config.json › brandColor: "#12g" is not a colour: write it as #rgb or #rrggbb, e.g. #2458d6',
      'PANEL_GECKO_ID (environment): "not an id" is not a Firefox add-on id: use name@your-domain or a {GUID}',
      // Both of the icon's problems, not the first only.
      `icon: ${join(root, 'brand/icon.png')} is 100×60 px: the icon must be square (the same width and height)`,
      `icon: ${join(root, 'brand/icon.png')} is 100×60 px: a PNG icon must be at least 128×128 px (or give an SVG)`,
    ]);
    expect(error?.stack).toBe('');
    expect(error?.message).toMatch(/^The panel settings have 5 problems; nothing was built:\n {2}- /);
    expect(error?.message).not.toMatch(/\n\s+at /);
  });

  it('names an icon that is no image, or of another format, in the same list', async () => {
    write('notes.svg', 'not an image');
    expect((await check({ PANEL_ICON: 'notes.svg', PANEL_BRAND_COLOR: 'x' }))?.problems).toEqual([
      expect.stringContaining('PANEL_BRAND_COLOR (environment): "x" is not a colour'),
      `icon: ${join(root, 'notes.svg')} is not an image sharp can read: give an SVG or a PNG`,
    ]);
    write(
      'photo.png',
      await sharp({ create: { width: 64, height: 32, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer(),
    );
    expect((await check({ PANEL_ICON: 'photo.png' }))?.problems).toEqual([
      `icon: ${join(root, 'photo.png')} is JPEG: give an SVG or a PNG`,
      `icon: ${join(root, 'photo.png')} is 64×32 px: the icon must be square (the same width and height)`,
    ]);
  });

  it('passes good settings and returns their warnings', async () => {
    write(
      'icon.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128"><rect width="128" height="128"/></svg>',
    );
    const checked = await checkSettings(
      { PANEL_ICON: 'icon.svg', PANEL_API_BASE_URL: 'https://api.panel.example/v1' },
      'production',
      root,
    );
    expect(checked.settings.icon).toBe(join(root, 'icon.svg'));
    expect(checked.warnings).toHaveLength(1);
  });
});

describe('the API address', () => {
  it('warns when it ends in /v1 or /v1/panel, which the extension adds itself', () => {
    expect(settingsWarnings({ apiBaseUrl: 'https://api.panel.example/v1' })).toEqual([
      'apiBaseUrl https://api.panel.example/v1 ends in /v1: the extension adds /v1/panel/… itself, so it would ask for https://api.panel.example/v1/v1/panel/rewards. ' +
        'Leave /v1 out (https://api.panel.example) unless the panel really answers there; `npm run doctor` shows what it answers.',
    ]);
    expect(settingsWarnings({ apiBaseUrl: 'https://panel.example/api/V1/' })).toEqual([
      expect.stringContaining('ends in /v1'),
    ]);
    expect(settingsWarnings({ apiBaseUrl: 'https://panel.example/api/v1/panel' })).toEqual([
      expect.stringMatching(/ends in \/v1\/panel: .* Leave \/v1\/panel out \(https:\/\/panel\.example\/api\)/),
    ]);
    for (const fine of [
      '',
      'https://api.panel.example',
      'https://panel.example/api',
      'https://panel.example/v10',
      'https://v1.panel.example',
    ])
      expect(settingsWarnings({ apiBaseUrl: fine }), fine).toEqual([]);
  });

  it('tells the warning with the problems when the build stops, and on its own when it goes on', async () => {
    const error = await check({ PANEL_API_BASE_URL: 'https://api.panel.example/v1', PANEL_BRAND_COLOR: 'red' });
    expect(error?.problems).toHaveLength(1);
    expect(error?.warnings).toEqual([expect.stringContaining('ends in /v1')]);
    expect(error?.message).toContain('Also a warning:\n  - apiBaseUrl https://api.panel.example/v1 ends in /v1');
  });
});

describe("the manifest's description in every language", () => {
  it('fits the Chrome Web Store in every shipped language with the longest name the settings take', () => {
    const longest = 'N'.repeat(PANEL_NAME_MAX);
    expect(shippedLocales(LOCALES_DIR).length).toBeGreaterThanOrEqual(10);
    for (const locale of shippedLocales(LOCALES_DIR)) {
      const text = messageLookup(readMessages(LOCALES_DIR, locale))(LISTING_MESSAGES.summary);
      expect(text, locale).not.toBe('');
      expect(manifestDescription(longest, text).length, `${locale}: ${text}`).toBeLessThanOrEqual(SUMMARY_MAX);
    }
    expect(descriptionProblems(longest, LOCALES_DIR)).toEqual([]);
  });

  it('names each language a name makes too long, and the longest name that fits them all', () => {
    const locales = join(root, 'locales');
    write('locales/en/messages.json', { extDescription: { message: 'x'.repeat(100) } });
    write('locales/fr/messages.json', { extDescription: { message: 'y'.repeat(110) } });
    write('locales/de/messages.json', { extDescription: { message: 'z'.repeat(20) } });
    write('locales/nl/messages.json', { other: { message: 'no description' } });
    const name = 'Acme Opinions Research'; // 22 characters: 124 in English, 134 in French
    expect(descriptionProblems(name, locales)).toEqual([
      `${locales}/nl/messages.json has no extDescription: the manifest's description in that language would be empty`,
      `panelName "Acme Opinions Research" (22 characters) makes the manifest's description ("name: description") longer than the 132 characters the Chrome Web Store takes in fr (134): ` +
        "a name of at most 20 characters fits every language (or shorten extDescription in those languages' messages.json)",
    ]);
    expect(descriptionProblems('Acme', locales)).toHaveLength(1);
  });

  it('is part of the one pass, judged with the name', async () => {
    const locales = join(root, 'locales');
    write('locales/en/messages.json', { extDescription: { message: 'x'.repeat(120) } });
    const error = await check({ PANEL_NAME: 'Acme Opinions', PANEL_BRAND_COLOR: 'nope' }, locales);
    expect(error?.problems).toEqual([
      expect.stringContaining('"nope" is not a colour'),
      expect.stringMatching(/^panelName "Acme Opinions" \(13 characters\) .* in en \(135\)/),
    ]);
  });
});

describe('permissions follow the build', () => {
  const SIGN_IN = {
    authorizationEndpoint: 'https://id.example/authorize',
    tokenEndpoint: 'https://id.example/token',
    clientId: 'ext',
    scopes: '',
    issuer: '',
    revocationEndpoint: 'https://id.example/revoke',
    consentPrompt: '',
    tabRedirectUrl: '',
  };
  const NO_SIGN_IN = {
    authorizationEndpoint: '',
    tokenEndpoint: '',
    clientId: '',
    scopes: '',
    issuer: '',
    revocationEndpoint: '',
    consentPrompt: '',
    tabRedirectUrl: '',
  };

  it('asks for any https:// panel only when the build names none', () => {
    expect(manifestPermissions({ apiBaseUrl: '', oauth: NO_SIGN_IN }, 3)).toEqual({
      permissions: ['storage', 'alarms', 'idle'],
      host_permissions: [],
      optional_host_permissions: ['https://*/*', 'http://localhost/*', 'http://127.0.0.1/*'],
      optional_permissions: ['notifications'],
    });
    expect(manifestPermissions({ apiBaseUrl: 'https://api.panel.example/api', oauth: NO_SIGN_IN }, 3)).toEqual({
      permissions: ['storage', 'alarms', 'idle'],
      host_permissions: ['https://api.panel.example/*'],
      optional_host_permissions: [],
      optional_permissions: ['notifications'],
    });
    expect(manifestPermissions({ apiBaseUrl: 'https://api.panel.example', oauth: NO_SIGN_IN }, 2)).toMatchObject({
      permissions: ['storage', 'alarms', 'idle'],
      optional_permissions: ['notifications'],
    });
  });

  it('asks for local panels only in a build for a local sandbox or for no panel, never for an https one', () => {
    const local = ['http://localhost/*', 'http://127.0.0.1/*'];
    const sandbox = manifestPermissions({ apiBaseUrl: 'http://127.0.0.1:8787', oauth: NO_SIGN_IN }, 3);
    expect(sandbox.optional_host_permissions).toEqual(local);
    expect(
      manifestPermissions({ apiBaseUrl: 'http://localhost:9000', oauth: NO_SIGN_IN }, 2).optional_permissions,
    ).toEqual([...local, 'notifications']);
    for (const version of [2, 3] as const) {
      const release = manifestPermissions({ apiBaseUrl: 'https://api.panel.example', oauth: SIGN_IN }, version);
      expect(JSON.stringify(release), `MV${version}`).not.toMatch(/localhost|127\.0\.0\.1/);
    }
  });

  it('offers `identity` only with sign-in: optional in Chrome, at install in Firefox (which cannot make it optional)', () => {
    const chrome = manifestPermissions({ apiBaseUrl: 'https://api.panel.example', oauth: SIGN_IN }, 3);
    expect(chrome.optional_permissions).toEqual(['identity', 'notifications']);
    expect(chrome.host_permissions).toEqual(['https://api.panel.example/*', 'https://id.example/*']);
    const firefox = manifestPermissions({ apiBaseUrl: 'https://api.panel.example', oauth: SIGN_IN }, 2);
    expect(firefox.permissions).toEqual([
      'storage',
      'alarms',
      'idle',
      'declarativeNetRequestWithHostAccess',
      'identity',
    ]);
    expect(firefox.optional_permissions).not.toContain('identity');
    // Sign-in settings without the API address are no sign-in (build-settings.ts).
    const unsigned = manifestPermissions({ apiBaseUrl: '', oauth: SIGN_IN }, 3);
    expect(unsigned.optional_permissions).toEqual(['notifications']);
    expect(unsigned.permissions).toEqual(['storage', 'alarms', 'idle']);
  });

  it('asks for header rules only with sign-in, at install and without a warning in either browser', () => {
    // The token and revocation requests leave without the extension's Origin (without-origin.ts).
    for (const version of [2, 3] as const) {
      const signIn = manifestPermissions({ apiBaseUrl: 'https://api.panel.example', oauth: SIGN_IN }, version);
      expect(signIn.permissions).toContain('declarativeNetRequestWithHostAccess');
      // Not the plain `declarativeNetRequest`, which warns ("Block content on any page").
      expect(signIn.permissions).not.toContain('declarativeNetRequest');
      const keyOnly = manifestPermissions({ apiBaseUrl: 'https://api.panel.example', oauth: NO_SIGN_IN }, version);
      expect(keyOnly.permissions).not.toContain('declarativeNetRequestWithHostAccess');
    }
  });

  it('is what wxt.config.ts writes into the manifests', async () => {
    const saved = { ...process.env };
    try {
      for (const name of Object.keys(process.env)) if (name.startsWith('PANEL_')) delete process.env[name];
      Object.assign(process.env, { PANEL_CONFIG: 'none', PANEL_API_BASE_URL: 'https://api.panel.example' });
      const make = config.manifest as (env: ConfigEnv) => Promise<UserManifest>;
      const chrome = await make({ browser: 'chrome', manifestVersion: 3, mode: 'production', command: 'build' });
      expect(chrome).toMatchObject({ optional_host_permissions: [], optional_permissions: ['notifications'] });
      const firefox = await make({ browser: 'firefox', manifestVersion: 2, mode: 'production', command: 'build' });
      expect(firefox.optional_permissions).toEqual(['notifications']);
      // Not in the image policy either: a release build for an https panel names no local address anywhere.
      for (const manifest of [chrome, firefox]) expect(JSON.stringify(manifest)).not.toMatch(/localhost|127\.0\.0\.1/);
      // The development build (`npm start`: the sandbox on 127.0.0.1) still may reach a local panel.
      delete process.env.PANEL_API_BASE_URL;
      const dev = await make({ browser: 'chrome', manifestVersion: 3, mode: 'development', command: 'serve' });
      expect(dev.optional_host_permissions).toEqual(['http://localhost/*', 'http://127.0.0.1/*']);
      expect(JSON.stringify(dev.content_security_policy)).toContain('http://127.0.0.1:*');
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it('lets the options page refuse what the build cannot reach, before asking the browser', () => {
    expect(optionalHostPatterns('')).toContain('https://*/*');
    const build = 'https://api.panel.example/api';
    expect(reachableByBuild('https://api.panel.example', build)).toBe(true);
    expect(reachableByBuild('https://api.panel.example:8443', build)).toBe(true);
    // A build for an https panel reaches no local server: its manifest asks for none.
    expect(reachableByBuild('http://localhost:8787', build)).toBe(false);
    expect(reachableByBuild('http://127.0.0.1:8787', build)).toBe(false);
    expect(reachableByBuild('https://elsewhere.example', build)).toBe(false);
    expect(reachableByBuild('https://elsewhere.example', '')).toBe(true);
    expect(reachableByBuild('http://127.0.0.1:8787', '')).toBe(true);
    // A sandbox build (the browser tests', the benchmarks') reaches another local port too.
    expect(reachableByBuild('http://127.0.0.1:9999', 'http://127.0.0.1:8787')).toBe(true);
    expect(reachableByBuild('http://localhost:9999', 'http://127.0.0.1:8787')).toBe(true);
  });
});
