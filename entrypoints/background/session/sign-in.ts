import * as oauth from 'oauth4webapi';
import { browser } from 'wxt/browser';
import { checkBaseUrl } from '../../../utils/base-url';
import { signInConfigured, tabRedirectUrl } from '../../../utils/build-settings';
import { appError, AppErrorException, type AppError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { settings, SIGN_IN_BUILT } from '../../../utils/settings';
import { authorizationParams, consentPromptOf } from '../../../utils/sign-in-server';
import type { SessionInfo } from '../../../utils/storage-items';
import { authorizationServer, oauthClient, tokenRequestOptions } from '../auth/oauth-endpoints';
import { usingHostAccess } from './host-access';
import { launchTabFlow, SignInTabEnded } from './sign-in-tab';
import { fail } from '../result';
import { endRefusedRefreshToken, storeCheckedSession } from './session';
import { credentialsFrom, tokenEndpointError } from '../auth/tokens';
import { revokeRefreshToken } from '../auth/revoke';
import { put } from '../store/store';
import { freshSignInItem } from './fresh-sign-in';

interface Identity {
  getRedirectURL(path?: string): string;
  launchWebAuthFlow(details: { url: string; interactive?: boolean }): Promise<string>;
}

/** Where the panelist signs in: the browser's sign-in window, or a tab. */
interface Door {
  kind: 'window' | 'tab';
  redirectUri: string;
  /** Resolves with the address the server sent the panelist back to. */
  launch(url: string): Promise<string>;
}

/**
 * The browser's sign-in window where there is one: `identity` with both calls (Chrome once the page
 * obtained the optional permission, Firefox on the desktop). Otherwise a tab (sign-in-tab.ts):
 * Firefox for Android has no `identity` (MDN's browser-compat-data; tests/unit/api-audit.test.ts),
 * and in Chrome the permission may be refused.
 */
export function signInDoor(): Door {
  const identity = (browser as unknown as { identity?: Partial<Identity> }).identity;
  if (typeof identity?.launchWebAuthFlow === 'function' && typeof identity.getRedirectURL === 'function') {
    const { launchWebAuthFlow, getRedirectURL } = identity as Identity;
    return {
      kind: 'window',
      redirectUri: getRedirectURL.call(identity),
      launch: (url) => launchWebAuthFlow.call(identity, { url, interactive: true }),
    };
  }
  const redirectUri = tabRedirectUrl(settings);
  return { kind: 'tab', redirectUri, launch: (url) => launchTabFlow(url, redirectUri) };
}

/**
 * "Sign in to <panel>": the OAuth 2.0 authorization code flow with PKCE (RFC 7636, S256) and a
 * random `state`, in the browser's own sign-in window or in a tab (RFC 8252). Nothing is stored
 * unless the code was exchanged and the access token passed a real API call, as connecting with a
 * token does; a refresh token issued for a sign-in that stored nothing is revoked.
 */
export function signIn(): Promise<SessionInfo> {
  // Folded at build time: a build without sign-in keeps only the refusal (utils/settings.ts).
  return SIGN_IN_BUILT ? signInFlow() : notConfigured();
}

async function notConfigured(): Promise<never> {
  fail(appError('invalid_input', t('errSignInNotConfigured')));
}

async function signInFlow(): Promise<SessionInfo> {
  const api = checkBaseUrl(settings.apiBaseUrl);
  if (!signInConfigured(settings) || !api.ok) return notConfigured();
  const door = signInDoor();

  const as = authorizationServer();
  const client = oauthClient();
  const { redirectUri } = door;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(settings.oauth.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  // What a refresh token needs, and after Disconnect the password asked again, as this server
  // takes them (its metadata, read at build time: utils/sign-in-server.ts).
  const fresh = await freshSignInItem.getValue();
  const asked = authorizationParams(
    settings.oauth.scopes,
    settings.oauthServer,
    fresh,
    consentPromptOf(settings.oauth),
  );
  for (const [name, value] of Object.entries(asked)) url.searchParams.set(name, value);

  // Ended before the server can issue the new sign-in under the grant it belongs to (session.ts).
  await endRefusedRefreshToken();
  let returned: string;
  try {
    returned = await door.launch(url.href);
  } catch (error) {
    fail(await windowError(error, url.origin));
  }

  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, new URL(returned), state);
  } catch (error) {
    fail(authorizationError(error, door.kind));
  }

  let answer: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      tokenRequestOptions(),
    );
    answer = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    fail(tokenEndpointError(error, 'sign-in', [params.get('code') ?? '', verifier]));
  }
  // Disconnect's mark is taken by the sign-in it asked the password of, in the same write.
  const taken = fresh ? [put(freshSignInItem, false)] : [];
  const credentials = credentialsFrom(answer, api.baseUrl);
  try {
    return await usingHostAccess(api.origin, () =>
      storeCheckedSession(credentials, api.origin, { signedIn: true }, taken),
    );
  } catch (error) {
    // Nothing was stored, so the refresh token just issued is ended at the panel too rather than
    // left to renew unseen (revoke.ts; it never throws, and the panelist does not wait for it).
    void revokeRefreshToken(credentials);
    if (error instanceof AppErrorException && error.error.kind === 'unauthorized') fail(notAccepted(error.error));
    throw error;
  }
}

