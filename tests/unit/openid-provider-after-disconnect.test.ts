// @vitest-environment node
/**
 * The sign-in after Disconnect at a real OpenID provider (oidc-provider at its defaults,
 * ../sandbox/openid-provider.ts), over HTTP: the authorization request is the one the extension
 * builds from the provider's own metadata, and its pages are answered as a panelist would. The
 * provider lists no prompt values, so it gets one (`consent`, with `max_age=0`): it must still ask
 * for the password though it remembers the login, and still issue a refresh token. The browser
 * tests drive the same story through the extension (../e2e/openid-story.ts).
 *
 * Deliberate breakage it failed on: `login` sent alone after Disconnect — the provider drops
 * `offline_access` and issues no refresh token.
 */
import * as oauth from 'oauth4webapi';
import { afterEach, describe, expect, it } from 'vitest';
import { discover, factsOf } from '../../utils/build/operator/oauth-discovery';
import { authorizationParams } from '../../utils/sign-in-server';
import { SANDBOX_CLIENT_ID, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { OIDC_PATHS, startOpenIdProvider, type OpenIdProvider } from '../sandbox/openid-provider';
import { freePort } from './free-port';

const REDIRECT_URI = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/';

/** A browser's cookies for one host: the latest value of each name, sent on every request. */
class Jar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const expired = attributes.some((a) => /^\s*expires=.*1970/i.test(a));
      if (expired || at === pair.length - 1) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
  }
}

/**
 * One sign-in through the provider's pages, the password and Allow given wherever asked; resolves
 * with the token endpoint's answer.
 */
async function signIn(op: OpenIdProvider, jar: Jar, params: Record<string, string>): Promise<Record<string, unknown>> {
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(`${op.issuer}${OIDC_PATHS.authorize}`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: SANDBOX_CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: oauth.generateRandomState(),
    ...params,
  }))
    url.searchParams.set(name, value);
  let next: { url: string; form?: Record<string, string> } | null = { url: url.href };
  let code: string | null = null;
  for (let step = 0; next && step < 20; step++) {
    const response: Response = await fetch(next.url, {
      method: next.form ? 'POST' : 'GET',
      headers: { Cookie: jar.header(), 'Content-Type': 'application/x-www-form-urlencoded' },
      ...(next.form ? { body: new URLSearchParams(next.form).toString() } : {}),
      redirect: 'manual',
    });
    jar.take(response);
    const location = response.headers.get('location');
    const page = location ? '' : await response.text();
    const action = /action="([^"]+)"/.exec(page)?.[1];
    const here = new URL(next.url);
    if (location?.startsWith(REDIRECT_URI)) {
      code = new URL(location).searchParams.get('code');
      next = null;
    } else if (location) next = { url: new URL(location, here).href };
    else if (action?.endsWith('/login'))
      next = { url: new URL(action, here).href, form: { email: SANDBOX_EMAIL, password: SANDBOX_PASSWORD } };
    else if (action?.endsWith('/decide')) next = { url: new URL(action, here).href, form: { decision: 'allow' } };
    else throw new Error(`unexpected page (${response.status}): ${page.slice(0, 200)}`);
  }
  expect(code).toBeTruthy();
  const token = await fetch(`${op.issuer}${OIDC_PATHS.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: SANDBOX_CLIENT_ID,
    }).toString(),
  });
  expect(token.status).toBe(200);
  return (await token.json()) as Record<string, unknown>;
}

/** What the build would make of the provider's metadata, read as the build reads it. */
async function factsFrom(op: OpenIdProvider): Promise<ReturnType<typeof factsOf>> {
  const found = await discover(op.issuer);
  if (found.kind !== 'metadata') throw new Error(`no metadata: ${found.kind}`);
  return factsOf(found.server, found.via);
}

describe('oidc-provider at its defaults, after Disconnect', () => {
  let op: OpenIdProvider | undefined;
  afterEach(() => op?.close());

  it('asks for the password again though it remembers the login, then consent, and issues a refresh token', async () => {
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris: [REDIRECT_URI],
      sandbox: { url: 'http://127.0.0.1:9', otherKeys: new Set() },
    });
    const facts = await factsFrom(op);
    const jar = new Jar();

    // The first sign-in: the password, then consent.
    expect(await signIn(op, jar, authorizationParams('', facts, false))).toHaveProperty('refresh_token');
    expect(op.answered).toEqual(['login', 'consent']);
    // It remembers the login: a sign-in not after Disconnect asks consent only.
    expect(await signIn(op, jar, authorizationParams('', facts, false))).toHaveProperty('refresh_token');
    expect(op.answered.slice(2)).toEqual(['consent']);

    const fresh = authorizationParams('', facts, true);
    const answer = await signIn(op, jar, fresh);
    expect(op.answered.slice(3)).toEqual(['login', 'consent']);
    expect(answer).toHaveProperty('refresh_token');
    expect(answer.scope).toBe('openid offline_access');
    // One prompt value, as Entra ID would take it too.
    expect(fresh).toEqual({ scope: 'openid offline_access', prompt: 'consent', max_age: '0' });
  });
});

/** The token endpoint's or revocation endpoint's answer to `fields` (the extension's public client). */
async function post(op: OpenIdProvider, path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${op.issuer}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: SANDBOX_CLIENT_ID, ...fields }).toString(),
  });
}

describe('oidc-provider at its defaults, a sign-in replacing another in the same browser', () => {
  let op: OpenIdProvider | undefined;
  afterEach(() => op?.close());

  it('shares the grant, so the old refresh token is revoked before the new sign-in, not after', async () => {
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris: [REDIRECT_URI],
      sandbox: { url: 'http://127.0.0.1:9', otherKeys: new Set() },
    });
    const params = authorizationParams('', await factsFrom(op), false);
    const jar = new Jar();
    const revoke = (token: unknown) =>
      post(op!, OIDC_PATHS.revocation, { token: String(token), token_type_hint: 'refresh_token' });
    const renew = (token: unknown) =>
      post(op!, OIDC_PATHS.token, { grant_type: 'refresh_token', refresh_token: String(token) });

    // Revoked after the new sign-in: its revokeGrantPolicy ends the grant both belong to.
    const first = await signIn(op, jar, params);
    const second = await signIn(op, jar, params);
    expect((await revoke(first.refresh_token)).status).toBe(200);
    const refused = await renew(second.refresh_token);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });

    // Revoked before (sign-in.ts): the new sign-in gets a grant of its own, and renews.
    const third = await signIn(op, jar, params);
    expect((await revoke(third.refresh_token)).status).toBe(200);
    const fourth = await signIn(op, jar, params);
    expect((await renew(fourth.refresh_token)).status).toBe(200);
  });
});
