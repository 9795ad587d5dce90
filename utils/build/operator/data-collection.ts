/**
 * What the extension transmits, declared the same way to both stores, so neither listing can say less than the other: the
 * Firefox manifest's `browser_specific_settings.gecko.data_collection_permissions` (Mozilla's
 * built-in consent, shown at install) and the Chrome Web Store's privacy practices (SUBMIT.md,
 * `npm run store`). Both are made from this one list, built from the panel's settings.
 *
 * "Collection" in both stores' terms includes sending data to the developer's own service: the
 * operator's panel API and sign-in server count, even though nothing goes to anyone else
 * (SECURITY.md, "What leaves the browser").
 */
import { signInConfigured } from '../../build-settings';
import type { ResolvedSettings } from './panel-config';
import { PROFILE_DATA_TYPES } from './settings-table';

/** Mozilla's data types this extension may declare (addons-linter's `DataCollectionPermission`). */
export type DataType = 'authenticationInfo' | (typeof PROFILE_DATA_TYPES)[number];

/** The Chrome Web Store's user-data categories, in its form's order (Privacy practices → Data usage). */
export const CHROME_DATA_CATEGORIES = [
  'Personally identifiable information',
  'Health information',
  'Financial and payment information',
  'Authentication information',
  'Personal communications',
  'Location',
  'Web history',
  'User activity',
  'Website content',
] as const;

/** Each type's name in the Firefox install prompt and in the Chrome Web Store's privacy form. */
export const DATA_TYPE_NAMES: Record<DataType, { firefox: string; chrome: (typeof CHROME_DATA_CATEGORIES)[number] }> = {
  authenticationInfo: { firefox: 'Authentication information', chrome: 'Authentication information' },
  personallyIdentifyingInfo: {
    firefox: 'Personally identifying information',
    chrome: 'Personally identifiable information',
  },
  financialAndPaymentInfo: {
    firefox: 'Financial and payment information',
    chrome: 'Financial and payment information',
  },
  locationInfo: { firefox: 'Location', chrome: 'Location' },
  healthInfo: { firefox: 'Health information', chrome: 'Health information' },
};

/** The order the declarations list the types in. */
const ORDER: readonly DataType[] = [
  'authenticationInfo',
  'personallyIdentifyingInfo',
  'financialAndPaymentInfo',
  'locationInfo',
  'healthInfo',
];

export interface DeclaredData {
  type: DataType;
  /** What is sent, to where, and when, in words a store's reviewer can check against the code. */
  what: string;
  /** The same, told to the panelist (the privacy policy). */
  toPanelist: string;
}

type Settings = Pick<ResolvedSettings, 'apiBaseUrl' | 'oauth' | 'profileData'>;

/** Where the panel's API is, as the declarations name it. */
function panelApi(settings: Settings, who: 'the panelist' | 'you'): string {
  return settings.apiBaseUrl
    ? `the panel's API (${new URL(settings.apiBaseUrl).origin})`
    : `the panel's API (at the address ${who} ${who === 'you' ? 'enter' : 'enters'})`;
}

/**
 * Everything the extension transmits, by data type: the panelist's key (or sign-in) always, their
 * redemptions always, and their profile answers as the panel's questions ask (`profileData`).
 */
export function declaredData(settings: Settings): DeclaredData[] {
  const api = panelApi(settings, 'the panelist');
  const yours = panelApi(settings, 'you');
  const profile = settings.profileData.split(' ').filter(Boolean);
  const signIn = signInConfigured(settings);
  const tokenOrigins = [settings.oauth.tokenEndpoint, settings.oauth.revocationEndpoint]
    .filter(Boolean)
    .map((url) => new URL(url).origin);
  const signInServer = `the sign-in server (${[...new Set(tokenOrigins)].join(', ')})`;
  const revokes = signIn && settings.oauth.revocationEndpoint;
  const items: Record<DataType, [what: string, toPanelist: string]> = {
    authenticationInfo: [
      `the panelist's personal key (the panel's API token), pasted on the options page and sent with every request to ${api}` +
        (signIn
          ? `; with sign-in, the access token sent the same way, and the authorization code, PKCE code verifier and refresh token sent to ${signInServer} to get and renew it` +
            (revokes ? ', and to revoke it on Disconnect' : '')
          : ''),
      `your personal key, which you paste on the options page, sent with every request to ${yours}` +
        (signIn
          ? `; when you sign in instead, the access token, sent the same way, and the sign-in's authorization code, code verifier and refresh token, sent to ${signInServer} to get and renew it` +
            (revokes ? ' and to end it when you disconnect' : '')
          : ''),
    ],
    personallyIdentifyingInfo: [
      `the profile answers the panelist enters, changes or removes (such as name, birth date, gender, education), sent to ${api} when saved`,
      `the profile answers you enter, change or remove (such as your name, date of birth, gender or education), sent to ${yours} when you save them`,
    ],
    financialAndPaymentInfo: [
      `the panelist's redemptions: the reward they choose to redeem for their points, sent to ${api}, which deducts the points and records it ` +
        '(the history of redemptions and the balance are read from it)' +
        (profile.includes('financialAndPaymentInfo')
          ? '; and the profile answers about finances (such as income) the panel asks for, sent when saved'
          : ''),
      `your redemptions: the reward you choose to redeem with your points, sent to ${yours}, which deducts the points and records the redemption` +
        (profile.includes('financialAndPaymentInfo')
          ? '; and the profile answers about your finances (such as income) the panel asks for, sent when you save them'
          : ''),
    ],
    locationInfo: [
      `the profile answers about where the panelist lives (such as postal code, region, country), sent to ${api} when saved`,
      `the profile answers about where you live (such as postal code, region or country), sent to ${yours} when you save them`,
    ],
    healthInfo: [
      `the profile answers about health the panel asks for, sent to ${api} when saved`,
      `the profile answers about your health the panel asks for, sent to ${yours} when you save them`,
    ],
  };
  const types = new Set<DataType>([
    'authenticationInfo',
    'personallyIdentifyingInfo',
    'financialAndPaymentInfo',
    ...(profile as DataType[]),
  ]);
  return ORDER.filter((type) => types.has(type)).map((type) => ({
    type,
    what: items[type][0],
    toPanelist: items[type][1],
  }));
}

/** The Firefox manifest's `data_collection_permissions`: all of it required, since the extension cannot work without it. */
export function firefoxDataCollection(settings: Settings): { required: DataType[] } {
  return { required: declaredData(settings).map((item) => item.type) };
}
