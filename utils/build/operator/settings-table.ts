/**
 * Every build setting a panel operator chooses, in one table: its key in panel.config.json, its
 * environment variable, its check, its default, its example and what it means. The config file's
 * schema, the environment names, the settings' types and the OPERATORS.md check all derive from it, so
 * a new setting is one entry here (in a group when the file nests it, as `oauth` does).
 *
 * Build-time only (wxt.config.ts and the operator tools): the pages and the worker get the
 * settings' values through `__BUILD_SETTINGS__`, never this module.
 */
import { createPublicKey } from 'node:crypto';
import * as v from 'valibot';
import { hostOf, plainHttpAllowed } from '../../hosts';

type Text = v.GenericSchema<string, string>;

export interface Setting {
  env: `PANEL_${string}`;
  /** Checks a value from the file or the environment (a string either way, trimmed, never empty). */
  schema: Text;
  /** When neither the file nor the environment sets it ('' means none). */
  fallback: string;
  /** Its value in panel.config.example.json. */
  example: string;
  /** OPERATORS.md's "meaning" column, checked against this text's first words. */
  doc: string;
  /** Used by the build itself (wxt.config.ts); never written into the pages or the worker. */
  buildOnly?: true;
  /** In a group: the settings the group needs together (sign-in needs both endpoints and the client id). */
  required?: true;
  /**
   * Required, unless this setting of the group is set, from which the build reads it (the
   * endpoints, from the server's metadata at `oauth.issuer`: oauth-discovery.ts).
   */
  unless?: string;
}

export type SettingGroup = Record<string, Setting>;

/**
 * An https:// address (http:// on localhost or 127.0.0.1, as the options page's address check
 * allows: utils/hosts.ts), without a user name or password, its host written in its canonical form
 * (no trailing dot): the host permission is made from it, and must name the host requests go to.
 */
function webAddress(extra?: (url: URL) => string | null): Text {
  return v.pipe(
    v.string(),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      let url: URL;
      try {
        url = new URL(dataset.value);
      } catch {
        return addIssue({ message: 'is not a web address: write it whole, starting with https://' });
      }
      const canonical = hostOf(url)?.name;
      const problem =
        url.protocol === 'https:' || plainHttpAllowed(url)
          ? url.username || url.password
            ? 'must not hold a user name or password'
            : canonical !== undefined && canonical !== url.hostname
              ? `must write its host as ${canonical}, not ${url.hostname}`
              : (extra?.(url) ?? null)
          : `must start with https:// (plain http:// only for localhost and 127.0.0.1), not "${url.protocol}//"`;
      if (problem) addIssue({ message: problem });
    }),
  );
}

/** The longest name addons.mozilla.org takes (the Chrome Web Store takes 75); every language's description fits it. */
export const PANEL_NAME_MAX = 50;

const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Firefox's own pattern for an add-on id: an e-mail-like name or a GUID in braces. */
const GECKO_ID = /^(?:\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[a-z0-9-._]*@[a-z0-9-._]+)$/i;
/** RFC 6749 §3.3 scope tokens, separated by single spaces. */
const SCOPES = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
/** A Chromium extension id (Chrome's, Edge's): 32 letters a–p, the hex digits of a key's SHA-256 shifted. */
const CHROME_ID = /^[a-p]{32}$/;
/** What an HTTP header and a form field can carry as an OAuth client id: visible ASCII. */
const CLIENT_ID = /^[\x21-\x7e]+$/;

/**
 * The public key of the operator's Chrome Web Store item (Package → View public key), with or
 * without its BEGIN/END lines and line breaks; stored as the one line of base64 the manifest's
 * `key` takes.
 */
