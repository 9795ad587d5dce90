// @vitest-environment node
/**
 * Renewal's edges (tokens.ts), against the sandbox's token endpoint over real HTTP: which calls a
 * 401 renews and repeats, a renewal that belongs to an ended session or to credentials that changed
 * while it was out, the wait after a 429, and what each failure of the token endpoint is called.
 */
import * as oauth from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { ENDPOINTS } from '../../utils/api/client';
import { oauthSettingsFor, signInSandbox, storeSignedIn } from './sign-in-helpers';
import { rid } from './test-ids';

type Tokens = typeof import('../../entrypoints/background/auth/tokens');
let renew: Tokens['renew'];
let renewingApi: Tokens['renewingApi'];
let tokenEndpointError: Tokens['tokenEndpointError'];
let usableCredentials: Tokens['usableCredentials'];

const env = signInSandbox();
// Each test renews in a worker that has just started: the background's modules are loaded anew,
// pointed at this file's sandbox. tokens.ts keeps the wait a 429 asked for as long as the worker
// lives, so in a shared copy one test's 429 would refuse every later test's renewal.
beforeEach(async () => {
  vi.resetModules();
  ({ renew, renewingApi, tokenEndpointError, usableCredentials } =
    await import('../../entrypoints/background/auth/tokens'));
  const { settings } = await import('../../utils/settings');
  Object.assign(settings, { apiBaseUrl: env.sandbox.url, oauth: oauthSettingsFor(env.sandbox) });
});
afterEach(() => vi.restoreAllMocks());

const TOKEN = '/oauth/token';
const control = (path: string) => fetch(`${env.sandbox.url}/__sandbox${path}`, { method: 'POST' });
const fault = (rule: object) =>
  fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
const tokenRequests = () => env.sandbox.requests.filter((r) => r.path === TOKEN).length;
const clearRequests = () => void (env.sandbox.requests.length = 0);
const stored = async () => (await credentialsItem.getValue())!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('which calls a 401 renews', () => {
  it('every read and profile write that met a 401 is renewed once and repeated, not refused as a redeem', async () => {
    await storeSignedIn(env.sandbox);
    const calls: Array<[string, (api: ReturnType<typeof renewingApi>) => Promise<unknown>]> = [
      [ENDPOINTS.variablesMeta, (api) => api.revalidate('variablesMeta', null)],
      [ENDPOINTS.variablesData, (api) => api.revalidate('variablesData', null)],
      [ENDPOINTS.variablesData, (api) => api.updateValues({ FIRST_NAME: 'Robin' })],
      [`${ENDPOINTS.variablesData}/FIRST_NAME`, (api) => api.deleteValue('FIRST_NAME')],
      [ENDPOINTS.redemptions, (api) => api.listRedemptions()],
      [ENDPOINTS.rewards, (api) => api.revalidate('rewards', null)],
    ];
    for (const [path, call] of calls) {
      await control('/oauth/expire');
      clearRequests();
      await call(renewingApi(await stored()));
      expect(
        env.sandbox.requests.map((r) => r.path),
        path,
      ).toEqual([path, TOKEN, path]);
    }
    expect(env.sandbox.state.values).not.toHaveProperty('FIRST_NAME');
  });

  it('a redeem that met a 401 is refused, naming the redemption endpoint, and not sent again; its words claim nothing about points', async () => {
    await storeSignedIn(env.sandbox);
    await control('/oauth/expire');
    clearRequests();
    await expect(renewingApi(await stored()).redeem(rid(101), 'key-1')).rejects.toMatchObject({
      error: {
        kind: 'rejected',
        status: 401,
        endpoint: ENDPOINTS.redemption,
        // That copy was refused; whether another was charged only the history read after it says.
        message: 'Your sign-in had expired, so the panel refused this request; your sign-in has now been renewed.',
      },
    });
    expect(env.sandbox.requests.map((r) => r.path)).toEqual([ENDPOINTS.redemption, TOKEN]);
  });

  it('a 5xx from the panel API keeps the session and asks for no renewal', async () => {
    await storeSignedIn(env.sandbox);
    await fault({ path: ENDPOINTS.rewards, status: 500, times: 10 });
    clearRequests();
    await expect(renewingApi(await stored()).revalidate('rewards', null)).rejects.toMatchObject({
      error: { kind: 'server' },
    });
    expect(tokenRequests()).toBe(0);
  });
});

