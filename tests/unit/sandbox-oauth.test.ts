// @vitest-environment node
/** The sandbox's authorization server over real HTTP: the code flow with PKCE, rotation, refusals. */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_CLIENT_ID, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { startSandbox, type Sandbox } from '../sandbox/server';

const REDIRECT = 'https://abcdefghijklmnop.chromiumapp.org/';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const verifierFor = () => randomBytes(32).toString('base64url');
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function authorizeUrl(overrides: Record<string, string | null> = {}, verifier = verifierFor()): string {
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: SANDBOX_CLIENT_ID,
    redirect_uri: REDIRECT,
    code_challenge: challengeOf(verifier),
    code_challenge_method: 'S256',
    state: 'state-123',
    ...overrides,
  };
  const url = new URL(`${sandbox.url}/oauth/authorize`);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

const txnIn = (html: string) => /name="txn" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** Signs in on the page and answers the consent form; returns where the browser would be sent. */
async function signInAndDecide(verifier: string, decision: 'allow' | 'deny' = 'allow', overrides = {}): Promise<URL> {
  const page = await fetch(authorizeUrl(overrides, verifier));
  expect(page.status).toBe(200);
  const txn = txnIn(await page.text());
  const consent = await fetch(
    `${sandbox.url}/oauth/authorize`,
    form({ txn, email: SANDBOX_EMAIL, password: SANDBOX_PASSWORD }),
  );
  expect(await consent.text()).toContain('Allow');
  const back = await fetch(`${sandbox.url}/oauth/decision`, form({ txn, decision }));
  expect(back.status).toBe(302);
  return new URL(back.headers.get('location') ?? '');
}

