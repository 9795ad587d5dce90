// @vitest-environment node
/**
 * The stores are told what the extension really sends. The Firefox manifest
 * (wxt.config.ts's own manifest function, as a build calls it) and SUBMIT.md (`npm run store`)
 * declare the same data, built from the panel config: the panelist's key or sign-in, their profile
 * answers and their redemptions, whether or not the build has sign-in. Mozilla's categories are
 * the ones addons-linter (web-ext lint) knows; SUBMIT.md has Chrome's privacy answers and a
 * privacy policy to fill in.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigEnv, UserManifest } from 'wxt';
import {
  CHROME_DATA_CATEGORIES,
  DATA_TYPE_NAMES,
  declaredData,
  type DataType,
} from '../../utils/build/operator/data-collection';
import { chromeIdFromKey, newChromeKey } from '../../utils/build/operator/extension-ids';
import { LOCALES_DIR, messageLookup, readMessages } from '../../utils/build/operator/locale-messages';
import { buildSettings, type ResolvedSettings } from '../../utils/build/operator/panel-config';
import { listingFor, thirdPartySentence } from '../../utils/build/operator/store-listing';
import { signInConfigured } from '../../utils/build-settings';
import {
  CHROME_CERTIFICATIONS,
  CHROME_DATA_HEADING,
  privacyPolicyTemplate,
  reviewerNotes,
  submitNotes,
} from '../tools/store/submit';
import config from '../../wxt.config';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

const SIGN_IN = {
  PANEL_API_BASE_URL: 'https://api.acme-panel.example',
  PANEL_OAUTH_AUTHORIZATION_ENDPOINT: 'https://login.acme-panel.example/oauth/authorize',
  PANEL_OAUTH_TOKEN_ENDPOINT: 'https://login.acme-panel.example/oauth/token',
  PANEL_OAUTH_CLIENT_ID: 'acme-rewards-extension',
  PANEL_OAUTH_REVOCATION_ENDPOINT: 'https://login.acme-panel.example/oauth/revoke',
};

/** The builds an operator may make: sign-in, a key only with a fixed address, a key only with none, a health panel. */
const BUILDS: Record<string, Record<string, string>> = {
  'with sign-in': SIGN_IN,
  'a key only, fixed address': { PANEL_API_BASE_URL: 'https://api.acme-panel.example' },
  'a key only, no address': {},
  'a health panel': {
    PANEL_API_BASE_URL: 'https://api.acme-panel.example',
    PANEL_PROFILE_DATA: 'personallyIdentifyingInfo locationInfo healthInfo',
  },
};

function useEnv(env: Record<string, string>): ResolvedSettings {
  for (const name of Object.keys(process.env)) if (name.startsWith('PANEL_')) delete process.env[name];
  Object.assign(process.env, { PANEL_CONFIG: 'none', PANEL_NAME: 'Acme Opinions' }, env);
  return buildSettings(process.env, 'production');
}

/** The manifest as `wxt build -b <browser>` makes it from wxt.config.ts, without building. */
async function manifest(browser: 'firefox' | 'chrome'): Promise<Record<string, any>> {
  const make = config.manifest as (env: ConfigEnv) => Promise<UserManifest>;
  return (await make({
    browser,
    manifestVersion: browser === 'firefox' ? 2 : 3,
    mode: 'production',
    command: 'build',
  })) as Record<string, any>;
}

const flatText = (text: string) => text.replace(/\s+/g, ' ');

function submit(settings: ResolvedSettings): string {
  const files = { chrome: 'out/acme-chrome.zip', firefox: 'out/acme-firefox.zip', sources: 'out/acme-sources.zip' };
  return submitNotes({
    settings,
    version: '1.2.0',
    outDir: 'out',
    root: process.cwd(),
    files,
    storeIcon: 'out/store-icon-128.png',
    edgeLogo: { path: 'out/edge-logo-300.png', size: 300 },
    promoTile: 'out/promo-tile-440x280.png',
    listings: [],
    shots: [],
    sources: ['package.json'],
  });
}