const chromeKey: Text = v.pipe(
  v.string(),
  v.check(
    (text) => !/PRIVATE KEY/.test(text),
    'is a private key: never put one in the config; give the public key (npm run ids -- --new-key prints it)',
  ),
  v.transform((text) => text.replace(/-----(?:BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '')),
  v.check((base64) => {
    try {
      return (
        createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyType === 'rsa'
      );
    } catch {
      return false;
    }
  }, 'is not an RSA public key: copy it from the Chrome Web Store dashboard (Package → View public key), or make one with npm run ids -- --new-key'),
);

/**
 * The kinds of personal data a panel's profile questions may ask for, as Mozilla names them in
 * `data_collection_permissions` (utils/build/operator/data-collection.ts says what each covers).
 */
export const PROFILE_DATA_TYPES = [
  'personallyIdentifyingInfo',
  'locationInfo',
  'healthInfo',
  'financialAndPaymentInfo',
] as const;

/** Mozilla data types separated by spaces, personallyIdentifyingInfo among them; stored one space apart. */
const profileData: Text = v.pipe(
  v.string(),
  v.transform((text) => [...new Set(text.split(/[\s,]+/).filter(Boolean))].join(' ')),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const types = dataset.value.split(' ');
    const unknown = types.filter((type) => !(PROFILE_DATA_TYPES as readonly string[]).includes(type));
    if (unknown.length)
      return addIssue({
        message: `names ${unknown.join(', ')}: use Mozilla's data types ${PROFILE_DATA_TYPES.join(', ')}, separated by spaces`,
      });
    if (!types.includes('personallyIdentifyingInfo')) {
      addIssue({
        message:
          "must include personallyIdentifyingInfo: profile answers (name, age, gender, education…) are personal data sent under the panelist's own key",
      });
    }
  }),
);