async function token(fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}/oauth/token`, form(fields));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  token({
    grant_type: 'authorization_code',
    client_id: SANDBOX_CLIENT_ID,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    ...extra,
  });

const rewards = (accessToken: string) =>
  fetch(`${sandbox.url}/v1/panel/rewards`, { headers: { Authorization: `Bearer ${accessToken}` } }).then(
    (r) => r.status,
  );

async function signedIn(): Promise<{ access: string; refresh: string; expiresIn: number }> {
  const verifier = verifierFor();
  const back = await signInAndDecide(verifier);
  const { status, body } = await exchange(back.searchParams.get('code') ?? '', verifier);
  expect(status).toBe(200);
  return {
    access: body.access_token as string,
    refresh: body.refresh_token as string,
    expiresIn: body.expires_in as number,
  };
}

describe('sandbox authorization server', () => {
  it('signs a panelist in, returns code and state to the redirect URL, and issues tokens the API accepts', async () => {
    const verifier = verifierFor();
    const back = await signInAndDecide(verifier);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-123');
    const { status, body } = await exchange(back.searchParams.get('code') ?? '', verifier);
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(typeof body.refresh_token).toBe('string');
    expect(await rewards(body.access_token as string)).toBe(200);
    expect(await rewards('not-a-token')).toBe(401);
  });

  it('shows a wrong password on its own page and keeps the e-mail typed', async () => {
    const txn = txnIn(await (await fetch(authorizeUrl())).text());
    const page = await fetch(`${sandbox.url}/oauth/authorize`, form({ txn, email: SANDBOX_EMAIL, password: 'wrong' }));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Wrong e-mail or password');
    expect(html).toContain(`value="${SANDBOX_EMAIL}"`);
  });

  it('sends access_denied back when the panelist denies', async () => {
    const back = await signInAndDecide(verifierFor(), 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('state-123');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('never redirects for an unknown client or an unregistered redirect URL', async () => {
    for (const overrides of [{ client_id: 'someone-else' }, { redirect_uri: 'https://evil.example/' }] as Record<
      string,
      string
    >[]) {
      const page = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull();
    }
    await fetch(`${sandbox.url}/__sandbox/oauth`, {
      method: 'PATCH',
      body: JSON.stringify({ redirectUris: ['https://only.chromiumapp.org/'] }),
    });
    expect((await fetch(authorizeUrl(), { redirect: 'manual' })).status).toBe(400);
  });

  it('refuses an authorization request without S256 PKCE, back at the redirect URL', async () => {
    for (const overrides of [{ code_challenge_method: 'plain' }, { code_challenge: null }] as Record<
      string,
      string | null
    >[]) {
      const page = await fetch(authorizeUrl(overrides), { redirect: 'manual' });
      expect(page.status).toBe(302);
      expect(new URL(page.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('refuses a wrong verifier, a reused code and a wrong redirect_uri with invalid_grant', async () => {
    const verifier = verifierFor();
    const wrongVerifier = await exchange(
      (await signInAndDecide(verifier)).searchParams.get('code') ?? '',
      verifierFor(),
    );
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const code = (await signInAndDecide(verifier)).searchParams.get('code') ?? '';
    const wrongRedirect = await exchange(code, verifier, { redirect_uri: 'https://other.chromiumapp.org/' });
    expect(wrongRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const good = (await signInAndDecide(verifier)).searchParams.get('code') ?? '';
    const first = await exchange(good, verifier);
    expect(first.status).toBe(200);
    expect(await exchange(good, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // What the replayed code had given is revoked.
    expect(await rewards(first.body.access_token as string)).toBe(401);
  });

  it('refuses a wrong client id with invalid_client and an unknown grant type with unsupported_grant_type', async () => {
    const verifier = verifierFor();
    const code = (await signInAndDecide(verifier)).searchParams.get('code') ?? '';
    expect(await exchange(code, verifier, { client_id: 'someone-else' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await token({ grant_type: 'password', client_id: SANDBOX_CLIENT_ID })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
  });

  it('rotates refresh tokens: the new pair works, the old refresh token is refused and revokes the family', async () => {
    const first = await signedIn();
    const renewed = await token({
      grant_type: 'refresh_token',
      client_id: SANDBOX_CLIENT_ID,
      refresh_token: first.refresh,
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.refresh_token).not.toBe(first.refresh);
    expect(await rewards(renewed.body.access_token as string)).toBe(200);

    const replay = await token({
      grant_type: 'refresh_token',
      client_id: SANDBOX_CLIENT_ID,
      refresh_token: first.refresh,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await rewards(renewed.body.access_token as string)).toBe(401);
  });

  it('lets tests set the access-token lifetime, expire tokens now and revoke access', async () => {
    await fetch(`${sandbox.url}/__sandbox/oauth`, {
      method: 'PATCH',
      body: JSON.stringify({ accessTokenTtlSeconds: 5 }),
    });
    const tokens = await signedIn();
    expect(tokens.expiresIn).toBe(5);
    expect(await rewards(tokens.access)).toBe(200);
    await fetch(`${sandbox.url}/__sandbox/oauth/expire`, { method: 'POST' });
    expect(await rewards(tokens.access)).toBe(401);

    const renewed = await token({
      grant_type: 'refresh_token',
      client_id: SANDBOX_CLIENT_ID,
      refresh_token: tokens.refresh,
    });
    expect(await rewards(renewed.body.access_token as string)).toBe(200);
    await fetch(`${sandbox.url}/__sandbox/oauth/revoke`, { method: 'POST' });
    const refused = await token({
      grant_type: 'refresh_token',
      client_id: SANDBOX_CLIENT_ID,
      refresh_token: renewed.body.refresh_token as string,
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('answers the CORS preflight of the token endpoint and marks token answers no-store', async () => {
    const preflight = await fetch(`${sandbox.url}/oauth/token`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    const { status } = await token({ grant_type: 'refresh_token', client_id: SANDBOX_CLIENT_ID, refresh_token: 'x' });
    expect(status).toBe(400);
    const response = await fetch(`${sandbox.url}/oauth/token`, form({}));
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('revokes a refresh token with its grant (RFC 7009): the refresh is refused and its access token too', async () => {
    const tokens = await signedIn();
    const other = await signedIn();
    const answer = await fetch(
      `${sandbox.url}/oauth/revocation`,
      form({ token: tokens.refresh, token_type_hint: 'refresh_token', client_id: SANDBOX_CLIENT_ID }),
    );
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('');
    expect(
      await token({ grant_type: 'refresh_token', client_id: SANDBOX_CLIENT_ID, refresh_token: tokens.refresh }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await rewards(tokens.access)).toBe(401);
    // Another sign-in's grant is untouched.
    expect(await rewards(other.access)).toBe(200);
    expect(sandbox.oauth.revocations).toEqual(['refresh_token']);
  });

  it('revokes an access token alone, answers 200 for a token it does not know, and refuses an unknown client or no token', async () => {
    const tokens = await signedIn();
    const revoke = (fields: Record<string, string>) =>
      fetch(`${sandbox.url}/oauth/revocation`, form({ client_id: SANDBOX_CLIENT_ID, ...fields }));
    expect((await revoke({ token: tokens.access })).status).toBe(200);
    expect(await rewards(tokens.access)).toBe(401);
    expect(
      (await token({ grant_type: 'refresh_token', client_id: SANDBOX_CLIENT_ID, refresh_token: tokens.refresh }))
        .status,
    ).toBe(200);
    expect((await revoke({ token: 'never-issued', token_type_hint: 'refresh_token' })).status).toBe(200);
    expect(sandbox.oauth.revocations).toEqual(['access_token', 'unknown']);

    const foreign = await fetch(`${sandbox.url}/oauth/revocation`, form({ client_id: 'someone-else', token: 'x' }));
    expect(foreign.status).toBe(401);
    expect(await foreign.json()).toMatchObject({ error: 'invalid_client' });
    const empty = await revoke({});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: 'invalid_request' });
  });
});