/**
 * The panel answered 401 to the check of a token its sign-in server had just issued: the panelist
 * signed in, had no key to lose, and signing in again at once meets the same refusal. Typically
 * the token was made for another audience (Keycloak's `account`, Auth0 without a Default
 * Audience), which only the panel can change. The status and endpoint stay, for support.
 */
function notAccepted({ status, endpoint }: AppError): AppError {
  return appError('rejected', t('errSignInNotAccepted', settings.panelName), { status, endpoint });
}

/**
 * The sign-in window or tab ended without an answer. The server is asked whether it is there at
 * all, so "unreachable" is not reported as "closed" (Firefox says the same for both; a tab shows
 * the browser's own error page, which the extension cannot read). Chrome says when the window's
 * page could not load, which it also says of a page that answered an error status (a redirect
 * address the server does not know, 400 on common servers): with the server there, that is the
 * page's error, for the panel to mend, not a connection for the panelist to check.
 */
async function windowError(error: unknown, origin: string): Promise<AppError> {
  if (error instanceof SignInTabEnded && error.ending === 'not_opened')
    return appError('unexpected', t('errSignInTabNotOpened'));
  if (error instanceof SignInTabEnded && error.ending === 'timeout')
    return appError('rejected', t('errSignInTabTimeout'));
  const text = error instanceof Error ? error.message : String(error);
  if (!(await reachable(origin))) return appError('network', t('errSignInUnreachable', origin));
  if (/could not be loaded/i.test(text)) return appError('rejected', t('errSignInPageError', origin));
  return appError('rejected', t(error instanceof SignInTabEnded ? 'errSignInTabClosed' : 'errSignInClosed'));
}

async function reachable(origin: string): Promise<boolean> {
  try {
    await fetch(origin, {
      mode: 'no-cors',
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(10_000),
    });
    return true;
  } catch {
    return false;
  }
}

function authorizationError(error: unknown, door: Door['kind']): AppError {
  if (error instanceof oauth.AuthorizationResponseError) {
    if (error.error === 'access_denied') return appError('rejected', t('errSignInDenied'));
    const code = /^[a-z_]{1,40}$/.test(error.error) ? error.error : 'error';
    return appError('rejected', t('errSignInRefused', code));
  }
  // A `state` that is not ours (or missing), or an `iss` naming another server (RFC 9207), means the
  // answer belongs to another sign-in.
  return appError('unexpected', t(door === 'tab' ? 'errSignInTabState' : 'errSignInState'));
}
