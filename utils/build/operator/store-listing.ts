/**
 * The store listing of one language (`npm run store`), from that language's messages: the title
 * is the operator's name, the summary the manifest's description, the description its own message
 * followed by how to connect (signing in, in a build with sign-in; the personal key otherwise) and
 * where reward pictures load from, and the screenshots' headlines their own messages. Checked
 * against what the stores take.
 */
import { LOCALES_DIR, messageLookup, readMessages } from './locale-messages';

/** The messages the listing is made of; each is in every public/_locales/<lang>/messages.json. */
export const LISTING_MESSAGES = {
  summary: 'extDescription',
  description: 'storeDescription',
  connectKey: 'storeConnectKey',
  connectSignIn: 'storeConnectSignIn',
  images: 'storeImages',
  rewardsHeadline: 'storeShotRewards',
  profileHeadline: 'storeShotProfile',
} as const;

/**
 * The one sentence every declaration of the kit says about third parties, in English: SUBMIT.md,
 * the notes for addons.mozilla.org's reviewers, the privacy policy template, and the English
 * listing (the other listings say it in their language). Reward pictures do load from the hosts
 * the catalogue names, so "nothing goes to anyone else" alone would not be true.
 */
export function thirdPartySentence(dir: string = LOCALES_DIR): string {
  return messageLookup(readMessages(dir, 'en'))(LISTING_MESSAGES.images);
}

/** The Chrome Web Store's limit for the summary, which is the manifest's description (addons.mozilla.org takes 250). */
export const SUMMARY_MAX = 132;
/** The description's limit in every store: Edge Add-ons takes less than 10,000 characters (the Chrome Web Store 16,000; addons.mozilla.org none this low). */
export const DESCRIPTION_MAX = 9_999;

export interface Listing {
  locale: string;
  title: string;
  summary: string;
  description: string;
  headlines: { rewards: string; profile: string };
}

type Lookup = (key: string, substitutions?: string[]) => string;

/** The manifest's description in one language, as the browsers and stores show it: wxt.config.ts writes `${name}: __MSG_extDescription__`. */
export function manifestDescription(panelName: string, extDescription: string): string {
  return `${panelName}: ${extDescription}`;
}

/**
 * The listing in the language `lookup` speaks, with anything a store would refuse. The summary's
 * length is the build's own check (settings-check.ts: every language, before anything is built).
 */
export function listingFor(
  locale: string,
  panelName: string,
  lookup: Lookup,
  signIn = false,
): { listing: Listing; problems: string[] } {
  const text = (key: string) => lookup(key, [panelName]);
  const connect = text(signIn ? LISTING_MESSAGES.connectSignIn : LISTING_MESSAGES.connectKey);
  const listing: Listing = {
    locale,
    title: panelName,
    summary: manifestDescription(panelName, text(LISTING_MESSAGES.summary)),
    description: `${text(LISTING_MESSAGES.description)}\n\n${connect} ${text(LISTING_MESSAGES.images)}`,
    headlines: { rewards: text(LISTING_MESSAGES.rewardsHeadline), profile: text(LISTING_MESSAGES.profileHeadline) },
  };
  const problems: string[] = [];
  for (const [key, value] of Object.entries(LISTING_MESSAGES)) {
    if (!lookup(value)) problems.push(`${locale}: the message ${value} (${key}) is missing`);
  }
  if (listing.description.length > DESCRIPTION_MAX)
    problems.push(
      `${locale}: the description is over ${DESCRIPTION_MAX} characters (Edge Add-ons takes less than 10,000)`,
    );
  return { listing, problems };
}

/** The listing as text to paste into the stores' forms. */
export function listingText(listing: Listing): string {
  return [
    `Title: ${listing.title}`,
    '',
    `Summary (Chrome Web Store: at most ${SUMMARY_MAX} characters; addons.mozilla.org: the same text; Edge Add-ons shows the manifest's, this same text):`,
    listing.summary,
    '',
    'Description:',
    listing.description,
    '',
  ].join('\n');
}
