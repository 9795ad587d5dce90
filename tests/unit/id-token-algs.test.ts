// @vitest-environment node
/**
 * An OpenID provider that signs ID tokens with another algorithm than RS256 (ES256 here, as some
 * do by default): the build takes the algorithms its metadata names, and the token answers' ID
 * tokens signed with them are taken. Without them oauth4webapi expects RS256 alone, and such a
 * provider could never be signed in to.
 *
 * The metadata is a real oidc-provider's, given an operator's P-256 key and the client registered
 * for ES256. The ID token is signed with that kind of key by this test: the exchange that would
 * carry it needs the provider's sign-in pages, which the browser tests drive.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorizationServer, oauthClient } from '../../entrypoints/background/auth/oauth-endpoints';
import { discover, factsOf } from '../../utils/build/operator/oauth-discovery';
import { settings } from '../../utils/settings';
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { startOpenIdProvider, type OpenIdProvider } from '../sandbox/openid-provider';
import { freePort } from './free-port';
import { SIGN_IN_SETTINGS } from './sign-in-settings';

vi.mock('../../utils/settings', async () => ({
  settings: structuredClone((await import('./sign-in-settings')).SIGN_IN_SETTINGS),
}));

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** A token endpoint's answer whose ID token is signed ES256 for `issuer` and the extension's client. */
function answerWithEs256IdToken(issuer: string): Response {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: 'panel-sign-in' }));
  const claims = base64url(
    JSON.stringify({ iss: issuer, aud: SIGN_IN_SETTINGS.oauth.clientId, sub: 'p-1', iat: now, exp: now + 300 }),
  );
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  const body = {
    access_token: 'at',
    token_type: 'Bearer',
    expires_in: 300,
    id_token: `${header}.${claims}.${base64url(signature)}`,
  };
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

describe('a provider signing ID tokens with ES256', () => {
  let op: OpenIdProvider | undefined;
  afterEach(() => op?.close());

  it('its metadata names ES256, and the build takes it', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris: [],
      sandbox: { url: 'http://127.0.0.1:9', otherKeys: new Set() },
      otherwise: {
        provider: {
          jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'panel-sign-in', use: 'sig', alg: 'ES256' }] },
        },
        client: { client_id: SANDBOX_CLIENT_ID, id_token_signed_response_alg: 'ES256' },
      },
    });
    const found = await discover(op.issuer);
    if (found.kind !== 'metadata') throw new Error(`no metadata: ${found.kind}`);
    expect(found.server.id_token_signing_alg_values_supported).toContain('ES256');
    expect(factsOf(found.server, found.via).idTokenAlgs).toEqual(found.server.id_token_signing_alg_values_supported);
  });

  it('an ID token signed with an algorithm the metadata names is taken', async () => {
    settings.oauthServer = { ...settings.oauthServer, metadata: true, openid: true, idTokenAlgs: ['ES256'] };
    const answer = await oauth.processAuthorizationCodeResponse(
      authorizationServer(),
      oauthClient(),
      answerWithEs256IdToken(SIGN_IN_SETTINGS.oauth.issuer),
    );
    expect(answer.access_token).toBe('at');
  });

  it('without the metadata’s algorithms only RS256 is taken, which is why the build keeps them', async () => {
    const { idTokenAlgs: _kept, ...facts } = settings.oauthServer;
    settings.oauthServer = { ...facts, metadata: true, openid: true };
    await expect(
      oauth.processAuthorizationCodeResponse(
        authorizationServer(),
        oauthClient(),
        answerWithEs256IdToken(SIGN_IN_SETTINGS.oauth.issuer),
      ),
    ).rejects.toThrow(/unexpected JWT "alg" header parameter/);
  });
});
