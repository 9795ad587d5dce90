/**
 * SUBMIT.md of `npm run store`: what goes where in each of the three stores (the Chrome Web Store,
 * addons.mozilla.org, Edge Add-ons), the privacy answers they ask for,
 * and a privacy policy for the operator to fill in. The data declared here is
 * what the Firefox manifest declares (`data_collection_permissions`): both come from one list,
 * utils/build/operator/data-collection.ts, and tests/unit/store-declarations.test.ts checks they match.
 */
import { relative } from 'node:path';
import { signInConfigured } from '../../../utils/build-settings';
import {
  CHROME_DATA_CATEGORIES,
  DATA_TYPE_NAMES,
  declaredData,
  firefoxDataCollection,
  type DeclaredData,
} from '../../../utils/build/operator/data-collection';
import { extensionIds } from '../../../utils/build/operator/extension-ids';
import { manifestPermissions } from '../../../utils/build/operator/manifest-permissions';
import type { ResolvedSettings } from '../../../utils/build/operator/panel-config';
import { thirdPartySentence, type Listing } from '../../../utils/build/operator/store-listing';

export interface SubmitInput {
  settings: ResolvedSettings;
  version: string;
  /** Where SUBMIT.md is written; the paths below are named from there. */
  outDir: string;
  root: string;
  files: Record<'chrome' | 'firefox' | 'sources', string>;
  storeIcon: string;
  /** Edge Add-ons' store logo and its size (300 px where the icon allows). */
  edgeLogo: { path: string; size: number };
  /** The Chrome Web Store's 440×280 small promo tile. */
  promoTile: string;
  listings: Listing[];
  shots: string[];
  /** What the sources zip holds, as describeSources() words it. */
  sources: string[];
}

/** The heading of SUBMIT.md's Chrome Web Store privacy answers; the declarations test reads the ticked boxes under it. */
export const CHROME_DATA_HEADING = 'What user data do you plan to collect from users now or in the future?';

/** Chrome's three certifications (Privacy practices → Data usage), each true of this extension. */
export const CHROME_CERTIFICATIONS = [
  [
    'I do not sell or transfer user data to third parties, outside of the approved use cases',
    "the data goes to your own panel only, to run the panelist's account",
  ],
  [
    "I do not use or transfer user data for purposes that are unrelated to my item's single purpose",
    "it is used to show and run the panelist's account: balance, rewards, redemptions, profile",
  ],
  [
    'I do not use or transfer user data to determine creditworthiness or for lending purposes',
    'nothing in it is used for that',
  ],
] as const;

/** Where the data goes, in a sentence's words. */
function destinations(settings: ResolvedSettings): string {
  const api = settings.apiBaseUrl
    ? `the panel's API at ${new URL(settings.apiBaseUrl).origin}`
    : "the panel's API, at the address the panelist enters on the options page";
  const signIn = signInConfigured(settings)
    ? [settings.oauth.tokenEndpoint, settings.oauth.revocationEndpoint]
        .filter(Boolean)
        .map((url) => new URL(url).origin)
    : [];
  return signIn.length ? `${api}, and the sign-in server at ${[...new Set(signIn)].join(', ')}` : api;
}

/** What the notes for addons.mozilla.org's reviewers say the build sends, and to whom: true for this build. */
function reviewerData(settings: ResolvedSettings): string {
  const what = signInConfigured(settings)
    ? "the panelist's sign-in (the OAuth tokens, or a personal key they paste instead), profile answers and redemptions"
    : "the panelist's personal key, profile answers and redemptions";
  return `The add-on sends ${what} to ${destinations(settings)} only, our own service (declared in data_collection_permissions).`;
}

/**
 * The Chrome id and redirect URL, with what decides them: the store gives every item its own id,
 * and the zip it takes leaves the manifest's key out, so the id from chromeKey is the store's only
 * when chromeKey is the store item's own public key.
 */