export const SETTINGS = {
  apiBaseUrl: {
    env: 'PANEL_API_BASE_URL',
    schema: webAddress((url) =>
      url.search || url.hash ? 'must not have a query (?…) or a fragment (#…): endpoint paths are added to it' : null,
    ),
    fallback: '',
    example: 'https://api.acme-panel.example',
    doc: "the panel API; its origin becomes the manifest's only host permission. Without it the panelist enters it (development builds: the sandbox)",
  },
  panelName: {
    env: 'PANEL_NAME',
    schema: v.pipe(
      v.string(),
      v.maxLength(PANEL_NAME_MAX, `is longer than the ${PANEL_NAME_MAX} characters the stores take`),
    ),
    fallback: 'Panel Rewards',
    example: 'Acme Rewards',
    doc: "the extension's name, the pages' title and the stores' listing title",
  },
  brandColor: {
    env: 'PANEL_BRAND_COLOR',
    schema: v.pipe(v.string(), v.regex(COLOUR, 'is not a colour: write it as #rgb or #rrggbb, e.g. #2458d6')),
    fallback: '#2458d6',
    example: '#0b7a75',
    doc: 'accent colour of the pages, as #rgb or #rrggbb',
  },
  balanceVariable: {
    env: 'PANEL_BALANCE_VARIABLE',
    schema: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]+$/, 'is not a variable name: letters, digits, _ and - only')),
    fallback: 'POINTS_BALANCE',
    example: 'POINTS_BALANCE',
    doc: 'stored variable that holds the balance when no response carries it',
  },
  tokenHelpUrl: {
    env: 'PANEL_TOKEN_HELP_URL',
    schema: webAddress(),
    fallback: '',
    example: 'https://www.acme-panel.example/account/personal-key',
    doc: 'the panel\'s page where a panelist finds their key, linked as "Where do I find this?"',
  },
  earnUrl: {
    env: 'PANEL_EARN_URL',
    schema: webAddress(),
    fallback: '',
    example: 'https://www.acme-panel.example/surveys',
    doc: 'the panel\'s page where panelists earn points, linked as "Earn more points" in the popup',
  },
  geckoId: {
    env: 'PANEL_GECKO_ID',
    schema: v.pipe(
      v.string(),
      v.maxLength(80, 'is longer than the 80 characters Firefox takes'),
      v.regex(GECKO_ID, 'is not a Firefox add-on id: use name@your-domain or a {GUID}'),
    ),
    fallback: 'panel-rewards@panelist.example',
    example: 'rewards@acme-panel.example',
    doc: 'Firefox add-on id; its Firefox sign-in redirect URL derives from it, so it never changes once published',
  },
  icon: {
    env: 'PANEL_ICON',
    schema: v.pipe(v.string(), v.regex(/\.(?:svg|png)$/i, 'must be an .svg or a .png file')),
    fallback: '',
    // Empty in the example, which must build as it is copied: the operator names their own file.
    example: '',
    doc: "the extension's icon: an SVG, or a square PNG of at least 128 px, made into every size; without it the project's own (public/icon/)",
    buildOnly: true,
  },
  chromeKey: {
    env: 'PANEL_CHROME_KEY',
    schema: chromeKey,
    fallback: '',
    example: '',
    doc: "the Chrome Web Store item's public key, pinned as the manifest's `key` (left out of the store's zip), so the Chrome id and sign-in redirect URL are known before publishing",
    buildOnly: true,
  },
  chromeBetaId: {
    env: 'PANEL_CHROME_BETA_ID',
    schema: v.pipe(v.string(), v.regex(CHROME_ID, 'is not a Chrome extension id: 32 letters from a to p')),
    fallback: '',
    example: '',
    doc: "the Chrome Web Store id of your trusted testers' item (a second item for betas): its sign-in redirect URL is listed by `npm run ids` and tried by the pre-flight, and a beta release goes to it when CHROME_BETA_EXTENSION_ID is not set",
    buildOnly: true,
  },
  edgeId: {
    env: 'PANEL_EDGE_ID',
    schema: v.pipe(v.string(), v.regex(CHROME_ID, 'is not an Edge extension id: 32 letters from a to p')),
    fallback: '',
    example: '',
    doc: "the Edge Add-ons item's extension id (Partner Center, once the item exists): Edge gives it its own id, whose sign-in redirect URL `npm run ids` lists and the pre-flight tries",
    buildOnly: true,
  },
  privacyPolicyUrl: {
    env: 'PANEL_PRIVACY_POLICY_URL',
    schema: webAddress(),
    fallback: '',
    example: 'https://www.acme-panel.example/privacy/extension',
    doc: "where you published the extension's privacy policy (SUBMIT.md's template, filled in), given to both stores; `npm run preflight` checks that it answers and holds no [bracket] left to fill in",
    buildOnly: true,
  },
  profileData: {
    env: 'PANEL_PROFILE_DATA',
    schema: profileData,
    fallback: 'personallyIdentifyingInfo locationInfo',
    example: 'personallyIdentifyingInfo locationInfo',
    doc: "what the panel's profile questions ask, as Mozilla's data types separated by spaces: personallyIdentifyingInfo (always), and locationInfo (postal code, region), healthInfo, financialAndPaymentInfo (income) where they ask it; declared with the key and the redemptions in the Firefox manifest and SUBMIT.md",
    buildOnly: true,
  },
  oauth: {
    authorizationEndpoint: {
      env: 'PANEL_OAUTH_AUTHORIZATION_ENDPOINT',
      schema: webAddress(),
      fallback: '',
      example: 'https://login.acme-panel.example/oauth/authorize',
      doc: "sign-in: the authorization endpoint (OAuth 2.0 code flow with PKCE); none: the server's metadata names it (`oauth.issuer`)",
      required: true,
      unless: 'issuer',
    },
    tokenEndpoint: {
      env: 'PANEL_OAUTH_TOKEN_ENDPOINT',
      schema: webAddress(),
      fallback: '',
      example: 'https://login.acme-panel.example/oauth/token',
      doc: "sign-in: the token endpoint; its origin becomes a host permission; none: the server's metadata names it (`oauth.issuer`)",
      required: true,
      unless: 'issuer',
    },
    clientId: {
      env: 'PANEL_OAUTH_CLIENT_ID',
      schema: v.pipe(v.string(), v.regex(CLIENT_ID, 'must be visible characters without spaces')),
      fallback: '',
      example: 'acme-rewards-extension',
      doc: "sign-in: the extension's client id (a public client, no secret)",
      required: true,
    },
    scopes: {
      env: 'PANEL_OAUTH_SCOPES',
      schema: v.pipe(v.string(), v.regex(SCOPES, 'must be scope names separated by single spaces')),
      fallback: '',
      example: 'panel offline_access',
      doc: 'sign-in: space-separated scopes; an OpenID provider is also asked `openid` and `offline_access` (none: only those, or no `scope` at a server without metadata)',
    },
    issuer: {
      env: 'PANEL_OAUTH_ISSUER',
      schema: webAddress(),
      fallback: '',
      // Empty in the example, which must build as it is copied: given, the build reads that
      // server's metadata, and a made-up one answers nothing.
      example: '',
      doc: "sign-in: the server's issuer, whose metadata the build reads: the endpoints, what a refresh token needs, `iss` (RFC 9207); a setting it contradicts stops the build. None: the authorization endpoint's origin, and no metadata read",
    },
    revocationEndpoint: {
      env: 'PANEL_OAUTH_REVOCATION_ENDPOINT',
      schema: webAddress(),
      fallback: '',
      example: 'https://login.acme-panel.example/oauth/revoke',
      doc: "sign-in: token revocation (RFC 7009); *Disconnect* revokes the refresh token there; its origin becomes a host permission (none: the server's metadata names it, or tokens are only forgotten in the browser)",
    },
    consentPrompt: {
      env: 'PANEL_OAUTH_CONSENT_PROMPT',
      schema: v.picklist(['send', 'omit'], 'must be send or omit'),
      fallback: '',
      example: '',
      doc: 'sign-in: `omit` sends no `prompt=consent` with `offline_access` to an OpenID provider, for Microsoft Entra ID where users may not consent (AADSTS90094: Entra issues refresh tokens without it); none: `send`, which the OpenID standard asks for and oidc-provider needs',
    },
    tabRedirectUrl: {
      env: 'PANEL_OAUTH_TAB_REDIRECT_URL',
      schema: webAddress((url) =>
        url.search || url.hash
          ? 'must not have a query (?…) or a fragment (#…): the server adds the answer to it'
          : null,
      ),
      fallback: '',
      example: 'https://api.acme-panel.example/extension-sign-in-done',
      doc: "sign-in in a tab, where the browser has no sign-in window (Firefox for Android): the address on `apiBaseUrl`'s origin the server sends the panelist back to, registered as a redirect URL (none: `<apiBaseUrl's origin>/extension-sign-in-done`)",
    },
  },
} as const satisfies Record<string, Setting | SettingGroup>;

