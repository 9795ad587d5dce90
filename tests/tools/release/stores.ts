/**
 * The stores a release goes to through `wxt submit` (WXT's alias of publish-browser-extension):
 * the Chrome Web Store, addons.mozilla.org and Edge Add-ons. Their secrets come from the
 * environment (a CI job's secrets, or `.env.submit`, which `wxt submit init` writes and git
 * ignores), under the names publish-browser-extension reads.
 *
 * Each store's options are checked here, offline, with publish-browser-extension's own
 * `resolveConfig` and `validateConfig`: `wxt submit --dry-run` checks the secrets by calling the
 * Chrome Web Store and addons.mozilla.org, so the release's default dry run does not run it.
 */
import { resolveConfig, validateConfig } from 'publish-browser-extension';

export const STORES = ['chrome', 'firefox', 'edge'] as const;
export type Store = (typeof STORES)[number];

export const STORE_NAMES: Record<Store, string> = {
  chrome: 'Chrome Web Store',
  firefox: 'addons.mozilla.org',
  edge: 'Edge Add-ons',
};

/** The secrets that say a store is set up for this project (any one of them). */
const SECRETS: Record<Store, string[]> = {
  chrome: ['CHROME_EXTENSION_ID', 'CHROME_PUBLISHER_ID', 'CHROME_CLIENT_ID', 'CHROME_SERVICE_ACCOUNT_CLIENT_EMAIL'],
  firefox: ['FIREFOX_JWT_ISSUER', 'FIREFOX_JWT_SECRET'],
  edge: ['EDGE_PRODUCT_ID', 'EDGE_CLIENT_ID', 'EDGE_API_KEY'],
};

export type Channel = 'stable' | 'beta';

export interface StorePlan {
  store: Store;
  /** The zips, as `wxt submit` flags. */
  flags: string[];
  /** What this release sets for the store, besides the secrets. */
  env: Record<string, string>;
  /** Why `wxt submit` would refuse the store's options, each naming the variable to set; [] when ready. */
  problems: string[];
  /** Said of the store in the notes (the channel, the rollout). */
  notes: string[];
}

type Env = Record<string, string | undefined>;
type Zips = { chrome: string; firefox: string; sources: string };

/** Whether any of the store's secrets is set: a store the operator set up. */
export const configured = (store: Store, env: Env) => SECRETS[store].some((name) => !!env[name]?.trim());

/** `chrome.extensionId` → CHROME_EXTENSION_ID, the variable publish-browser-extension reads for it. */
const variableOf = (path: string) =>
  path
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .replace('.', '_')
    .toUpperCase();

/** The store's options as `wxt submit` would take them from this environment; problems when it would refuse them. */
function check(store: Store, zip: Record<string, string>, env: Env): string[] {
  const saved = { ...process.env };
  try {
    for (const name of Object.keys(process.env))
      if (/^(CHROME|FIREFOX|EDGE|OPERA)_/.test(name)) delete process.env[name];
    Object.assign(process.env, env);
    validateConfig(resolveConfig({ [store]: zip }));
    return [];
  } catch (error) {
    const lines = (error as Error).message.split('\n').slice(1);
    return lines.map((line) => {
      const path = /`([^`]+)`/.exec(line)?.[1] ?? '';
      return path ? `${variableOf(path)} (${path}): ${line.split(': ').slice(1).join(': ')}` : line.trim();
    });
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}

/** The Chrome Web Store API v1.1's secrets, which `wxt submit init` may still write. */
const CHROME_V1_SECRETS = ['CHROME_CLIENT_ID', 'CHROME_CLIENT_SECRET', 'CHROME_REFRESH_TOKEN'];
const CHROME_V2_SECRETS = [
  'CHROME_PUBLISHER_ID',
  'CHROME_SERVICE_ACCOUNT_CLIENT_EMAIL',
  'CHROME_SERVICE_ACCOUNT_PRIVATE_KEY',
];

/**
 * What to do when the Chrome Web Store API v2's secrets are missing: where they come from, and,
 * when API v1.1's are there instead, that those no longer do (publish-browser-extension 5 marks
 * v1.1 as shut down on 15 October 2026, and this release sends CHROME_API_VERSION=v2).
 */
function chromeApiHint(env: Env): string[] {
  const missing = CHROME_V2_SECRETS.filter((name) => !env[name]?.trim());
  if (missing.length === 0) return [];
  const v1 = CHROME_V1_SECRETS.filter((name) => env[name]?.trim());
  const make =
    'make a service account for the Chrome Web Store API v2 (Google Cloud: a service account with a JSON key; the Chrome Web Store dashboard: Account → its e-mail added), then set CHROME_API_VERSION=v2, CHROME_PUBLISHER_ID (the dashboard’s publisher id), CHROME_SERVICE_ACCOUNT_CLIENT_EMAIL and CHROME_SERVICE_ACCOUNT_PRIVATE_KEY (OPERATORS.md, “Releases”)';
  return [
    v1.length
      ? `${v1.join(', ')} ${v1.length === 1 ? 'is' : 'are'} the Chrome Web Store API v1.1's (what \`wxt submit init\` may write), which was shut down on 15 October 2026: ${make}`
      : `the Chrome Web Store API v2's secrets are missing (${missing.join(', ')}): ${make}`,
  ];
}

