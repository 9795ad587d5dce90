// @vitest-environment node
/**
 * The API audit: every extension API the built bundles use, checked against
 * MDN's browser-compat-data for Chrome, Firefox and Firefox for Android at the manifest's minimum
 * versions. An API a target lacks must be feature-detected, with a tested fallback, and listed in
 * GUARDED below; a new one fails here and the table says which. How uses are found, and why from
 * the bundles: tests/tools/api-audit.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTable,
  bcdVersion,
  chromeFloor,
  compatData,
  formatTable,
  manifestMinimums,
  usesInBuild,
  usesInCode,
  type Row,
  type Target,
  type Use,
} from '../tools/api-audit';
import { withBuildLock } from '../tools/build-lock';

/**
 * The APIs a target lacks, each with how the code detects it and what it does instead. Only what is
 * here may be missing somewhere; an entry that is no longer used, or no longer missing, fails too,
 * so the list stays true.
 */
const GUARDED: Array<{ api: string; missingIn: Target[]; guard: string; fallback: string; test: string }> = [
  // Firefox for Android has no identity API at all (the manifest's `identity` permission is ignored
  // there). signInDoor() (entrypoints/background/session/sign-in.ts) takes the sign-in window only when
  // browser.identity has both calls as functions; otherwise the sign-in opens in a tab and comes back
  // to oauth.tabRedirectUrl on the panel's origin (entrypoints/background/session/sign-in-tab.ts). The same
  // fallback serves Chrome when the optional `identity` permission was not granted.
  {
    api: 'identity',
    missingIn: ['firefox_android'],
    guard: 'signInDoor(): `typeof identity?.launchWebAuthFlow === "function"`',
    fallback: 'sign-in in a tab',
    test: 'tests/unit/background-sign-in-tab.test.ts',
  },
  {
    api: 'identity.launchWebAuthFlow',
    missingIn: ['firefox_android'],
    guard: 'signInDoor(): `typeof identity?.launchWebAuthFlow === "function"`',
    fallback: 'sign-in in a tab',
    test: 'tests/unit/background-sign-in-tab.test.ts',
  },
  {
    api: 'identity.getRedirectURL',
    missingIn: ['firefox_android'],
    guard: 'signInDoor(): `typeof identity.getRedirectURL === "function"` (the tab uses oauth.tabRedirectUrl)',
    fallback: 'sign-in in a tab',
    test: 'tests/unit/background-sign-in-tab.test.ts',
  },
];

/** A release build with every feature on (sign-in with revocation, a named panel), for both browsers. */
const BUILD_ENV = {
  PANEL_CONFIG: 'none',
  PANEL_API_BASE_URL: 'https://api.panel.example',
  PANEL_OAUTH_AUTHORIZATION_ENDPOINT: 'https://login.panel.example/oauth/authorize',
  PANEL_OAUTH_TOKEN_ENDPOINT: 'https://login.panel.example/oauth/token',
  PANEL_OAUTH_REVOCATION_ENDPOINT: 'https://login.panel.example/oauth/revoke',
  PANEL_OAUTH_CLIENT_ID: 'panel-rewards-extension',
};

const namespaces = compatData();
let outDir = '';
interface Audited {
  dir: string;
  uses: Use[];
  computed: number;
  minimums: Record<Target, number | undefined>;
  rows: Row[];
}
const builds: Record<'chrome' | 'firefox', Audited> = {} as never;

beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'panel-audit-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ...BUILD_ENV, PANEL_OUT_DIR: outDir };
  delete env.PANEL_DEV_TOKEN;
  for (const [browser, folder] of [
    ['chrome', 'chrome-mv3'],
    ['firefox', 'firefox-mv2'],
  ] as const) {
    // At low priority: the unit files that time their own requests run beside it on CI's two cores.
    withBuildLock(() =>
      execFileSync('nice', ['-n', '15', 'npx', 'wxt', 'build', '--browser', browser], {
        stdio: ['ignore', 'ignore', 'inherit'],
        env,
      }),
    );
    const dir = join(outDir, folder);
    const declared = manifestMinimums(dir);
    const minimums: Record<Target, number | undefined> =
      browser === 'chrome'
        ? { chrome: declared.chrome ?? chromeFloor(dir).version, firefox: undefined, firefox_android: undefined }
        : { chrome: undefined, firefox: declared.firefox, firefox_android: declared.firefox_android };
    const { uses, computed } = usesInBuild(dir, namespaces);
    builds[browser] = { dir, uses, computed, minimums, rows: auditTable(uses, minimums, namespaces) };
  }
  for (const [browser, audited] of Object.entries(builds)) {
    console.log(
      `API audit, ${browser} build (browser-compat-data ${bcdVersion()}):\n${formatTable(audited.rows, audited.minimums)}\n`,
    );
  }
}, 600_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** Every (API, target) a build uses that the target lacks. */
function missing(audited: Audited): Array<{ api: string; target: Target; text: string }> {
  return audited.rows.flatMap((row) =>
    Object.entries(row.cells)
      .filter(([, cell]) => !cell.supported)
      .map(([target, cell]) => ({ api: row.api, target: target as Target, text: cell.text })),
  );
}

