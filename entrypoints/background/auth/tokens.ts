import * as oauth from 'oauth4webapi';
import { createPanelApi, ENDPOINTS, type PanelApi } from '../../../utils/api/client';
import { BodyTooLargeError, limitedFetch, MAX_OAUTH_BODY_BYTES, sizeText } from '../../../utils/api/body-limit';
import { parseRetryAfter, redact } from '../../../utils/api/http';
import { AppErrorException, appError, type AppError } from '../../../utils/errors';
import { t, tp, uiLocale } from '../../../utils/i18n';
import { SIGN_IN_BUILT } from '../../../utils/settings';
import { credentialsItem, type Credentials } from '../store/credentials';
import { httpTuning } from './http-tuning';
import { authorizationServer, oauthClient, tokenOrigin, tokenRequestOptions } from './oauth-endpoints';
import { markRejected } from './rejected';
import { fail } from '../result';
import { revokeRefreshToken } from './revoke';
import { activeCredentials, depart, put, StaleSession, staleSession, update, type SessionId } from '../store/store';

/**
 * Signed-in credentials renew themselves, so a sign-in lasts: an access token past its `expires_in`, or one
 * the API answers with 401, is renewed with the refresh token once, and the call repeated once —
 * except a redeem, which is never sent twice. Pasted tokens have no refresh token and are used as is.
 * A renewal belongs to the session it started under (never stored for another): its request leaves only while that
 * session is active, and its answer is stored only for it.
 */

/** Renew this long before the stated expiry, so a token does not run out on its way to the server. */
const EXPIRY_MARGIN_MS = 30_000;
/** How long to leave the token endpoint alone after a 429 that named no time. */
const DEFAULT_WAIT_SECONDS = 30;

/** `credentials` (the stored ones by default), renewed first when their access token has expired. */
export async function usableCredentials(stored?: Credentials | null): Promise<Credentials> {
  const credentials = stored === undefined ? await activeCredentials() : stored;
  if (!credentials) fail(appError('not_connected', t('errNotConnected')));
  if (
    credentials.refreshToken &&
    credentials.expiresAt !== undefined &&
    Date.now() >= credentials.expiresAt - EXPIRY_MARGIN_MS
  ) {
    return renew(credentials);
  }
  return credentials;
}

/** Credentials to store from a token answer; a server that does not rotate keeps the old refresh token. */
export function credentialsFrom(
  answer: oauth.TokenEndpointResponse,
  baseUrl: string,
  previousRefreshToken?: string,
): Omit<Credentials, 'session'> {
  const refreshToken = answer.refresh_token ?? previousRefreshToken;
  return {
    baseUrl,
    token: answer.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(typeof answer.expires_in === 'number' ? { expiresAt: Date.now() + answer.expires_in * 1000 } : {}),
  };
}

let renewing: { refreshToken: string; done: Promise<Credentials> } | null = null;
/** A 429 from the token endpoint: no renewal is asked for before this time (epoch ms). */
let waitUntil = 0;

/**
 * Renews `stale` once however many callers ask at the same time: they all wait for the one request
 * (single-flight). A caller whose credentials were already replaced gets the new ones without a request.
 */
export function renew(stale: Credentials): Promise<Credentials> {
  const refreshToken = stale.refreshToken;
  // A build without sign-in has no token endpoint to renew at (and leaves the renewal out).
  if (!SIGN_IN_BUILT || !refreshToken)
    return Promise.reject(new AppErrorException(appError('unauthorized', t('errSignInAgain'), { status: 401 })));
  if (renewing?.refreshToken === refreshToken) return renewing.done;
  const done = renewWith(stale, refreshToken).finally(() => {
    if (renewing?.done === done) renewing = null;
  });
  renewing = { refreshToken, done };
  return done;
}