function chromeIdNotes(settings: ResolvedSettings): string {
  const ids = extensionIds(settings);
  const signIn = signInConfigured(settings);
  if (!ids.chrome)
    return (
      'No chromeKey, so the Chrome id is not known yet: the Chrome Web Store gives the item its own id on the first\n' +
      "upload. Then copy the item's public key (Package → View public key) into panel.config.json as chromeKey,\n" +
      `and run \`npm run ids\`${signIn ? ' for the sign-in redirect URL to register' : ''} and \`npm run store\` again.\n`
    );
  return (
    `Chrome id from chromeKey: ${ids.chrome.id}${signIn ? `; sign-in redirect URL: ${ids.chrome.redirectUrl}` : ''}.\n` +
    'The Chrome Web Store gives each item its own id, and this zip leaves the key out (the store refuses it), so\n' +
    "this is the store's id only if chromeKey is your store item's public key (Package → View public key). A key\n" +
    'you made yourself (`npm run ids -- --new-key`) fixes the id of unpacked and self-hosted installs only: the store\n' +
    `item keeps its own id${signIn ? ", and the redirect URL to register is https://<the item's id>.chromiumapp.org/" : ''}.\n`
  );
}

/**
 * The notes for addons.mozilla.org's reviewers: how to rebuild the add-on from the sources zip, and
 * what it sends to whom, true for this build. SUBMIT.md shows them for the first version;
 * `npm run release` sends them with every later one (its `approval_notes`).
 */
export function reviewerNotes(settings: ResolvedSettings, sources?: readonly string[]): string {
  const build =
    'Build with Node 20 or later: npm ci && npx wxt build -b firefox gives\n.output/firefox-mv2/, the add-on as uploaded. panel.config.json holds the build settings.';
  const notes = `${build}\n${reviewerData(settings)} ${thirdPartySentence()} No remote code: every script is in the package.`;
  return sources ? `${notes}\nThe sources zip holds only: ${sources.join('; ')}.` : notes;
}

/** Firefox for Android: the compatibility step on addons.mozilla.org, its sign-in redirect, what only a device shows. */
function androidNotes(settings: ResolvedSettings): string {
  const ids = extensionIds(settings);
  const signIn = ids.tab
    ? `Sign-in there goes through a tab (Firefox for Android has no sign-in window): register\n   ${ids.tab.redirectUrl} (oauth.tabRedirectUrl) with your OAuth server as well, a page of your panel's site that\n   answers 200.`
    : 'This build has no sign-in: panelists connect with their personal key, as on the desktop.';
  return `## Firefox for Android

1. On addons.mozilla.org, when you upload the version, tick *Firefox for Android* under compatibility
   (the manifest asks for Firefox for Android 142 or later, \`gecko_android.strict_min_version\`);
   \`npm run release\` passes \`FIREFOX_COMPATIBILITY=firefox,android\` to \`wxt submit\` for the same.
2. ${signIn}
3. On a real Android device, before you publish: install the add-on from its addons.mozilla.org page
   in Firefox for Android, open it from the menu (Extensions), connect${ids.tab ? ' and sign in through the tab' : ' with a test key'},
   redeem a cheap reward, answer a profile question with the on-screen keyboard, use Android's back
   button, turn the system font size up, and switch apps in the middle of connecting. The browser
   tests run desktop Firefox without the sign-in window; only a device shows these.
`;
}

/**
 * Microsoft Edge Add-ons (Partner Center): the Chrome zip as it is, a listing and a logo for every
 * language in the package (Edge asks for each), the privacy answer, and notes for certification:
 * Edge's testers need a way in to test the extension, which only the operator can give them.
 */