export interface PlanInput {
  zips: Zips;
  env: Env;
  stores: Store[];
  channel: Channel;
  /** Chrome: the share of users a staged release reaches first (1–100); null: everyone. */
  rollout: number | null;
  /** The Firefox add-on id (the build's geckoId), unless FIREFOX_EXTENSION_ID names it. */
  geckoId: string;
  /** The trusted testers' Chrome item (the build's chromeBetaId), unless CHROME_BETA_EXTENSION_ID names it. */
  chromeBetaId?: string;
}

export function plan(input: PlanInput): StorePlan[] {
  const { zips, env, channel, rollout } = input;
  return input.stores.map((store): StorePlan => {
    const own: Record<string, string> = {};
    const notes: string[] = [];
    if (store === 'firefox') {
      own.FIREFOX_EXTENSION_ID = env.FIREFOX_EXTENSION_ID || input.geckoId;
      // Listed on Firefox for Android too (the manifest's gecko_android), unless the operator says otherwise.
      own.FIREFOX_COMPATIBILITY = env.FIREFOX_COMPATIBILITY || 'firefox,android';
      own.FIREFOX_CHANNEL = channel === 'beta' ? 'unlisted' : env.FIREFOX_CHANNEL || 'listed';
      notes.push(
        own.FIREFOX_CHANNEL === 'unlisted'
          ? 'unlisted: signed by Mozilla for your beta testers to install from a link, not listed on addons.mozilla.org'
          : 'listed: reviewed, then offered to every panelist on addons.mozilla.org',
      );
    }
    if (store === 'chrome') {
      if (channel === 'beta') {
        // The trusted testers' item: its own id, its visibility set to trusted testers in the dashboard.
        const testers = env.CHROME_BETA_EXTENSION_ID || input.chromeBetaId;
        if (testers) own.CHROME_EXTENSION_ID = testers;
        notes.push(
          'beta: to the trusted testers’ item (CHROME_BETA_EXTENSION_ID), whose visibility is “Private: trusted testers”',
        );
      }
      if (rollout !== null) {
        own.CHROME_DEPLOY_PERCENTAGE = String(rollout);
        notes.push(
          `staged: published to ${rollout} % of users first (raise it with npm run release -- --raise-rollout <percent>)`,
        );
      }
    }
    const zip: Record<string, string> =
      store === 'firefox' ? { zip: zips.firefox, sourcesZip: zips.sources } : { zip: zips.chrome };
    const flags =
      store === 'firefox'
        ? ['--firefox-zip', zips.firefox, '--firefox-sources-zip', zips.sources]
        : [`--${store}-zip`, zips.chrome];
    const problems = [...check(store, zip, { ...env, ...own }), ...(store === 'chrome' ? chromeApiHint(env) : [])];
    if (channel === 'beta' && store === 'chrome' && !env.CHROME_BETA_EXTENSION_ID && !input.chromeBetaId)
      problems.push(
        'CHROME_BETA_EXTENSION_ID (or chromeBetaId): not set; a beta goes to a separate trusted testers’ item, never the public one',
      );
    if (channel === 'beta' && store === 'edge')
      problems.push('Edge Add-ons has no beta channel in its API: leave it out of a beta (--stores chrome,firefox)');
    if (rollout !== null && store === 'chrome' && (env.CHROME_API_VERSION ?? '') !== 'v2')
      problems.push(
        'CHROME_API_VERSION must be v2 for a staged rollout (the deploy percentage is a Chrome Web Store API v2 option)',
      );
    return { store, flags, env: own, problems, notes };
  });
}

/**
 * The stores a release goes to: those named, else those whose secrets are set; a beta leaves Edge
 * Add-ons out unless named (it has no beta channel), and says so.
 */
export function chosenStores(
  named: string | undefined,
  env: Env,
  channel: Channel = 'stable',
): { stores: Store[]; problems: string[]; left?: string } {
  if (named === undefined) {
    const set = STORES.filter((store) => configured(store, env));
    if (channel !== 'beta' || !set.includes('edge')) return { stores: set, problems: [] };
    return {
      stores: set.filter((store) => store !== 'edge'),
      problems: [],
      left: 'Edge Add-ons is left out of the beta: it has no beta channel',
    };
  }
  const stores = named
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = stores.filter((s) => !(STORES as readonly string[]).includes(s));
  return {
    stores: stores.filter((s): s is Store => (STORES as readonly string[]).includes(s)),
    problems: unknown.map((s) => `--stores: "${s}" is not a store (${STORES.join(', ')})`),
  };
}