async function renewWith(stale: Credentials, refreshToken: string): Promise<Credentials> {
  const sid = stale.session;
  const current = await activeCredentials();
  if (!current || current.session !== sid) throw staleSession();
  if (current.refreshToken !== refreshToken) return current;
  const wait = Math.ceil((waitUntil - Date.now()) / 1000);
  if (wait > 0) fail(rateLimited(wait));
  let answer: oauth.TokenEndpointResponse;
  try {
    const as = authorizationServer();
    // Read with the token endpoint's size limit, and sent only while the session is the active one.
    const options = tokenRequestOptions(undefined, departing(sid, limitedFetch(MAX_OAUTH_BODY_BYTES)));
    const response = await oauth.refreshTokenGrantRequest(as, oauthClient(), oauth.None(), refreshToken, options);
    answer = await oauth.processRefreshTokenResponse(as, oauthClient(), response);
  } catch (error) {
    // Not sent: the session ended before the request could leave.
    if (error instanceof AppErrorException) throw error;
    const failure = tokenEndpointError(error, 'renew', [refreshToken, current.token]);
    if (failure.kind === 'rate_limited')
      waitUntil = Date.now() + (failure.retryAfterSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
    // The panel refused the refresh token: sign in again, said at once everywhere; the refused
    // token is forgotten in the same write, so it is never sent again.
    if (failure.kind === 'unauthorized') {
      const { refreshToken: _refused, expiresAt: _expiry, ...rest } = current;
      await markRejected(sid, put(credentialsItem, rest));
    }
    fail(failure);
  }
  const renewed: Credentials = { ...credentialsFrom(answer, current.baseUrl, refreshToken), session: sid };
  // Stored only for the session it was asked for, and only over the credentials it renewed.
  let stored = false;
  let kept: string | undefined;
  try {
    await update(sid, [credentialsItem], (get) => {
      kept = get(credentialsItem)?.refreshToken;
      stored = kept === refreshToken;
      return stored ? [put(credentialsItem, renewed)] : [];
    });
  } catch (err) {
    // The session ended while the answer was on its way (Disconnect, another sign-in): the new
    // refresh token it carries would stay live at the panel, unknown to anyone; it is ended there.
    if (err instanceof StaleSession) void revokeUnused(renewed, refreshToken);
    throw err;
  }
  if (!stored) {
    if (renewed.refreshToken !== kept) void revokeUnused(renewed, refreshToken);
    throw staleSession();
  }
  return renewed;
}

/** Ends at the panel a refresh token an answer issued that is never stored (not the one it renewed, which the panel keeps only without rotation). */
function revokeUnused(renewed: Credentials, renewedWith: string): Promise<unknown> {
  return renewed.refreshToken && renewed.refreshToken !== renewedWith ? revokeRefreshToken(renewed) : Promise.resolve();
}

/** `send`, whose requests leave only while session `sid` is the active one (store.ts). */
export function departing<A extends unknown[]>(
  sid: SessionId,
  send: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return (...args) => depart(sid, () => send(...args));
}

function rateLimited(seconds: number): AppError {
  return appError('rate_limited', tp('errRenewRateLimited', seconds), {
    status: 429,
    retryAfterSeconds: seconds,
    endpoint: 'token',
  });
}

function responseOf(error: unknown): Response | undefined {
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.WWWAuthenticateChallengeError)
    return error.response;
  return error instanceof oauth.OperationProcessingError && error.cause instanceof Response ? error.cause : undefined;
}

/**
 * The OAuth error code a refusal carries, when it is a code, whole: in the body (RFC 6749 §5.2), or
 * in a `WWW-Authenticate` challenge's `error` (a 401 for a client that authenticated with a header
 * must carry one; oauth4webapi reads the challenge first and leaves the body unread).
 */
function oauthCode(error: unknown): string | undefined {
  const code =
    error instanceof oauth.ResponseBodyError
      ? error.error
      : error instanceof oauth.WWWAuthenticateChallengeError
        ? error.cause.map((challenge) => challenge.parameters.error).find((said) => said !== undefined)
        : undefined;
  return code !== undefined && /^[a-z_]{1,40}$/.test(code) ? code : undefined;
}

/**
 * The codes that say, at renewal, that the same request will never pass, so only a new sign-in can
 * help: the token endpoint's own (RFC 6749 §5.2; `invalid_grant`: the password changed, the refresh
 * token expired or was revoked; `invalid_client`: the panel no longer knows this extension), and
 * OpenID Connect's asking for the person (Core §3.1.2.6), which providers such as Microsoft Entra
 * ID also answer a refresh with when a new sign-in step (a second factor, consent) is due. Any
 * other code (`temporarily_unavailable`, `server_error`, an extension's own) says nothing of the
 * kind, and is no reason to sign out.
 */