function edgeNotes(input: SubmitInput): string {
  const { settings, outDir, files, listings } = input;
  const ids = extensionIds(settings);
  const rel = (path: string) => relative(outDir, path);
  const signIn = signInConfigured(settings);
  const logo =
    input.edgeLogo.size >= 300
      ? `\`${rel(input.edgeLogo.path)}\` (300×300)`
      : `\`${rel(input.edgeLogo.path)}\` (${input.edgeLogo.size}×${input.edgeLogo.size}: Edge recommends 300×300; give \`icon\` an SVG, or a PNG of 300 px or more, for one)`;
  const item = ids.edge
    ? `Edge id from edgeId: ${ids.edge.id}${signIn ? `; sign-in redirect URL: ${ids.edge.redirectUrl}` : ''}.`
    : `Edge gives the item its own id (Partner Center → the extension's overview, once it exists): set it as \`edgeId\`${signIn ? `, and register https://<that id>.chromiumapp.org/ with your OAuth server (\`npm run ids\` prints it)` : ''}.`;
  return `
## Microsoft Edge Add-ons (https://partner.microsoft.com/dashboard/microsoftedge/)

Edge runs the Chrome build unchanged, so it takes the Chrome zip.

1. Create new extension → Packages: upload \`${rel(files.chrome)}\`.
2. Availability: Public (or Hidden, reached by its link only), and the markets your panel serves.
3. Properties: a category; "Does your extension access, collect or transmit personal information?":
   **Yes** (what is sent, and to whom, is in "What the extension sends" above); Privacy policy URL:
   ${settings.privacyPolicyUrl || 'the address of the policy below once published (set it as privacyPolicyUrl)'};
   your panel's site and a support contact.
4. Store listings: Edge asks for one in every language the package has (${listings.map((l) => l.locale).join(', ')}):
   the description from \`listing/<language>.txt\` (Edge takes less than 10,000 characters; the short
   description is the manifest's, as on Chrome), the store logo ${logo}, the small promotional tile
   \`${rel(input.promoTile)}\` (440×280), and the screenshots from \`screenshots/<language>/\` (1280×800; at most 10).
5. Notes for certification: Edge's testers must get in to test it. Fill in and paste:
   "${signIn ? 'Sign in with the test account [E-MAIL] / [PASSWORD], or connect' : 'Connect'} on the options page with the test
   panelist's personal key [KEY]${settings.apiBaseUrl ? '' : ' and the panel address [API ADDRESS]'}. The popup then shows its balance and the
   rewards. Redeeming spends the test account's points: [WHICH REWARD THEY MAY REDEEM, OR "please do not redeem"]."
   Give a key of a test panelist only, never a real one.
6. Later versions: \`npm run release\` submits the Chrome zip to Edge with the Publish API's secrets
   (Partner Center → Publish API: EDGE_CLIENT_ID, EDGE_API_KEY, and the item's EDGE_PRODUCT_ID). It
   sends no notes for certification (\`wxt submit\` sends none): should an update need new ones, submit
   it from Partner Center instead. Edge has no beta channel.

${item}
`;
}

/** Why the Chrome build asks for each permission, for the Privacy practices tab. */
function permissionJustifications(settings: ResolvedSettings): string[] {
  const chrome = manifestPermissions(settings, 3);
  const why: Record<string, string> = {
    storage:
      "keeps the panelist's key, the last rewards, balance, history and profile the panel sent, and their preferences, so the popup shows them at once",
    alarms:
      "refreshes the balance and rewards in the background and checks a redemption's outcome later, as the panelist chose in the preferences",
    idle: 'lets that refresh rest while the computer is locked or unused',
    identity: 'optional, asked for when the panelist presses "Sign in": opens the panel\'s sign-in page (OAuth 2.0)',
    declarativeNetRequestWithHostAccess:
      "removes the extension's own Origin header from its requests to the panel's sign-in server (the token exchange, its renewal and revocation), which refuses an origin it cannot know in advance; no other request is touched",
    notifications:
      'optional, asked for when the panelist turns notifications on: tells them when a redemption is done or a goal is near',
  };
  const lines = [...chrome.permissions, ...chrome.optional_permissions].map(
    (name) => `     - \`${name}\`: ${why[name] ?? ''}`,
  );
  if (chrome.host_permissions.length) {
    lines.push(
      `     - Host permissions (${chrome.host_permissions.map((h) => `\`${h}\``).join(', ')}): the panel's API${signInConfigured(settings) ? ' and sign-in server' : ''}, the only servers the extension calls`,
    );
  }
  // A build for an https panel asks for none (utils/base-url.ts): then there is nothing to justify.
  if (chrome.optional_host_permissions.length)
    lines.push(
      `     - Optional host permissions (${chrome.optional_host_permissions.map((h) => `\`${h}\``).join(', ')}): asked for on Connect, for the panel address the panelist enters` +
        (settings.apiBaseUrl ? " when it is a panel's test server on this computer" : ' (the build names no panel)') +
        ', and given back on Disconnect',
    );
  return lines;
}

function declarationTable(items: DeclaredData[]): string {
  return [
    '| Firefox (`data_collection_permissions`) | Chrome Web Store | what is sent, to whom, when |',
    '|---|---|---|',
    ...items.map(
      (item) =>
        `| ${DATA_TYPE_NAMES[item.type].firefox} (\`${item.type}\`) | ${DATA_TYPE_NAMES[item.type].chrome} | ${item.what} |`,
    ),
  ].join('\n');
}

