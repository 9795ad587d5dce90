// @vitest-environment node
/**
 * A panelist's clock a few minutes fast, against a provider whose ID token lives as long as its
 * access token and comes back on every renewal (Keycloak: 5 minutes by default). The extension
 * reads nothing from the ID token, but oauth4webapi checks its `exp` against this computer's
 * clock, with 30 s of tolerance unless the client says otherwise (oauth-endpoints.ts says more).
 * The answers go through oauth4webapi's own processing with the extension's client settings; it
 * checks no signature of an ID token from the token endpoint, so a key of this test's signs it.
 *
 * Failed before the client's tolerance was set: `unexpected JWT "exp" (expiration time) claim
 * value, expiration is past current timestamp`, at sign-in and at renewal.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { describe, expect, it, vi } from 'vitest';
import { authorizationServer, oauthClient } from '../../entrypoints/background/auth/oauth-endpoints';
import { SIGN_IN_SETTINGS } from './sign-in-settings';

vi.mock('../../utils/settings', async () => ({
  settings: structuredClone((await import('./sign-in-settings')).SIGN_IN_SETTINGS),
}));

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A token answer whose RS256 ID token expired `agoSeconds` ago by this computer's clock. */
function answerWithIdTokenExpired(agoSeconds: number): Response {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const exp = Math.floor(Date.now() / 1000) - agoSeconds;
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'k' }));
  const claims = base64url(
    JSON.stringify({
      iss: SIGN_IN_SETTINGS.oauth.issuer,
      aud: SIGN_IN_SETTINGS.oauth.clientId,
      sub: 'p-1',
      iat: exp - 300,
      exp,
    }),
  );
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), privateKey);
  const body = {
    access_token: 'at',
    token_type: 'Bearer',
    expires_in: 300,
    refresh_token: 'rt',
    id_token: `${header}.${claims}.${base64url(signature)}`,
  };
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

describe('a clock 10 minutes fast, an ID token of 5 minutes (Keycloak’s default)', () => {
  it('signs in: the code exchange’s answer is taken', async () => {
    const answer = await oauth.processAuthorizationCodeResponse(
      authorizationServer(),
      oauthClient(),
      answerWithIdTokenExpired(600),
    );
    expect(answer.access_token).toBe('at');
  });

  it('renews: the refresh’s answer is taken', async () => {
    const answer = await oauth.processRefreshTokenResponse(
      authorizationServer(),
      oauthClient(),
      answerWithIdTokenExpired(600),
    );
    expect(answer.refresh_token).toBe('rt');
  });
});
