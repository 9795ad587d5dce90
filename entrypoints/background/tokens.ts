import * as oauth from 'oauth4webapi';
import { createPanelApi, ENDPOINTS, type PanelApi } from '../../utils/api/client';
import { BodyTooLargeError, sizeText } from '../../utils/api/body-limit';
import { redact } from '../../utils/api/http';
import { AppErrorException, appError, type AppError } from '../../utils/errors';
import { t, uiLocale } from '../../utils/i18n';
import { credentialsItem, type Credentials } from './credentials';
import { httpTuning } from './http-tuning';
import { authorizationServer, oauthClient, tokenOrigin, tokenRequestOptions } from './oauth-endpoints';
import { fail } from './result';

/**
 * Signed-in credentials renew themselves (issue 12): an access token past its `expires_in`, or one
 * the API answers with 401, is renewed with the refresh token once, and the call repeated once —
 * except a redeem, which is never sent twice. Pasted tokens have no refresh token and are used as is.
 */

/** Renew this long before the stated expiry, so a token does not run out on its way to the server. */
const EXPIRY_MARGIN_MS = 30_000;

/** The stored credentials, renewed first when their access token has expired. */
export async function usableCredentials(): Promise<Credentials> {
  const credentials = await credentialsItem.getValue();
  if (!credentials) fail(appError('not_connected', t('errNotConnected')));
  if (credentials.refreshToken && credentials.expiresAt !== undefined && Date.now() >= credentials.expiresAt - EXPIRY_MARGIN_MS) {
    return renew(credentials);
  }
  return credentials;
}

/** Credentials to store from a token answer; a server that does not rotate keeps the old refresh token. */
export function credentialsFrom(answer: oauth.TokenEndpointResponse, baseUrl: string, previousRefreshToken?: string): Credentials {
  const refreshToken = answer.refresh_token ?? previousRefreshToken;
  return {
    baseUrl,
    token: answer.access_token,
    ...(refreshToken ? { refreshToken } : {}),
    ...(typeof answer.expires_in === 'number' ? { expiresAt: Date.now() + answer.expires_in * 1000 } : {}),
  };
}

let renewing: { refreshToken: string; done: Promise<Credentials> } | null = null;

/**
 * Renews `stale` once however many callers ask at the same time: they all wait for the one request
 * (single-flight). A caller whose credentials were already replaced gets the new ones without a request.
 */
export function renew(stale: Credentials): Promise<Credentials> {
  const refreshToken = stale.refreshToken;
  if (!refreshToken) return Promise.reject(new AppErrorException(appError('unauthorized', t('errSignInAgain'), { status: 401 })));
  if (renewing?.refreshToken === refreshToken) return renewing.done;
  const done = renewWith(stale, refreshToken).finally(() => {
    if (renewing?.done === done) renewing = null;
  });
  renewing = { refreshToken, done };
  return done;
}

async function renewWith(stale: Credentials, refreshToken: string): Promise<Credentials> {
  const current = await credentialsItem.getValue();
  if (!current || current.baseUrl !== stale.baseUrl) fail(appError('not_connected', t('errNotConnected')));
  if (current.refreshToken !== refreshToken) return current;
  let answer: oauth.TokenEndpointResponse;
  try {
    const as = authorizationServer();
    const response = await oauth.refreshTokenGrantRequest(as, oauthClient(), oauth.None(), refreshToken, tokenRequestOptions());
    answer = await oauth.processRefreshTokenResponse(as, oauthClient(), response);
  } catch (error) {
    const failure = tokenEndpointError(error, 'renew', [refreshToken, current.token]);
    if (failure.kind === 'unauthorized') await forgetRefreshToken(refreshToken);
    fail(failure);
  }
  const renewed = credentialsFrom(answer, current.baseUrl, refreshToken);
  // The answer belongs to the session it was asked for: after a disconnect or another sign-in, it is dropped.
  const now = await credentialsItem.getValue();
  if (now?.refreshToken !== refreshToken) fail(appError('not_connected', t('errNotConnected')));
  await credentialsItem.setValue(renewed);
  return renewed;
}

/** A refused refresh token is useless; keeping it would only send it again. */
async function forgetRefreshToken(refreshToken: string): Promise<void> {
  const current = await credentialsItem.getValue();
  if (current?.refreshToken !== refreshToken) return;
  const { refreshToken: _refused, expiresAt: _expiry, ...rest } = current;
  await credentialsItem.setValue(rest);
}

/**
 * One AppError for a failed token request. A 4xx answer (invalid_grant, invalid_client…) is a
 * refusal: at renewal that means signing in again (`unauthorized`); a 5xx, a time-out or no answer
 * leaves everything as it was. The server's words are not shown, only an OAuth error code, and
 * every secret is redacted anyway.
 */
export function tokenEndpointError(error: unknown, stage: 'sign-in' | 'renew', secrets: readonly string[]): AppError {
  const origin = tokenOrigin();
  const status = error instanceof oauth.ResponseBodyError ? error.status : error instanceof oauth.OperationProcessingError && error.cause instanceof Response ? error.cause.status : undefined;
  const endpoint = 'token';
  if (error instanceof BodyTooLargeError) return appError('unexpected', t('errSignInTooLarge', origin, sizeText(error.limit, uiLocale())), { endpoint });
  if (status !== undefined && status >= 400 && status < 500) {
    if (stage === 'renew') return appError('unauthorized', t('errSignInAgain'), { status: 401, endpoint });
    const code = error instanceof oauth.ResponseBodyError && /^[a-z_]{1,40}$/.test(error.error) ? error.error : `HTTP ${status}`;
    return appError('rejected', redact(t('errSignInRefused', code), ...secrets), { status, endpoint });
  }
  if (status !== undefined && status >= 500) return appError('server', t('errSignInServer', status), { status, endpoint });
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    return appError('unexpected', t('errSignInUnexpected'), { endpoint });
  }
  const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
  return appError(timedOut ? 'timeout' : 'network', t(stage === 'renew' ? 'errRenewUnreachable' : 'errSignInUnreachable', origin), { endpoint });
}

function isRejectedToken(error: unknown): boolean {
  return error instanceof AppErrorException && error.error.kind === 'unauthorized' && error.error.status === 401;
}

/**
 * The panel API for `credentials`, renewing them once on a 401 when they carry a refresh token.
 * Reads and writes are then repeated once; a redeem is not: the panelist is asked to confirm again.
 */
export function renewingApi(credentials: Credentials): PanelApi {
  let current = credentials;
  async function call<T>(redeem: boolean, run: (api: PanelApi) => Promise<T>): Promise<T> {
    const used = current;
    try {
      return await run(createPanelApi({ ...used, ...httpTuning }));
    } catch (error) {
      if (!used.refreshToken || !isRejectedToken(error)) throw error;
      current = await renew(used);
      if (redeem) fail(appError('rejected', t('errRedeemSignInRenewed'), { status: 401, endpoint: ENDPOINTS.redemption }));
      return run(createPanelApi({ ...current, ...httpTuning }));
    }
  }
  return {
    listVariables: () => call(false, (api) => api.listVariables()),
    readValues: (opts) => call(false, (api) => api.readValues(opts)),
    updateValues: (values) => call(false, (api) => api.updateValues(values)),
    deleteValue: (name) => call(false, (api) => api.deleteValue(name)),
    listRedemptions: () => call(false, (api) => api.listRedemptions()),
    listRewards: () => call(false, (api) => api.listRewards()),
    redeem: (rewardId) => call(true, (api) => api.redeem(rewardId)),
    revalidate: (name, validator) => call(false, (api) => api.revalidate(name, validator)),
  };
}
