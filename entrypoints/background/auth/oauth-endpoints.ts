import * as oauth from 'oauth4webapi';
import { limitedFetch, MAX_OAUTH_BODY_BYTES } from '../../../utils/api/body-limit';
import { plainHttpAllowed } from '../../../utils/hosts';
import { settings } from '../../../utils/settings';
import { withoutOrigin } from './without-origin';

/**
 * The operator's authorization server as oauth4webapi describes it, from the build settings (read
 * on each call, so tests can point them at a sandbox). The client is public: an extension cannot
 * keep a secret, which is what PKCE is for (RFC 8252 §8.1).
 */
export function authorizationServer(): oauth.AuthorizationServer {
  const { issuer, authorizationEndpoint, tokenEndpoint, revocationEndpoint } = settings.oauth;
  return {
    issuer,
    authorization_endpoint: authorizationEndpoint,
    token_endpoint: tokenEndpoint,
    ...(revocationEndpoint ? { revocation_endpoint: revocationEndpoint } : {}),
    // A server whose metadata says it sends `iss` (RFC 9207): an answer without one is then refused.
    ...(settings.oauthServer?.issParameter ? { authorization_response_iss_parameter_supported: true } : {}),
    // The algorithms its metadata says it signs ID tokens with: without them only RS256 is taken,
    // and a provider signing with ES256 or EdDSA (some do by default) could never be signed in to.
    ...(settings.oauthServer?.idTokenAlgs?.length
      ? { id_token_signing_alg_values_supported: settings.oauthServer.idTokenAlgs }
      : {}),
  };
}

/**
 * How far this computer's clock may be from the server's before an ID token's `exp` or `nbf` is
 * refused: a day, not oauth4webapi's 30 s. The extension reads nothing from the ID token (no claim,
 * no `sub`); it comes straight from the token endpoint over TLS, and oauth4webapi checks its
 * timing all the same. Keycloak's lives as long as its access token (5 minutes by default) and
 * comes back on every renewal, so a clock a few minutes fast refused every sign-in and renewal. A
 * day also covers a clock set to the wrong time zone (up to 14 hours) or AM for PM (12 hours).
 */
const ID_TOKEN_CLOCK_TOLERANCE_S = 24 * 60 * 60;

export function oauthClient(): oauth.Client {
  return { client_id: settings.oauth.clientId, [oauth.clockTolerance]: ID_TOKEN_CLOCK_TOLERANCE_S };
}

/** Same time-out as an API call: a token answer that does not come is a network failure. */
const TOKEN_TIMEOUT_MS = 10_000;

/**
 * Options for every request to the token endpoint (or, given, the revocation endpoint), sent with
 * `send`; plain http only on this machine (the sandbox), as for the API.
 */
export function tokenRequestOptions(
  endpoint = settings.oauth.tokenEndpoint,
  send: (url: string, init: RequestInit) => Promise<Response> = limitedFetch(MAX_OAUTH_BODY_BYTES),
): oauth.TokenEndpointRequestOptions {
  return {
    [oauth.allowInsecureRequests]: plainHttpAllowed(endpoint),
    // Its answers are read with a size limit before oauth4webapi parses them (`send`), and the
    // request leaves without the extension's Origin (without-origin.ts).
    [oauth.customFetch]: withoutOrigin(send),
    signal: () => AbortSignal.timeout(TOKEN_TIMEOUT_MS),
  };
}

export function tokenOrigin(): string {
  try {
    return new URL(settings.oauth.tokenEndpoint).origin;
  } catch {
    return settings.oauth.tokenEndpoint;
  }
}