/** The privacy policy the operator fills in and publishes: what is sent, to whom, what stays on the device, how to remove it. */
export function privacyPolicyTemplate(settings: ResolvedSettings): string {
  const name = settings.panelName;
  const signIn = signInConfigured(settings);
  const revokes = signIn && settings.oauth.revocationEndpoint;
  return `# Privacy policy of the ${name} browser extension

Last updated: [DATE]

The ${name} browser extension is published by [YOUR ORGANISATION'S LEGAL NAME AND ADDRESS] ("we"),
who run the ${name} panel. It shows members of the panel their points, the rewards they can
redeem, their redemptions and their profile, and lets them redeem rewards and update their profile.

## What the extension sends, and to whom

The extension sends data only to our panel: ${destinations(settings).replace('the panelist enters on the options page', 'you enter on the options page')}. It sends:

${declaredData(settings)
  .map((item) => `- ${DATA_TYPE_NAMES[item.type].chrome}: ${item.toPanelist}.`)
  .join('\n')}

${thirdPartySentence()} The catalogue's pictures are on [YOUR IMAGE HOSTS, e.g.
images.your-panel.example]. The extension sends no analytics or crash reports, and does not read
the pages you visit, your browsing history or anything else in your browser. Links open only when
you click them.

## What we do with it

We use it to run your panel account: to show your balance, the rewards and your history, to carry
out the redemptions you ask for, and to keep your profile so we can invite you to surveys that
match it, as [YOUR PANEL'S PRIVACY POLICY, with its address] describes. We do not sell it, and we
do not use it to decide creditworthiness or for lending. [ANY OTHER USE, THE SERVICE PROVIDERS THAT
PROCESS IT FOR YOU, THE LEGAL BASIS AND HOW LONG YOU KEEP IT, AS YOUR PANEL'S POLICY STATES.]

## What is stored on your device

In the browser's storage for this extension, on your device only:

- your personal key${signIn ? ' (or, when you sign in, the access and refresh tokens)' : ''} and the panel's address;
- a copy of what the panel last sent: the rewards and your balance, your redemption history, the
  profile questions and your answers, and profile edits not yet saved;
- your goal, a record of your balance over time (for the chart), and the redemptions still being
  confirmed with the panel;
- your preferences (the badge, how often to refresh, which notifications you want).

The extension does not encrypt it beyond what your browser does; other extensions and websites
cannot read it.

## How to remove it

- **Disconnect** (on the extension's options page) deletes your key${signIn ? ' or sign-in' : ''} and everything stored for your
  account from your browser${revokes ? ', and revokes the sign-in at our sign-in server' : ''}. Your preferences stay until you uninstall.
- **Uninstalling** the extension deletes everything it stored in your browser.
- What you sent to the panel (your profile answers, your redemptions) is kept by us as
  [YOUR PANEL'S PRIVACY POLICY] says. To see, correct or delete it: [YOUR ACCOUNT PAGE OR CONTACT].

## Contact

[YOUR PRIVACY CONTACT: E-MAIL ADDRESS]
`;
}