describe('the API audit of the built extension', () => {
  it('reads the minimum versions from the built manifests', () => {
    expect(builds.firefox.minimums).toEqual({ chrome: undefined, firefox: 140, firefox_android: 142 });
    // The Chrome manifest names no minimum_chrome_version: the oldest Chrome that knows all its keys.
    expect(chromeFloor(builds.chrome.dir)).toEqual({ version: 102, key: 'optional_host_permissions' });
    expect(builds.chrome.minimums.chrome).toBe(102);
  });

  it('finds the APIs the code reaches, also through aliases, in both builds', () => {
    const apis = (b: Audited) => b.uses.map((u) => u.api);
    for (const build of [builds.chrome, builds.firefox]) {
      expect(apis(build)).toEqual(
        expect.arrayContaining([
          'alarms.create',
          'storage.local',
          'storage.onChanged',
          'runtime.sendMessage',
          'runtime.onMessage',
          'permissions.request',
          'i18n.getMessage',
          // Reached through `let identity = browser.identity` and the badge's `action ?? browserAction`.
          'identity.launchWebAuthFlow',
          'identity.getRedirectURL',
          'action.setBadgeText',
          'browserAction.setBadgeText',
          'notifications.getAll',
          // Sign-in in a tab.
          'tabs.create',
          'tabs.remove',
          'tabs.onUpdated',
          'tabs.onRemoved',
          'runtime.getPlatformInfo',
        ]),
      );
      // No API member is reached with a computed name, which the scan could not follow.
      expect(build.computed).toBe(0);
    }
  });

  it('every API a target lacks is guarded, with a tested fallback; none is missing unguarded', () => {
    const unguarded = [builds.chrome, builds.firefox].flatMap((b) =>
      missing(b).filter(({ api, target }) => !GUARDED.some((g) => g.api === api && g.missingIn.includes(target))),
    );
    const table = [builds.chrome, builds.firefox].map((b) => formatTable(b.rows, b.minimums)).join('\n\n');
    expect(
      unguarded,
      `Unguarded APIs (feature-detect each, add a tested fallback, then list it in GUARDED):\n${table}`,
    ).toEqual([]);
  });

  it('the list of guarded APIs is true: each is used, missing where it says, and its fallback test exists', () => {
    for (const entry of GUARDED) {
      const build = entry.missingIn.includes('chrome') ? builds.chrome : builds.firefox;
      const row = build.rows.find((r) => r.api === entry.api);
      expect(row, `${entry.api} is no longer used: remove it from GUARDED`).toBeDefined();
      for (const target of entry.missingIn)
        expect(row?.cells[target]?.supported, `${entry.api} on ${target}`).toBe(false);
      expect(existsSync(entry.test), entry.test).toBe(true);
      expect(readFileSync(entry.test, 'utf8')).toMatch(/identity/);
    }
  });

  it('on Firefox for Android, exactly the identity API is missing', () => {
    expect(missing(builds.firefox).map(({ api, target }) => `${api} ${target}`)).toEqual([
      'identity firefox_android',
      'identity.getRedirectURL firefox_android',
      'identity.launchWebAuthFlow firefox_android',
    ]);
    expect(missing(builds.chrome)).toEqual([]);
  });
});

describe('how uses are found in minified code', () => {
  const uses = (code: string) => [...usesInCode(code, namespaces).uses].sort();

  it('follows variables, ?? branches, optional chains, destructuring and small functions', () => {
    expect(uses('let c={default:browser};let t=c.default.identity;t?.launchWebAuthFlow({});')).toEqual([
      'identity',
      'identity.launchWebAuthFlow',
    ]);
    expect(
      uses('var pe=globalThis,p=()=>pe.browser?.storage??pe.chrome?.storage;p().onChanged.addListener(()=>{})'),
    ).toEqual(['storage', 'storage.onChanged']);
    expect(
      uses('var Fl=chrome.action??chrome.browserAction;async function f(){await Fl.setBadgeText({text:""})}'),
    ).toEqual(['action', 'action.setBadgeText', 'browserAction', 'browserAction.setBadgeText']);
    expect(uses('const {tabs}=browser;tabs.create({url:"x"})')).toEqual(['tabs', 'tabs.create']);
    expect(uses('function g(){return browser.notifications}g()?.clear("a")')).toEqual([
      'notifications',
      'notifications.clear',
    ]);
    // A module's default export followed by a namespace: the polyfill's.
    expect(uses('import n from "x";n.default.alarms.create("a",{})')).toEqual(['alarms', 'alarms.create']);
  });

  it('does not take a reused one-letter name in another function for the API', () => {
    expect(
      uses(
        'function a(){let e=browser.notifications;e.clear("x")}function b(e){e.update("y")}function c(){let e={update(){}};e.update()}',
      ),
    ).toEqual(['notifications', 'notifications.clear']);
  });

  it('ignores names that are only namespace-like (location.search, an object with a history field)', () => {
    expect(
      uses('location.search.startsWith("?");let t={history:[]};t.history.find(Boolean);rewards.find(x=>x)'),
    ).toEqual([]);
  });
});
