import * as oauth from 'oauth4webapi';
import { browser } from 'wxt/browser';
import { checkBaseUrl } from '../../utils/base-url';
import { signInConfigured } from '../../utils/build-settings';
import { appError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import type { SessionInfo } from '../../utils/storage-items';
import { authorizationServer, oauthClient, tokenRequestOptions } from './oauth-endpoints';
import { usingHostAccess } from './host-access';
import { fail } from './result';
import { storeCheckedSession } from './session';
import { credentialsFrom, tokenEndpointError } from './tokens';

interface Identity {
  getRedirectURL(path?: string): string;
  launchWebAuthFlow(details: { url: string; interactive?: boolean }): Promise<string>;
}

/**
 * "Sign in to <panel>": the OAuth 2.0 authorization code flow with PKCE (RFC 7636, S256) and a
 * random `state`, in the browser's own sign-in window (RFC 8252). Nothing is stored unless the code
 * was exchanged and the access token passed a real API call, as connecting with a token does.
 */
export async function signIn(): Promise<SessionInfo> {
  const api = checkBaseUrl(settings.apiBaseUrl);
  if (!signInConfigured(settings) || !api.ok) fail(appError('invalid_input', t('errSignInNotConfigured')));
  // Present only once the page obtained the optional `identity` permission.
  const identity = (browser as unknown as { identity?: Identity }).identity;
  if (!identity?.launchWebAuthFlow) fail(appError('permission_denied', t('errSignInPermission')));

  const as = authorizationServer();
  const client = oauthClient();
  const redirectUri = identity.getRedirectURL();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(settings.oauth.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (settings.oauth.scopes) url.searchParams.set('scope', settings.oauth.scopes);

  let returned: string;
  try {
    returned = await identity.launchWebAuthFlow({ url: url.href, interactive: true });
  } catch (error) {
    fail(await windowError(error, url.origin));
  }

  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, new URL(returned), state);
  } catch (error) {
    fail(authorizationError(error));
  }

  let answer: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, tokenRequestOptions());
    answer = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (error) {
    fail(tokenEndpointError(error, 'sign-in', [params.get('code') ?? '', verifier]));
  }
  return usingHostAccess(api.origin, () => storeCheckedSession(credentialsFrom(answer, api.baseUrl), api.origin, { signedIn: true }));
}

/**
 * The sign-in window ended without an answer. Chrome says when the page could not load; otherwise
 * (the panelist closed it, or Firefox, which says the same in both cases) the server is asked
 * whether it is there at all, so "unreachable" is not reported as "closed".
 */
async function windowError(error: unknown, origin: string): Promise<AppError> {
  const text = error instanceof Error ? error.message : String(error);
  if (/could not be loaded/i.test(text) || !(await reachable(origin))) return appError('network', t('errSignInUnreachable', origin));
  return appError('rejected', t('errSignInClosed'));
}

async function reachable(origin: string): Promise<boolean> {
  try {
    await fetch(origin, { mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(10_000) });
    return true;
  } catch {
    return false;
  }
}

function authorizationError(error: unknown): AppError {
  if (error instanceof oauth.AuthorizationResponseError) {
    if (error.error === 'access_denied') return appError('rejected', t('errSignInDenied'));
    const code = /^[a-z_]{1,40}$/.test(error.error) ? error.error : 'error';
    return appError('rejected', t('errSignInRefused', code));
  }
  // A `state` that is not ours (or missing) means the answer belongs to another sign-in.
  return appError('unexpected', t('errSignInState'));
}