type Table = typeof SETTINGS;

/** Every setting's value (a string; '' for none). */
export type PanelSettings = {
  -readonly [K in keyof Table]: Table[K] extends Setting ? string : { -readonly [J in keyof Table[K]]: string };
};

/** What the pages and the worker receive: the settings that are not build-only. */
export type RuntimeSettings = {
  -readonly [K in keyof Table as Table[K] extends { buildOnly: true } ? never : K]: PanelSettings[K];
};

/** One row of the table, named by its path in the file (`brandColor`, `oauth.tokenEndpoint`). */
export interface SettingRow {
  path: string;
  group: string | null;
  key: string;
  setting: Setting;
}

function isSetting(entry: Setting | SettingGroup): entry is Setting {
  return typeof (entry as Setting).env === 'string';
}

/** The table as a flat list, in its order. */
export const SETTING_ROWS: readonly SettingRow[] = Object.entries(
  SETTINGS as Record<string, Setting | SettingGroup>,
).flatMap(([key, entry]): SettingRow[] =>
  isSetting(entry)
    ? [{ path: key, group: null, key, setting: entry }]
    : Object.entries(entry).map(([inner, setting]) => ({ path: `${key}.${inner}`, group: key, key: inner, setting })),
);

/** The groups (`oauth`) and the top-level settings, by key. */
export const GROUPS: readonly string[] = [...new Set(SETTING_ROWS.flatMap((row) => (row.group ? [row.group] : [])))];

/** The row of the README's "Build settings" table for a setting (the docs check: tests/unit/settings-docs.test.ts). */
export function readmeRow(row: SettingRow): string {
  const fallback = row.setting.fallback ? `\`${row.setting.fallback}\`` : 'none';
  return `| \`${row.path}\` | \`${row.setting.env}\` | ${fallback} | ${row.setting.doc} |`;
}
