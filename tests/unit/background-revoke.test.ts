// @vitest-environment node
/**
 * Disconnect ends a sign-in's refresh token at the panel's revocation endpoint
 * (RFC 7009), here the sandbox's real one over HTTP, and always forgets it in the browser.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { storeCheckedSession } from '../../entrypoints/background/session/session';
import { OAUTH_PATHS, SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { settings } from '../../utils/settings';
import { sessionItem } from '../../utils/storage-items';
import { connectTo, deliver } from './background-helpers';
import { installIdentity, actAsPanelist, signInSandbox, storeSignedIn } from './sign-in-helpers';

const env = signInSandbox();
let unregister: () => void;
beforeEach(() => {
  settings.oauth = { ...settings.oauth, revocationEndpoint: `${env.sandbox.url}${OAUTH_PATHS.revocation}` };
  unregister = registerHandlers();
});
afterEach(() => {
  settings.oauth = { ...settings.oauth, revocationEndpoint: '' };
  unregister();
});

type Reply = { ok: boolean; data?: { connected: boolean; revocationFailed?: boolean } };
const disconnect = () => deliver('disconnect', undefined) as Promise<Reply>;
const revocationRequests = () => env.sandbox.requests.filter((r) => r.path === OAUTH_PATHS.revocation);
const refreshWith = (refreshToken: string) =>
  fetch(`${env.sandbox.url}${OAUTH_PATHS.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: SANDBOX_CLIENT_ID,
      refresh_token: refreshToken,
    }).toString(),
  }).then((r) => r.status);
const fault = (rule: object) =>
  fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });

describe('Disconnect and the sign-in at the panel', () => {
  it('a renewal answered after Disconnect is ended at the panel too: no refresh token issued to the extension still renews', async () => {
    await storeSignedIn(env.sandbox);
    env.sandbox.oauth.expireAccessTokens();
    // The token endpoint rotates the refresh token at once and holds its answer back.
    await fault({ path: OAUTH_PATHS.token, holdMs: 300 });
    const tokenRequests = () => env.sandbox.requests.filter((r) => r.path === OAUTH_PATHS.token).length;
    const before = tokenRequests();
    const reading = deliver('refreshRewards', { force: true });
    while (tokenRequests() === before) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await disconnect()).toMatchObject({ ok: true });
    await reading;
    await env.sandbox.idle();
    // The answer landed for a session that had ended: its new refresh token was revoked, never stored.
    await expect.poll(() => env.sandbox.oauth.liveRefreshTokens(), { timeout: 2000 }).toEqual([]);
    expect(await credentialsItem.getValue()).toBeNull();
  });

  it('revokes the refresh token at the revocation endpoint: the panel refuses it and its access token afterwards', async () => {
    const tokens = await storeSignedIn(env.sandbox);
    expect(await disconnect()).toEqual({ ok: true, data: expect.objectContaining({ connected: false }) });
    expect((await disconnect()).data?.revocationFailed).toBeUndefined();

    const [request] = revocationRequests();
    expect(revocationRequests()).toHaveLength(1);
    expect(request?.method).toBe('POST');
    const form = new URLSearchParams(String(request?.body));
    expect(Object.fromEntries(form)).toEqual({
      token: tokens.refreshToken,
      token_type_hint: 'refresh_token',
      client_id: SANDBOX_CLIENT_ID,
    });
    expect(env.sandbox.oauth.revocations).toEqual(['refresh_token']);
    expect(await refreshWith(tokens.refreshToken)).toBe(400);
    const read = await fetch(`${env.sandbox.url}/v1/panel/rewards`, {
      headers: { Authorization: `Bearer ${tokens.token}` },
    });
    expect(read.status).toBe(401);
    expect(await credentialsItem.getValue()).toBeNull();
  });

  it.each([
    ['answers 503', { path: OAUTH_PATHS.revocation, status: 503, body: '{"error":"temporarily_unavailable"}' }],
    ['refuses the client', { path: OAUTH_PATHS.revocation, status: 401, body: '{"error":"invalid_client"}' }],
    ['drops the connection', { path: OAUTH_PATHS.revocation, drop: true }],
  ])('forgets the tokens all the same when the panel %s, and says the panel was not told', async (_, rule) => {
    await storeSignedIn(env.sandbox);
    await fault(rule);
    const reply = await disconnect();
    expect(reply).toMatchObject({ ok: true, data: { connected: false, revocationFailed: true } });
    expect(await credentialsItem.getValue()).toBeNull();
    expect((await sessionItem.getValue()).connected).toBe(false);
    expect(revocationRequests()).toHaveLength(1);
  });

  it('sends nothing without a configured endpoint, and never sends a pasted personal key', async () => {
    settings.oauth = { ...settings.oauth, revocationEndpoint: '' };
    const tokens = await storeSignedIn(env.sandbox);
    expect(await disconnect()).toMatchObject({ ok: true, data: { connected: false } });
    expect(revocationRequests()).toHaveLength(0);
    // Forgotten here, still valid at the panel: what an operator without the endpoint chose.
    expect(await refreshWith(tokens.refreshToken)).toBe(200);

    settings.oauth = { ...settings.oauth, revocationEndpoint: `${env.sandbox.url}${OAUTH_PATHS.revocation}` };
    await connectTo(env.sandbox);
    expect((await disconnect()).data?.revocationFailed).toBeUndefined();
    expect(revocationRequests()).toHaveLength(0);
  });

  it('a session that keeps its refresh token (the same sign-in stored again) never revokes the token it goes on using', async () => {
    await storeSignedIn(env.sandbox);
    const { session: _session, ...kept } = (await credentialsItem.getValue())!;
    await storeCheckedSession(kept, env.sandbox.url, { signedIn: true });
    await env.sandbox.idle();
    expect(revocationRequests()).toHaveLength(0);
    expect(await refreshWith(kept.refreshToken!)).toBe(200);
  });

  it('a sign-in that replaces another ends the old refresh token at the panel', async () => {
    const old = await storeSignedIn(env.sandbox);
    installIdentity((url) => actAsPanelist(url));
    expect(await deliver('signIn', undefined)).toMatchObject({ ok: true });
    await expect.poll(() => env.sandbox.oauth.revocations).toEqual(['refresh_token']);
    expect(await refreshWith(old.refreshToken)).toBe(400);
    const now = await credentialsItem.getValue();
    expect(now?.refreshToken).not.toBe(old.refreshToken);
    expect(await refreshWith(now!.refreshToken!)).toBe(200);
  });
});