describe('a renewal that belongs to a session', () => {
  it('credentials without a refresh token are not renewed: sign in again, and nothing is sent', async () => {
    await storeSignedIn(env.sandbox);
    const { refreshToken: _r, ...pasted } = await stored();
    clearRequests();
    await expect(renew(pasted)).rejects.toMatchObject({
      error: { kind: 'unauthorized', status: 401, message: expect.stringMatching(/Sign in again/) },
    });
    expect(tokenRequests()).toBe(0);
  });

  it('a renewal asked for an ended session sends nothing and hands out no other session’s credentials', async () => {
    await storeSignedIn(env.sandbox);
    const ended = await stored();
    await storeSignedIn(env.sandbox);
    clearRequests();
    await expect(renew(ended)).rejects.toMatchObject({
      error: { kind: 'not_connected', message: expect.stringMatching(/account changed/) },
    });
    await credentialsItem.setValue(null);
    await expect(renew(ended)).rejects.toMatchObject({ error: { kind: 'not_connected' } });
    expect(tokenRequests()).toBe(0);
  });

  it('a renewal answer is not stored over credentials whose refresh token was forgotten while it was out', async () => {
    await storeSignedIn(env.sandbox);
    const before = await stored();
    await fault({ path: TOKEN, delayMs: 200 });
    clearRequests();
    const renewal = renew(before);
    while (tokenRequests() === 0) await sleep(5);
    // As a refusal elsewhere does: the refresh token goes, the session stays.
    const { refreshToken: _r, expiresAt: _e, ...forgotten } = before;
    await credentialsItem.setValue(forgotten);
    await expect(renewal).rejects.toMatchObject({ error: { kind: 'not_connected' } });
    expect(await stored()).toEqual(forgotten);
  });

  it('renews an access token from exactly 30 s before its expiry', async () => {
    await storeSignedIn(env.sandbox);
    const credentials = await stored();
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    clearRequests();
    const renewed = await usableCredentials({ ...credentials, expiresAt: now + 30_000 });
    expect(renewed.token).not.toBe(credentials.token);
    expect(tokenRequests()).toBe(1);
  });

  it('without a session the error says to connect first', async () => {
    await expect(usableCredentials(null)).rejects.toMatchObject({
      error: { kind: 'not_connected', message: expect.stringMatching(/Not connected yet/) },
    });
  });

  it('after a 429 the token endpoint is left alone for the time it asked, said in seconds', async () => {
    await storeSignedIn(env.sandbox);
    await fault({ path: TOKEN, status: 429, headers: { 'Retry-After': '60' } });
    clearRequests();
    await expect(renew(await stored())).rejects.toMatchObject({
      error: { kind: 'rate_limited', retryAfterSeconds: 60 },
    });
    const again = renew(await stored());
    await expect(again).rejects.toMatchObject({ error: { kind: 'rate_limited', endpoint: 'token', status: 429 } });
    const seconds = ((await again.catch((err) => err)) as { error: { retryAfterSeconds: number; message: string } })
      .error;
    expect(seconds.retryAfterSeconds).toBeGreaterThan(0);
    expect(seconds.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(seconds.message).toContain(`${seconds.retryAfterSeconds} seconds`);
    expect(tokenRequests()).toBe(1);
  });
});

describe('what a failed token request is called', () => {
  const renewing = (error: unknown) => tokenEndpointError(error, 'renew', ['secret-refresh']);

  it('names the token endpoint whatever went wrong', () => {
    const bare = (status: number, headers: Record<string, string> = {}) =>
      new oauth.OperationProcessingError('status', { cause: new Response('', { status, headers }) });
    expect(renewing(bare(429, { 'Retry-After': '7' }))).toMatchObject({ endpoint: 'token' });
    expect(renewing(new TypeError('fetch failed'))).toMatchObject({ kind: 'network', endpoint: 'token' });
    expect(renewing(new oauth.OperationProcessingError('odd'))).toMatchObject({
      message: expect.stringMatching(/answer the extension does not understand/),
    });
  });

  it('an OAuth error code is shown only when it is a code, whole', () => {
    const body = (error: string) =>
      new oauth.ResponseBodyError('refused', { cause: { error }, response: new Response('{}', { status: 400 }) });
    expect(tokenEndpointError(body('invalid_grant then more'), 'sign-in', [])).toMatchObject({
      message: expect.stringMatching(/\(HTTP 400\)/),
    });
  });

  it('only the fetch’s own time-out is a time-out, and only a response is read for its status', () => {
    expect(renewing(new DOMException('stopped', 'AbortError'))).toMatchObject({ kind: 'network' });
    expect(renewing(Object.assign(new Error('late'), { name: 'TimeoutError' }))).toMatchObject({ kind: 'network' });
    expect(renewing(new oauth.OperationProcessingError('odd', { cause: { status: 503 } }))).toMatchObject({
      kind: 'unexpected',
    });
    expect(renewing(new TypeError('fetch failed', { cause: new Response('', { status: 503 }) }))).toMatchObject({
      kind: 'network',
    });
  });
});
