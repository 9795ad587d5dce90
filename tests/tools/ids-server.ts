/**
 * `npm run ids`: what the build takes from the sign-in server, printed under the ids: where the
 * endpoints come from (the server's metadata at `oauth.issuer`, or the settings) and what the
 * authorization request asks for (utils/sign-in-server.ts).
 */
import { signInConfigured } from '../../utils/build-settings';
import type { ResolvedSettings } from '../../utils/build/operator/panel-config';
import { authorizationParams, consentPromptOf } from '../../utils/sign-in-server';

export interface SignInServer {
  issuer: string;
  /** Whether the build read the server's metadata (from `oauth.issuer`). */
  metadata: boolean;
  openid: boolean;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint: string | null;
  /** The authorization request's scope and prompt, and after Disconnect. */
  asks: Record<string, string>;
  asksAfterDisconnect: Record<string, string>;
}

export function signInServer(settings: ResolvedSettings): SignInServer | null {
  if (!signInConfigured(settings)) return null;
  const { oauth, oauthServer } = settings;
  return {
    issuer: oauth.issuer,
    metadata: oauthServer.metadata,
    openid: oauthServer.openid,
    authorizationEndpoint: oauth.authorizationEndpoint,
    tokenEndpoint: oauth.tokenEndpoint,
    revocationEndpoint: oauth.revocationEndpoint || null,
    asks: authorizationParams(oauth.scopes, oauthServer, false, consentPromptOf(oauth)),
    asksAfterDisconnect: authorizationParams(oauth.scopes, oauthServer, true, consentPromptOf(oauth)),
  };
}

const params = (asked: Record<string, string>) =>
  Object.entries(asked)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(' ') || 'nothing beyond PKCE and state';

export function signInServerLines(server: SignInServer | null): string[] {
  if (!server) return [];
  return [
    `Sign-in  issuer        ${server.issuer}  ${server.metadata ? `(its metadata: ${server.openid ? 'an OpenID provider' : 'an OAuth 2.0 server'})` : '(no metadata read: the endpoints as set; give oauth.issuer to read it)'}`,
    `         authorize     ${server.authorizationEndpoint}`,
    `         token         ${server.tokenEndpoint}`,
    `         revocation    ${server.revocationEndpoint ?? 'none: Disconnect only forgets the tokens in the browser'}`,
    `         asks          ${params(server.asks)}`,
    `         after Disconnect ${params(server.asksAfterDisconnect)}`,
    '',
  ];
}
