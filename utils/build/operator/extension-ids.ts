/**
 * The extension's ids and the sign-in redirect URLs the browsers give it (`npm run ids`), worked
 * out from the build settings as the browsers do:
 *
 * - Chrome: the id is the first 128 bits of the SHA-256 of the manifest `key` (the DER public
 *   key), written with the letters a–p for the hex digits 0–f; `identity.getRedirectURL()` is
 *   `https://<id>.chromiumapp.org/`. The trusted testers' item and the Edge Add-ons item are items
 *   of their own, with ids their stores gave them (`chromeBetaId`, `edgeId`), and the same form of
 *   redirect URL (Edge's sign-in window is Chromium's).
 * - Firefox: the id is the add-on id (`geckoId`); `identity.getRedirectURL()` is
 *   `https://<SHA-1 of the id's UTF-8, lower-case hex>.extensions.allizom.org/` (Firefox's
 *   ext-identity.js, with its default `extensions.webextensions.identity.redirectDomain`).
 *
 * Both are checked against real Chromium and Firefox ESR in tests/e2e/extension-ids.test.ts.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';

const FIREFOX_REDIRECT_DOMAIN = 'extensions.allizom.org';

/** The Chrome extension id a manifest `key` (base64 DER public key) gives. */
export function chromeIdFromKey(key: string): string {
  const digest = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...digest].map((hex) => String.fromCharCode('a'.charCodeAt(0) + parseInt(hex, 16))).join('');
}

export function chromeRedirectUrl(extensionId: string): string {
  return `https://${extensionId}.chromiumapp.org/`;
}

export function firefoxRedirectUrl(geckoId: string): string {
  const hash = createHash('sha1').update(geckoId, 'utf8').digest('hex');
  return `https://${hash}.${FIREFOX_REDIRECT_DOMAIN}/`;
}

/**
 * A new RSA key pair for a Chrome extension id of one's own: the public key in the form
 * `chromeKey` takes, the private key as PEM (for signing a self-hosted CRX; never committed).
 */
export function newChromeKey(): { publicKey: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export interface ExtensionIds {
  chrome: { id: string; redirectUrl: string } | null;
  /** The trusted testers' Chrome item (`chromeBetaId`): an item of its own, so an id and a redirect URL of its own. */
  chromeBeta: { id: string; redirectUrl: string } | null;
  /** The Edge Add-ons item (`edgeId`): Edge gives it its own id; its sign-in window is Chromium's. */
  edge: { id: string; redirectUrl: string } | null;
  firefox: { id: string; redirectUrl: string };
  /**
   * Sign-in in a tab: Firefox for Android, which has no sign-in window, and any browser
   * where it is not there (Chrome without the optional permission). Null in a build without sign-in.
   */
  tab: { redirectUrl: string } | null;
}

/**
 * Both browsers' ids and the redirect URLs to register: Chrome's is null without a `chromeKey` (the
 * store then assigns one); the tab's is `oauth.tabRedirectUrl` (its default filled in by the settings).
 */
export function extensionIds(settings: {
  chromeKey: string;
  geckoId: string;
  chromeBetaId?: string;
  edgeId?: string;
  oauth?: { tabRedirectUrl?: string };
}): ExtensionIds {
  const chromeId = settings.chromeKey ? chromeIdFromKey(settings.chromeKey) : null;
  const tab = settings.oauth?.tabRedirectUrl;
  const chromium = (id: string | undefined) => (id ? { id, redirectUrl: chromeRedirectUrl(id) } : null);
  return {
    chrome: chromium(chromeId ?? undefined),
    chromeBeta: chromium(settings.chromeBetaId),
    edge: chromium(settings.edgeId),
    firefox: { id: settings.geckoId, redirectUrl: firefoxRedirectUrl(settings.geckoId) },
    tab: tab ? { redirectUrl: tab } : null,
  };
}
