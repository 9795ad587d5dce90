// @vitest-environment node
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_DEV_URL } from '../../utils/build-settings';
import {
  PanelConfigError,
  buildSettings,
  exampleConfig,
  runtimeSettings,
} from '../../utils/build/operator/panel-config';
import { SETTING_ROWS } from '../../utils/build/operator/settings-table';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'panel-config-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (name: string, content: unknown) =>
  writeFileSync(join(root, name), typeof content === 'string' ? content : JSON.stringify(content));

/** The problems a build with this file and environment reports (none: []). */
function problems(env: Record<string, string> = {}, mode = 'production'): string[] {
  try {
    buildSettings(env, mode, root);
    return [];
  } catch (error) {
    if (error instanceof PanelConfigError) return error.problems;
    throw error;
  }
}

describe('the config file and the environment', () => {
  it('without either gives the defaults, and the sandbox in development builds', () => {
    const settings = buildSettings({}, 'production', root);
    expect(settings).toMatchObject({
      apiBaseUrl: '',
      panelName: 'Panel Rewards',
      brandColor: '#2458d6',
      balanceVariable: 'POINTS_BALANCE',
      geckoId: 'panel-rewards@panelist.example',
      icon: '',
      chromeKey: '',
    });
    expect(settings.oauth).toEqual({
      authorizationEndpoint: '',
      tokenEndpoint: '',
      clientId: '',
      scopes: '',
      issuer: '',
      revocationEndpoint: '',
      consentPrompt: '',
      tabRedirectUrl: '',
    });
    expect(settings.configFile).toBeNull();
    expect(new Set(Object.values(settings.sources))).toEqual(new Set(['default']));
    expect(buildSettings({ PANEL_DEV_TOKEN: 't' }, 'development', root)).toMatchObject({
      apiBaseUrl: SANDBOX_DEV_URL,
      devToken: 't',
    });
    expect(buildSettings({ PANEL_DEV_TOKEN: 't' }, 'production', root).devToken).toBe('');
  });

  it('reads panel.config.json; the environment wins over it; an empty variable is no setting', () => {
    write('panel.config.json', {
      panelName: 'Acme Rewards',
      brandColor: '#0b7a75',
      earnUrl: 'https://acme.example/surveys',
      oauth: { scopes: '' },
    });
    const settings = buildSettings({ PANEL_BRAND_COLOR: '#abc', PANEL_EARN_URL: '  ' }, 'production', root);
    expect(settings).toMatchObject({
      panelName: 'Acme Rewards',
      brandColor: '#abc',
      earnUrl: 'https://acme.example/surveys',
    });
    expect(settings.sources).toMatchObject({
      panelName: 'file',
      brandColor: 'environment',
      earnUrl: 'file',
      apiBaseUrl: 'default',
    });
    expect(settings.configFile).toBe(join(root, 'panel.config.json'));
  });

  it('reads panel.config.jsonc with comments and trailing commas; two files, or a PANEL_CONFIG naming none, are errors', () => {
    write('panel.config.jsonc', '{\n  // the brand\n  "panelName": "Acme", /* and more */\n}\n');
    expect(buildSettings({}, 'production', root).panelName).toBe('Acme');
    write('panel.config.json', {});
    expect(problems()).toEqual([expect.stringContaining('both panel.config.jsonc and panel.config.json')]);
    write('other.json', { panelName: 'Other' });
    expect(buildSettings({ PANEL_CONFIG: 'other.json' }, 'production', root).panelName).toBe('Other');
    expect(buildSettings({ PANEL_CONFIG: 'none' }, 'production', root).panelName).toBe('Panel Rewards');
    expect(problems({ PANEL_CONFIG: 'missing.json' })).toEqual([
      'PANEL_CONFIG names missing.json, and there is no such file',
    ]);
  });

  it('says where a file stops being JSON, by line and column', () => {
    write('panel.config.json', '{\n  "panelName": "Acme"\n  "brandColor": "#abc"\n}');
    expect(problems()).toEqual(['panel.config.json:3:3: not JSON (CommaExpected)']);
  });

  it('refuses a trailing comma or a comment in panel.config.json, which other tools would refuse too, naming it', () => {
    write('panel.config.json', '{\n  "panelName": "Acme",\n  "brandColor": "#abc",\n}\n');
    expect(problems()).toEqual([
      'panel.config.json:4:1: a trailing comma, which JSON does not allow (remove it, or name the file panel.config.jsonc)',
    ]);
    write('panel.config.json', '{\n  // the brand\n  "panelName": "Acme"\n}\n');
    expect(problems()).toEqual([
      'panel.config.json:2:3: a comment, which JSON does not allow (name the file panel.config.jsonc to keep comments)',
    ]);
  });

  it('names every wrong key, value and missing half at once, with where it came from', () => {
    write('panel.config.json', {
      colour: '#abc',
      brandColor: '#12g',
      apiBaseUrl: 'http://panel.example/api',
      earnUrl: 'ftp://panel.example',
      tokenHelpUrl: 'panel.example/help',
      panelName: 42,
      oauth: { clientId: 'ext', secret: 'x' },
    });
    const found = problems({ PANEL_GECKO_ID: 'not an id' });
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^panel\.config\.json › colour: unknown key \(known: apiBaseUrl, panelName, brandColor, .*oauth\)$/,
        ),
        expect.stringMatching(
          /^panel\.config\.json › oauth\.secret: unknown key \(known in oauth: authorizationEndpoint, tokenEndpoint, clientId, scopes, issuer, revocationEndpoint, consentPrompt, tabRedirectUrl\)$/,
        ),
        'panel.config.json › panelName: must be a string',
        'panel.config.json › brandColor: "#12g" is not a colour: write it as #rgb or #rrggbb, e.g. #2458d6',
        'panel.config.json › apiBaseUrl: "http://panel.example/api" must start with https:// (plain http:// only for localhost and 127.0.0.1), not "http://"',
        'panel.config.json › earnUrl: "ftp://panel.example" must start with https:// (plain http:// only for localhost and 127.0.0.1), not "ftp://"',
        'panel.config.json › tokenHelpUrl: "panel.example/help" is not a web address: write it whole, starting with https://',
        'PANEL_GECKO_ID (environment): "not an id" is not a Firefox add-on id: use name@your-domain or a {GUID}',
        expect.stringMatching(
          /^oauth\.authorizationEndpoint \(PANEL_OAUTH_AUTHORIZATION_ENDPOINT\) and oauth\.tokenEndpoint \(PANEL_OAUTH_TOKEN_ENDPOINT\) missing: oauth needs .* \(set: oauth\.clientId\)$/,
        ),
      ]),
    );
    expect(found).toHaveLength(9);
  });

  it('takes plain http only on localhost and 127.0.0.1, and no query on the API address', () => {
    expect(
      buildSettings(
        { PANEL_API_BASE_URL: 'http://127.0.0.1:8787', PANEL_EARN_URL: 'http://localhost:3000/earn' },
        'production',
        root,
      ).apiBaseUrl,
    ).toBe('http://127.0.0.1:8787');
    expect(problems({ PANEL_API_BASE_URL: 'https://panel.example/api?v=1' })).toEqual([
      expect.stringContaining('must not have a query'),
    ]);
    expect(problems({ PANEL_API_BASE_URL: 'https://user:pw@panel.example' })).toEqual([
      expect.stringContaining('must not hold a user name or password'),
    ]);
  });

  it('judges a host in its canonical form: this machine however spelled, and one spelling of the panel', () => {
    expect(buildSettings({ PANEL_API_BASE_URL: 'http://0x7f.1:8787' }, 'production', root).apiBaseUrl).toBe(
      'http://0x7f.1:8787',
    );
    expect(problems({ PANEL_API_BASE_URL: 'http://localhost.:8787' })).toEqual([
      expect.stringContaining('must write its host as localhost, not localhost.'),
    ]);
    // The host permission is made from the address: it must name the host the requests go to.
    expect(problems({ PANEL_API_BASE_URL: 'https://panel.example./api' })).toEqual([
      expect.stringContaining('must write its host as panel.example, not panel.example.'),
    ]);
    expect(problems({ PANEL_API_BASE_URL: 'http://localhost.evil.example' })).toEqual([
      expect.stringContaining('must start with https://'),
    ]);
  });

  it('needs the API address for sign-in, and defaults the issuer to the authorization endpoint origin', () => {
    const oauth = {
      PANEL_OAUTH_AUTHORIZATION_ENDPOINT: 'https://id.example/authorize',
      PANEL_OAUTH_TOKEN_ENDPOINT: 'https://id.example/token',
      PANEL_OAUTH_CLIENT_ID: 'ext',
    };
    expect(problems(oauth)).toEqual([
      'apiBaseUrl (PANEL_API_BASE_URL) missing: sign-in needs the panel API it signs in to',
    ]);
    expect(problems(oauth, 'development')).toEqual([]);
    expect(
      buildSettings({ ...oauth, PANEL_API_BASE_URL: 'https://api.example' }, 'production', root).oauth.issuer,
    ).toBe('https://id.example');
    expect(problems({ PANEL_OAUTH_SCOPES: 'panel' })).toEqual([expect.stringContaining('(set: oauth.scopes)')]);
  });

  it('reads the icon path from the config file folder, and needs the file to be there', () => {
    mkdirSync(join(root, 'brand'));
    write('brand/panel.json', { icon: 'icon.svg' });
    expect(problems({ PANEL_CONFIG: 'brand/panel.json' })).toEqual([
      `icon: there is no file at ${join(root, 'brand/icon.svg')}`,
    ]);
    write('brand/icon.svg', '<svg/>');
    expect(buildSettings({ PANEL_CONFIG: 'brand/panel.json' }, 'production', root).icon).toBe(
      join(root, 'brand/icon.svg'),
    );
    expect(problems({ PANEL_ICON: 'icon.gif' })).toEqual([
      'PANEL_ICON (environment): "icon.gif" must be an .svg or a .png file',
    ]);
  });

  it('takes the Chrome public key with or without its PEM lines, and refuses a private key or anything else', () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(buildSettings({ PANEL_CHROME_KEY: pem }, 'production', root).chromeKey).toBe(der);
    expect(buildSettings({ PANEL_CHROME_KEY: der }, 'production', root).chromeKey).toBe(der);
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const refused = problems({ PANEL_CHROME_KEY: privatePem });
    expect(refused).toEqual([
      'PANEL_CHROME_KEY (environment): is a private key: never put one in the config; give the public key (npm run ids -- --new-key prints it)',
    ]);
    expect(refused[0]).not.toContain(privatePem.split('\n')[1]);
    expect(problems({ PANEL_CHROME_KEY: 'abc' })).toEqual([expect.stringContaining('is not an RSA public key')]);
  });

  it('gives the pages and the worker no build-only setting', () => {
    write('icon.png', 'x');
    const runtime = runtimeSettings(buildSettings({ PANEL_ICON: 'icon.png' }, 'production', root)) as unknown as Record<
      string,
      unknown
    >;
    for (const key of ['icon', 'chromeKey', 'configFile', 'sources']) expect(runtime).not.toHaveProperty(key);
    expect(runtime).toHaveProperty('panelName');
    expect(runtime).toHaveProperty('oauth.clientId');
  });
});

describe('panel.config.example.json', () => {
  it('holds every setting of the table, with its example', () => {
    const example = JSON.parse(readFileSync('panel.config.example.json', 'utf8')) as unknown;
    expect(example).toEqual(exampleConfig());
    for (const row of SETTING_ROWS) expect(JSON.stringify(example)).toContain(`"${row.key}"`);
  });

  it('builds as it is copied: it names no file that is not there', () => {
    writeFileSync(join(root, 'panel.config.json'), readFileSync('panel.config.example.json'));
    expect(problems()).toEqual([]);
    expect(buildSettings({}, 'production', root).icon).toBe('');
  });
});