export function submitNotes(input: SubmitInput): string {
  const { settings, outDir, files, listings, shots } = input;
  const ids = extensionIds(settings);
  const rel = (path: string) => relative(outDir, path);
  const items = declaredData(settings);
  const collected = new Set<string>(items.map((item) => DATA_TYPE_NAMES[item.type].chrome));
  return `# Submitting ${settings.panelName} ${input.version}

Made by \`npm run store\` from ${settings.configFile ? relative(input.root, settings.configFile) : 'the defaults (no panel.config.json)'}.

## First: your privacy policy

Both stores need one, because the extension sends personal data to your panel. Fill in the
template at the end of this file ([brackets]), publish it at a public address of yours, and give
that address to both stores below.

## What the extension sends (both stores declare the same)

It sends data only to ${destinations(settings)}: your own service, which both stores count as
collection. ${thirdPartySentence()}

${declarationTable(items)}

The Firefox manifest declares exactly these as \`data_collection_permissions.required\`
(\`${JSON.stringify(firefoxDataCollection(settings).required)}\`): Firefox shows them when the add-on is installed, and
the panelist must agree to install it.

## Chrome Web Store (https://chrome.google.com/webstore/devconsole)

1. Upload \`${rel(files.chrome)}\` (its manifest leaves out \`key\`, which the store refuses).
2. Store listing, per language: title, summary and description from \`listing/<language>.txt\`;
   screenshots from \`screenshots/<language>/\`; the store icon \`${rel(input.storeIcon)}\` (96 px artwork with 16 px of transparent padding);
   the small promo tile \`${rel(input.promoTile)}\` (440×280, Store listing → Graphic assets).
3. Privacy practices:
   - Single purpose: "Shows members of the ${settings.panelName} panel their points, rewards, redemptions and profile, and lets them redeem rewards and update their profile."
   - Permission justifications:
${permissionJustifications(settings).join('\n')}
   - Remote code: "No, I am not using remote code." (all of its code is in the package; its pages allow scripts from the extension only)
   - Data usage. ${CHROME_DATA_HEADING}
${CHROME_DATA_CATEGORIES.map((category) => `     - [${collected.has(category) ? 'x' : ' '}] ${category}`).join('\n')}
   - Tick all three certifications; each is true of this extension:
${CHROME_CERTIFICATIONS.map(([text, why]) => `     - [x] ${text} (${why})`).join('\n')}
   - Privacy policy URL: ${settings.privacyPolicyUrl || 'the address where you published the policy below (set it as privacyPolicyUrl, and `npm run preflight` checks it answers)'}.

${chromeIdNotes(settings)}
## addons.mozilla.org (https://addons.mozilla.org/developers/)

1. Upload \`${rel(files.firefox)}\`; when asked for source code, \`${rel(files.sources)}\`.
2. Notes for reviewers (\`npm run release\` sends them as the version's approval notes):
   "${reviewerNotes(settings).replace(/\n/g, '\n   ')}"
   The sources zip holds only:
${input.sources.map((line) => `   - ${line}`).join('\n')}
3. Listing: as for Chrome, from \`listing/<language>.txt\` and \`screenshots/<language>/\`.
4. Privacy policy: paste the filled-in policy below into the add-on's Privacy Policy (on its listing's
   edit page), or link the published one.

Firefox id: ${ids.firefox.id}${signInConfigured(settings) ? `; sign-in redirect URL: ${ids.firefox.redirectUrl}` : ''}

${androidNotes(settings)}
${edgeNotes(input)}
## Languages

${listings.map((l) => `- ${l.locale}: ${l.title} — ${l.summary}`).join('\n')}

## Screenshots (1280×800)

${shots.map((path) => `- ${rel(path)}`).join('\n')}

## Privacy policy (template: fill in the [brackets], then publish it)

~~~markdown
${privacyPolicyTemplate(settings)}~~~
`;
}
