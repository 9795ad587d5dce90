import * as oauth from 'oauth4webapi';
import { settings, SIGN_IN_BUILT } from '../../../utils/settings';
import type { Credentials } from '../store/credentials';
import { authorizationServer, oauthClient, tokenRequestOptions } from './oauth-endpoints';

/**
 * What became of a refresh token the extension stopped using: ended at the panel, not there to
 * end (a pasted key has none), no revocation endpoint configured, or the panel could not be told.
 */
export type Revocation = 'revoked' | 'none' | 'not_configured' | 'failed';

/**
 * Ends a sign-in's refresh token at the panel (RFC 7009), and with it, on a conforming server, the
 * access tokens of its grant. Called once the token is already forgotten here, with the credentials
 * as they were, so the panelist never waits on the panel to be disconnected. A pasted personal key
 * is never sent: it is not the authorization server's token. Never throws.
 */
export async function revokeRefreshToken(credentials: Pick<Credentials, 'refreshToken'> | null): Promise<Revocation> {
  const refreshToken = credentials?.refreshToken;
  if (!refreshToken) return 'none';
  const endpoint = settings.oauth?.revocationEndpoint;
  // A build without sign-in has no revocation endpoint (and leaves the revocation out).
  if (!SIGN_IN_BUILT || !endpoint) return 'not_configured';
  try {
    const options = { ...tokenRequestOptions(endpoint), additionalParameters: { token_type_hint: 'refresh_token' } };
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(authorizationServer(), oauthClient(), oauth.None(), refreshToken, options),
    );
    return 'revoked';
  } catch {
    // Unreachable, a time-out, a 5xx or a refusal: the token stays valid there until it expires.
    return 'failed';
  }
}