const RENEWAL_REFUSALS: ReadonlySet<string> = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
]);

/**
 * One AppError for a failed token request. At sign-in a 4xx is a refusal. At renewal only one of
 * the endpoint's own refusals (RENEWAL_REFUSALS) means signing in again (`unauthorized`); a 429
 * means wait (`Retry-After`), and a 5xx, a time-out, no answer or another 4xx leave the session as
 * it was, to be tried again later (a passing fault is no reason to sign out). The server's words
 * are not shown, only an OAuth error code, and every secret is redacted anyway.
 */
export function tokenEndpointError(error: unknown, stage: 'sign-in' | 'renew', secrets: readonly string[]): AppError {
  const origin = tokenOrigin();
  const response = responseOf(error);
  const status = response?.status;
  const endpoint = 'token';
  if (error instanceof BodyTooLargeError)
    return appError('unexpected', t('errSignInTooLarge', origin, sizeText(error.limit, uiLocale())), { endpoint });
  if (status === 429 && stage === 'renew')
    return rateLimited(parseRetryAfter(response!.headers.get('retry-after')) ?? DEFAULT_WAIT_SECONDS);
  if (status !== undefined && status >= 400 && status < 500) {
    const said = oauthCode(error);
    const code = said ?? `HTTP ${status}`;
    if (stage === 'sign-in')
      return appError('rejected', redact(t('errSignInRefused', code), ...secrets), { status, endpoint });
    if (said !== undefined && RENEWAL_REFUSALS.has(said)) {
      return appError('unauthorized', t('errSignInAgain'), { status: 401, endpoint });
    }
    return appError('rejected', t('errRenewFailed', status), { status, endpoint });
  }
  if (status !== undefined && status >= 500)
    return appError('server', t('errSignInServer', status), { status, endpoint });
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return appError('unexpected', t('errSignInUnexpected'), { endpoint });
  }
  const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
  return appError(
    timedOut ? 'timeout' : 'network',
    t(stage === 'renew' ? 'errRenewUnreachable' : 'errSignInUnreachable', origin),
    { endpoint },
  );
}

/** `unauthorized` is only ever a 401 (utils/errors.ts): the panel did not accept the token. */
function isRejectedToken(error: unknown): boolean {
  return error instanceof AppErrorException && error.error.kind === 'unauthorized';
}

/**
 * The panel API for `credentials`, renewing them once on a 401 when they carry a refresh token.
 * Reads and writes are then repeated once; a redeem is not: the panelist is asked to confirm again.
 * Every request leaves only while the credentials' session is the active one, and no error text
 * carries either token.
 */
export function renewingApi(credentials: Credentials): PanelApi {
  let current = credentials;
  const apiFor = (used: Credentials) =>
    createPanelApi({
      ...used,
      ...httpTuning,
      fetch: departing(used.session, fetch),
      secrets: used.refreshToken ? [used.refreshToken] : [],
    });
  async function call<T>(redeem: boolean, run: (api: PanelApi) => Promise<T>): Promise<T> {
    const used = current;
    try {
      return await run(apiFor(used));
    } catch (error) {
      if (!used.refreshToken || !isRejectedToken(error)) throw error;
      current = await renew(used);
      if (redeem)
        fail(appError('rejected', t('errRedeemSignInRenewed'), { status: 401, endpoint: ENDPOINTS.redemption }));
      return run(apiFor(current));
    }
  }
  return {
    checkAccess: () => call(false, (api) => api.checkAccess()),
    updateValues: (values) => call(false, (api) => api.updateValues(values)),
    deleteValue: (name) => call(false, (api) => api.deleteValue(name)),
    listRedemptions: () => call(false, (api) => api.listRedemptions()),
    redeem: (rewardId, idempotencyKey) => call(true, (api) => api.redeem(rewardId, idempotencyKey)),
    revalidate: (name, validator) => call(false, (api) => api.revalidate(name, validator)),
  };
}
