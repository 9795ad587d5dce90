// @vitest-environment node
/** Signed-in tokens renew themselves: expiry, 401, single flight, redeem, refusal. */
import * as oauth from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { credentialsFrom, tokenEndpointError, usableCredentials } from '../../entrypoints/background/auth/tokens';
import { ledgerItem, profileDraftItem, rewardsItem, sessionItem } from '../../utils/storage-items';
import { activeSessionId, apiRequests, connectTo, deliver } from './background-helpers';
import { signInSandbox, storeSignedIn } from './sign-in-helpers';

const env = signInSandbox();
let unregister: () => void;
beforeEach(() => {
  unregister = registerHandlers();
});
afterEach(() => unregister());

type Reply = { ok: boolean; data?: unknown; error?: { kind: string; message: string } };
const send = (type: string, data?: unknown) => deliver(type, data) as Promise<Reply>;
const control = (path: string, body?: unknown) =>
  fetch(`${env.sandbox.url}/__sandbox${path}`, {
    method: body === undefined ? 'POST' : 'PATCH',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const tokenRequests = () => env.sandbox.requests.filter((r) => r.path === '/oauth/token');
const clearRequests = () => void (env.sandbox.requests.length = 0);

describe('tokens that renew themselves', () => {
  it('an access token past its expires_in is renewed before the call, which then goes out once', async () => {
    const first = await storeSignedIn(env.sandbox);
    const stored = await credentialsItem.getValue();
    await credentialsItem.setValue({ ...stored!, expiresAt: Date.now() - 1 });
    clearRequests();

    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
    expect(env.sandbox.requests.map((r) => r.path)).toEqual(['/oauth/token', '/v1/panel/rewards']);
    expect(String(tokenRequests()[0]?.body)).toContain('grant_type=refresh_token');
    const renewed = await credentialsItem.getValue();
    expect(renewed?.token).not.toBe(first.token);
    expect(renewed?.refreshToken).not.toBe(first.refreshToken);
    expect(renewed?.expiresAt).toBeGreaterThan(Date.now());
  });

  it('a 401 is met by one renewal and the read is repeated once', async () => {
    await storeSignedIn(env.sandbox);
    await control('/oauth/expire');
    clearRequests();

    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
    expect(env.sandbox.requests.map((r) => r.path)).toEqual(['/v1/panel/rewards', '/oauth/token', '/v1/panel/rewards']);
    expect((await sessionItem.getValue()).rejected).toBe(false);
  });

  it('concurrent calls wait for the one renewal (single flight)', async () => {
    await storeSignedIn(env.sandbox);
    await control('/oauth/expire');
    clearRequests();

    const replies = await Promise.all([
      send('refreshRewards', { force: true }),
      send('refreshHistory', { force: true }),
      send('refreshProfile', { force: true }),
    ]);
    expect(replies.every((r) => r.ok)).toBe(true);
    expect(tokenRequests()).toHaveLength(1);
    // The one rotated refresh token is the one kept: a second use of the old one would be refused.
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
  });

  it('a redeem that met a 401 is not repeated: the history shows nothing spent, and the panelist confirms again', async () => {
    await storeSignedIn(env.sandbox);
    const balance = env.sandbox.state.balance;
    await control('/oauth/expire');
    clearRequests();

    const reply = await send('redeem', { session: await activeSessionId(), rewardId: 101, points: 500 });
    expect(apiRequests(env.sandbox, '/v1/panel/redemption')).toBe(1);
    expect(tokenRequests()).toHaveLength(1);
    expect(env.sandbox.state.balance).toBe(balance);
    const entry = await ledgerItem.getValue();
    expect(entry).toMatchObject({ state: 'failed', error: { nothingCharged: true } });
    expect(entry?.error?.message).toMatch(/sign-in had expired, so the panel refused this request.*renewed/);
    expect(JSON.stringify(reply)).toContain('failed');
    expect((await sessionItem.getValue()).rejected).toBe(false);

    // Confirming again goes through with the renewed token.
    await send('dismissRedemption');
    await send('redeem', { session: await activeSessionId(), rewardId: 101, points: 500 });
    expect(apiRequests(env.sandbox, '/v1/panel/redemption')).toBe(2);
    expect((await ledgerItem.getValue())?.state).toBe('done');
  });

  it('a refused refresh asks to sign in again and loses nothing else', async () => {
    await storeSignedIn(env.sandbox);
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
    await profileDraftItem.setValue({ FIRST_NAME: 'Robin' });
    await control('/oauth/revoke');
    clearRequests();

    const reply = await send('refreshRewards', { force: true });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(reply.error?.message).toMatch(/Sign in again/);
    expect(tokenRequests()).toHaveLength(1);
    expect(await sessionItem.getValue()).toMatchObject({ connected: true, rejected: true, signedIn: true });
    expect(await rewardsItem.getValue()).not.toBeNull();
    expect(await profileDraftItem.getValue()).toEqual({ FIRST_NAME: 'Robin' });
    // The refused refresh token is not sent again.
    expect((await credentialsItem.getValue())?.refreshToken).toBeUndefined();
    await send('refreshRewards', { force: true });
    expect(tokenRequests()).toHaveLength(1);
  });

  it('an unreachable token endpoint is not a refusal: the session and refresh token stay', async () => {
    const { refreshToken } = await storeSignedIn(env.sandbox);
    await control('/oauth/expire');
    await fetch(`${env.sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/oauth/token', drop: true }),
    });

    const reply = await send('refreshRewards', { force: true });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect((await sessionItem.getValue()).rejected).toBe(false);
    expect((await credentialsItem.getValue())?.refreshToken).toBe(refreshToken);
    // The next try renews.
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
  });

  it('a renewal answer that arrives after disconnecting is dropped', async () => {
    await storeSignedIn(env.sandbox);
    await control('/oauth/expire');
    await fetch(`${env.sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/oauth/token', delayMs: 300 }),
    });

    const pending = send('refreshRewards', { force: true });
    // Disconnect once the renewal has left.
    while (tokenRequests().length === 0) await new Promise((r) => setTimeout(r, 10));
    await send('disconnect');
    const reply = await pending;
    expect(reply.ok).toBe(false);
    expect(await credentialsItem.getValue()).toBeNull();
  });

  it('pasted tokens are used as they are, never renewed', async () => {
    await connectTo(env.sandbox, { token: 'wrong-token' });
    clearRequests();
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(tokenRequests()).toHaveLength(0);
  });
});

describe('what a token answer means (tokens.ts)', () => {
  const body = (status: number, error: string, headers: Record<string, string> = {}) =>
    new oauth.ResponseBodyError('refused', {
      cause: { error, error_description: 'no' },
      response: new Response('{}', { status, headers }),
    });
  const bare = (status: number, headers: Record<string, string> = {}) =>
    new oauth.OperationProcessingError('status', { cause: new Response('', { status, headers }) });
  const renewing = (error: unknown) => tokenEndpointError(error, 'renew', ['secret-refresh']);

  it('at renewal only the server’s own OAuth refusal means signing in again; 429 waits, the rest keeps the session', () => {
    expect(renewing(body(400, 'invalid_grant'))).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      endpoint: 'token',
      message: expect.stringMatching(/Sign in again/),
    });
    expect(renewing(body(401, 'invalid_client'))).toMatchObject({ kind: 'unauthorized', status: 401 });
    for (const code of [
      'invalid_request',
      'unauthorized_client',
      'unsupported_grant_type',
      'invalid_scope',
      // OpenID Connect's: a new sign-in step is due (Entra ID answers a refresh so when MFA is).
      'interaction_required',
      'login_required',
      'consent_required',
    ])
      expect(renewing(body(400, code)), code).toMatchObject({ kind: 'unauthorized', status: 401 });
    // A passing fault or a code RFC 6749 does not define for this endpoint is no reason to sign out.
    for (const code of ['server_error', 'use_dpop_nonce', 'slow_down'])
      expect(renewing(body(400, code)), code).toMatchObject({
        kind: 'rejected',
        status: 400,
        message: expect.stringMatching(/could not be renewed just now \(HTTP 400\).*stay signed in/),
      });
    expect(renewing(body(400, 'temporarily_unavailable'))).toMatchObject({
      kind: 'rejected',
      status: 400,
      message: expect.stringMatching(/could not be renewed just now \(HTTP 400\).*stay signed in/),
    });
    expect(renewing(bare(403))).toMatchObject({
      kind: 'rejected',
      status: 403,
      message: expect.stringMatching(/HTTP 403/),
    });
    expect(renewing(bare(429, { 'Retry-After': '7' }))).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterSeconds: 7,
      message: expect.stringMatching(/7 seconds.*stay signed in/),
    });
    expect(renewing(body(429, 'slow_down'))).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 30 });
    expect(renewing(bare(503))).toMatchObject({
      kind: 'server',
      status: 503,
      message: expect.stringMatching(/HTTP 503/),
    });
    expect(renewing(bare(599))).toMatchObject({ kind: 'server' });
    expect(renewing(new oauth.OperationProcessingError('odd'))).toMatchObject({
      kind: 'unexpected',
      endpoint: 'token',
    });
    expect(renewing(new oauth.UnsupportedOperationError('odd'))).toMatchObject({ kind: 'unexpected' });
    expect(renewing(new DOMException('late', 'TimeoutError'))).toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/renew your sign-in/),
    });
    expect(renewing(new TypeError('fetch failed'))).toMatchObject({
      kind: 'network',
      message: expect.stringMatching(/renew your sign-in/),
    });
    expect(renewing(bare(399))).toMatchObject({ kind: 'unexpected' });
  });

  it('at sign-in a 4xx is a refusal naming the OAuth code (or the status), with nothing secret in it', () => {
    const signingIn = (error: unknown) => tokenEndpointError(error, 'sign-in', ['secret-code']);
    expect(signingIn(body(400, 'invalid_grant'))).toMatchObject({
      kind: 'rejected',
      status: 400,
      message: expect.stringMatching(/\(invalid_grant\)/),
    });
    expect(signingIn(body(400, 'Not A Code'))).toMatchObject({ message: expect.stringMatching(/\(HTTP 400\)/) });
    expect(signingIn(body(400, 'secret-code'))).toMatchObject({ message: expect.not.stringMatching(/secret-code/) });
    expect(signingIn(bare(429))).toMatchObject({ kind: 'rejected', status: 429 });
    expect(signingIn(new TypeError('fetch failed'))).toMatchObject({
      kind: 'network',
      message: expect.stringMatching(/press “Sign in” again/),
    });
  });

  it('a 401 with a WWW-Authenticate challenge is read as the refusal it is, not as no answer', async () => {
    // What oauth4webapi itself throws for RFC 6749 §5.2's invalid_client over a Basic header: it
    // reads the challenge before the body, so the code comes from the challenge.
    const challenged = async (header: string) => {
      const as = { issuer: 'https://id.example', token_endpoint: 'https://id.example/token' };
      const response = new Response('{"error":"invalid_client"}', {
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': header },
      });
      return oauth.processRefreshTokenResponse(as, { client_id: 'ext' }, response).then(
        () => expect.unreachable('a 401 passed'),
        (error: unknown) => error,
      );
    };
    const refusal = await challenged('Basic realm="panel", error="invalid_client"');
    expect(refusal).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect(renewing(refusal)).toMatchObject({ kind: 'unauthorized', status: 401, endpoint: 'token' });
    expect(tokenEndpointError(refusal, 'sign-in', [])).toMatchObject({
      kind: 'rejected',
      status: 401,
      message: expect.stringMatching(/\(invalid_client\)/),
    });
    // A challenge naming no code: the status is all that is known; the session waits, as for a bare 401.
    const unnamed = await challenged('Basic realm="panel"');
    expect(renewing(unnamed)).toMatchObject({
      kind: 'rejected',
      status: 401,
      message: expect.stringMatching(/HTTP 401/),
    });
    expect(tokenEndpointError(unnamed, 'sign-in', [])).toMatchObject({ kind: 'rejected', status: 401 });
  });

  it('credentials from a token answer keep the old refresh token when the server does not rotate, and the expiry when given', () => {
    const at = Date.now();
    const answer = { access_token: 'a', token_type: 'bearer' as Lowercase<string> };
    expect(credentialsFrom({ ...answer, refresh_token: 'r2', expires_in: 60 }, 'https://p', 'r1')).toEqual({
      baseUrl: 'https://p',
      token: 'a',
      refreshToken: 'r2',
      expiresAt: expect.any(Number),
    });
    expect(credentialsFrom({ ...answer, expires_in: 60 }, 'https://p', 'r1').expiresAt).toBeGreaterThanOrEqual(
      at + 60_000,
    );
    expect(credentialsFrom(answer, 'https://p', 'r1')).toEqual({
      baseUrl: 'https://p',
      token: 'a',
      refreshToken: 'r1',
    });
    expect(credentialsFrom(answer, 'https://p')).toEqual({ baseUrl: 'https://p', token: 'a' });
  });

  it('renews an access token from 30 s before its expiry, not earlier', async () => {
    await storeSignedIn(env.sandbox);
    const stored = (await credentialsItem.getValue())!;
    clearRequests();
    await credentialsItem.setValue({ ...stored, expiresAt: Date.now() + 31_000 });
    expect((await usableCredentials()).token).toBe(stored.token);
    expect(tokenRequests()).toHaveLength(0);
    await credentialsItem.setValue({ ...stored, expiresAt: Date.now() + 29_000 });
    expect((await usableCredentials()).token).not.toBe(stored.token);
    expect(tokenRequests()).toHaveLength(1);
    await expect(usableCredentials(null)).rejects.toMatchObject({ error: { kind: 'not_connected' } });
    // Without a refresh token an expired access token is used as it is: the panel says if it is refused.
    const { refreshToken: _r, ...pasted } = stored;
    expect(await usableCredentials({ ...pasted, expiresAt: 0 })).toMatchObject({ token: stored.token });
  });
});