/** The Chrome categories SUBMIT.md ticks under "What user data do you plan to collect…". */
function chromeTicked(notes: string): { ticked: string[]; unticked: string[] } {
  const after = notes.slice(notes.indexOf(CHROME_DATA_HEADING));
  const boxes = after
    .split('\n')
    .slice(1)
    .filter((line) => /^\s+- \[[x ]\] /.test(line));
  const named = boxes
    .slice(0, CHROME_DATA_CATEGORIES.length)
    .map((line) => ({ ticked: line.includes('[x]'), name: line.replace(/^\s+- \[[x ]\] /, '') }));
  return {
    ticked: named.filter((b) => b.ticked).map((b) => b.name),
    unticked: named.filter((b) => !b.ticked).map((b) => b.name),
  };
}

/** Mozilla's data types, as the addons-linter web-ext lint runs knows them (its manifest schema). */
function mozillaDataTypes(): string[] {
  const linter = readFileSync('node_modules/addons-linter/dist/addons-linter.js', 'utf8');
  const found = /"CommonDataCollectionPermission":\{"anyOf":\[\{"type":"string","enum":\[([^\]]+)\]/.exec(linter);
  if (!found) throw new Error('addons-linter no longer has CommonDataCollectionPermission where this test looks');
  return JSON.parse(`[${found[1]}]`) as string[];
}

describe.each(Object.entries(BUILDS))('a build %s', (_, env) => {
  it('declares in the Firefox manifest what SUBMIT.md declares to the Chrome Web Store, nothing less', async () => {
    const settings = useEnv(env);
    const firefox = await manifest('firefox');
    const declared = firefox.browser_specific_settings.gecko.data_collection_permissions as {
      required: DataType[];
      optional?: string[];
    };
    expect(declared.required).not.toContain('none');
    expect(declared.optional ?? []).toEqual([]);
    // What is always transmitted: the key (a pasted key is authentication information too), profile answers, redemptions.
    expect(declared.required).toEqual(
      expect.arrayContaining(['authenticationInfo', 'personallyIdentifyingInfo', 'financialAndPaymentInfo']),
    );
    for (const type of declared.required) expect(mozillaDataTypes()).toContain(type);

    const notes = submit(settings);
    const { ticked, unticked } = chromeTicked(notes);
    expect(ticked.toSorted()).toEqual(declared.required.map((type) => DATA_TYPE_NAMES[type].chrome).toSorted());
    expect([...ticked, ...unticked].toSorted()).toEqual([...CHROME_DATA_CATEGORIES].toSorted());
    // The same list, in the table both stores' answers come from, and in the Firefox line.
    for (const type of declared.required)
      expect(notes).toContain(`| ${DATA_TYPE_NAMES[type].firefox} (\`${type}\`) | ${DATA_TYPE_NAMES[type].chrome} |`);
    expect(notes).toContain(`\`${JSON.stringify(declared.required)}\``);
    expect(notes).not.toMatch(/collects nothing/i);

    // The Chrome build declares nothing of the kind (Chrome reports the key as unrecognized).
    expect(await manifest('chrome')).not.toHaveProperty('browser_specific_settings');
  });

  it("gives the privacy policy what is sent, to whom, what stays on the device and how to remove it, and Chrome's three certifications", () => {
    const settings = useEnv(env);
    const notes = submit(settings);
    const policy = privacyPolicyTemplate(settings);
    expect(notes).toContain(policy);
    for (const item of declaredData(settings))
      expect(policy).toContain(`${DATA_TYPE_NAMES[item.type].chrome}: ${item.toPanelist}.`);
    expect(policy).toContain(settings.apiBaseUrl ? new URL(settings.apiBaseUrl).origin : 'at the address you enter');
    expect(policy).toMatch(/## What is stored on your device[\s\S]*your personal key/);
    expect(policy).toMatch(/\*\*Disconnect\*\*[\s\S]*\*\*Uninstalling\*\*/);
    expect(policy).toMatch(/no tracking or advertising/);
    expect(policy).toMatch(/no analytics or crash reports/);
    expect(policy).toContain('[YOUR PRIVACY CONTACT');
    for (const [text] of CHROME_CERTIFICATIONS) expect(notes).toContain(`- [x] ${text}`);
    expect(notes).toContain('Privacy policy URL');
  });
});

describe('what the declarations say, by build', () => {
  it('a pasted key is authentication information with or without sign-in; sign-in adds the sign-in server', () => {
    const keyOnly = declaredData(useEnv({ PANEL_API_BASE_URL: 'https://api.acme-panel.example' }));
    expect(keyOnly.find((item) => item.type === 'authenticationInfo')?.what).toMatch(
      /^the panelist's personal key .*https:\/\/api\.acme-panel\.example/,
    );
    expect(keyOnly.find((item) => item.type === 'authenticationInfo')?.what).not.toMatch(/sign-in/);
    const signIn = declaredData(useEnv(SIGN_IN));
    expect(signIn.find((item) => item.type === 'authenticationInfo')?.what).toMatch(
      /refresh token sent to the sign-in server \(https:\/\/login\.acme-panel\.example\).*revoke it on Disconnect/,
    );
  });

  it("follows the profile's questions (profileData): location by default, health where the panel asks it", async () => {
    useEnv({});
    expect((await manifest('firefox')).browser_specific_settings.gecko.data_collection_permissions.required).toEqual([
      'authenticationInfo',
      'personallyIdentifyingInfo',
      'financialAndPaymentInfo',
      'locationInfo',
    ]);
    useEnv({ PANEL_PROFILE_DATA: 'personallyIdentifyingInfo' });
    expect((await manifest('firefox')).browser_specific_settings.gecko.data_collection_permissions.required).toEqual([
      'authenticationInfo',
      'personallyIdentifyingInfo',
      'financialAndPaymentInfo',
    ]);
    useEnv({ PANEL_PROFILE_DATA: 'healthInfo, personallyIdentifyingInfo' });
    expect((await manifest('firefox')).browser_specific_settings.gecko.data_collection_permissions.required).toEqual([
      'authenticationInfo',
      'personallyIdentifyingInfo',
      'financialAndPaymentInfo',
      'healthInfo',
    ]);
  });

  it('refuses a profileData that names an unknown type or leaves out personal data', () => {
    expect(() => useEnv({ PANEL_PROFILE_DATA: 'locationInfo' })).toThrow(
      /PANEL_PROFILE_DATA \(environment\): "locationInfo" must include personallyIdentifyingInfo/,
    );
    expect(() => useEnv({ PANEL_PROFILE_DATA: 'personallyIdentifyingInfo none' })).toThrow(
      /names none: use Mozilla's data types personallyIdentifyingInfo, locationInfo, healthInfo, financialAndPaymentInfo/,
    );
  });
});

describe.each(Object.entries(BUILDS))('what a build %s tells about third parties', (_, env) => {
  it('is one true sentence, the same in SUBMIT.md, the notes for the reviewers, the listing and the privacy policy', () => {
    const settings = useEnv(env);
    const sentence = thirdPartySentence();
    // The sentence itself: reward pictures do load from the catalogue's hosts, so it says so.
    expect(sentence).toMatch(/^Reward pictures load from the image addresses in the panel’s catalogue/);
    expect(sentence).toContain('Nothing else goes to anyone but the panel');
    const notes = submit(settings);
    const data = notes.slice(notes.indexOf('## What the extension sends'), notes.indexOf('## Chrome Web Store'));
    const reviewers = notes.slice(notes.indexOf('2. Notes for reviewers'), notes.indexOf('The sources zip holds only'));
    const english = listingFor(
      'en',
      'Acme Opinions',
      messageLookup(readMessages(LOCALES_DIR, 'en')),
      signInConfigured(settings),
    ).listing.description;
    const policy = privacyPolicyTemplate(settings);
    // What npm run release sends addons.mozilla.org as each version's approval notes.
    const approval = reviewerNotes(settings, ['package.json', 'utils/ (80 files)']);
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    for (const [where, text] of Object.entries({ data, reviewers, approval, english, policy })) {
      expect(flat(text), where).toContain(sentence);
      // Never the unqualified promise the pictures would break.
      expect(text, where).not.toMatch(
        /Nothing goes to anyone else|sends nothing to anyone else|to our own panel API only/i,
      );
    }
  });

  it('says how this build connects: signing in where it has sign-in, the personal key otherwise', () => {
    const settings = useEnv(env);
    const signIn = signInConfigured(settings);
    const { listing } = listingFor('en', 'Acme Opinions', messageLookup(readMessages(LOCALES_DIR, 'en')), signIn);
    if (signIn) {
      expect(listing.description).toContain(
        'Sign in with your account on the panel Acme Opinions, or connect with your personal key.',
      );
      expect(listing.description).not.toContain(
        'Connect your account on the panel Acme Opinions with your personal key.',
      );
    } else {
      expect(listing.description).toContain('Connect your account on the panel Acme Opinions with your personal key.');
      expect(listing.description).not.toMatch(/Sign in/);
    }
    const reviewers = submit(settings);
    expect(reviewers).toContain(
      signIn ? "the panelist's sign-in (the OAuth tokens" : "the panelist's personal key, profile answers",
    );
  });

  it('has an Edge Add-ons section: the Chrome zip, personal data declared, a listing per language, a way in for its testers', () => {
    const settings = useEnv({ ...env, PANEL_PRIVACY_POLICY_URL: 'https://www.acme-panel.example/privacy' });
    const notes = submit(settings);
    const edge = notes.slice(notes.indexOf('## Microsoft Edge Add-ons'), notes.indexOf('## Languages'));
    expect(edge).toContain('upload `acme-chrome.zip`');
    expect(edge).toContain('**Yes**');
    expect(edge).toContain('https://www.acme-panel.example/privacy');
    expect(edge).toContain('the store logo `edge-logo-300.png` (300×300)');
    expect(flatText(edge)).toContain('Edge takes less than 10,000 characters');
    expect(flatText(edge)).toContain("panelist's personal key [KEY]");
    if (signInConfigured(settings))
      expect(flatText(edge)).toContain('Sign in with the test account [E-MAIL] / [PASSWORD]');
    else expect(edge).not.toContain('Sign in');
    expect(flatText(edge)).toContain('set it as `edgeId`');
    expect(flatText(edge)).toContain('It sends no notes for certification');
  });

  it('has a Firefox for Android section: the compatibility step, the tab redirect to register, what a device shows', () => {
    const settings = useEnv(env);
    const notes = submit(settings);
    const android = notes.slice(notes.indexOf('## Firefox for Android'), notes.indexOf('## Languages'));
    expect(android).toContain('tick *Firefox for Android* under compatibility');
    expect(android).toContain('FIREFOX_COMPATIBILITY=firefox,android');
    expect(android).toContain('On a real Android device');
    if (signInConfigured(settings)) expect(android).toContain('https://api.acme-panel.example/extension-sign-in-done');
    else expect(android).toContain('This build has no sign-in');
  });
});

describe('the Chrome id in SUBMIT.md', () => {
  it("carries the caveat that the store gives its own id unless chromeKey is the store item's key", () => {
    const key = newChromeKey().publicKey;
    const notes = submit(useEnv({ ...SIGN_IN, PANEL_CHROME_KEY: key }));
    const id = chromeIdFromKey(key);
    expect(notes).toContain(`Chrome id from chromeKey: ${id}; sign-in redirect URL: https://${id}.chromiumapp.org/.`);
    expect(notes.replace(/\s+/g, ' ')).toContain(
      "this is the store's id only if chromeKey is your store item's public key (Package → View public key).",
    );
    expect(notes.replace(/\s+/g, ' ')).toContain(
      "the redirect URL to register is https://<the item's id>.chromiumapp.org/",
    );
    const none = submit(useEnv(SIGN_IN));
    expect(none).toContain('No chromeKey, so the Chrome id is not known yet');
  });
});
