// @vitest-environment node
/**
 * Signed-in sessions when a renewal answers late, is refused, rate-limited or fails, or echoes the
 * refresh token, against the sandbox's authorization server over real HTTP. The races of the money
 * path and of accounts are in background-races.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { watchNotifications } from '../../entrypoints/background/notify/notifications';
import { preferencesItem, sessionItem, syncItem } from '../../utils/storage-items';
import { deliver, fakeNotifications, type Shown } from './background-helpers';
import { signInSandbox, storeSignedIn } from './sign-in-helpers';

const env = signInSandbox();
let stop: Array<() => void> = [];
let created: Shown[];
beforeEach(async () => {
  created = fakeNotifications();
  stop = [registerHandlers(), watchNotifications()];
  await preferencesItem.setValue({ badge: true, refreshMinutes: 30, notify: true });
});
afterEach(() => {
  stop.forEach((s) => s());
  vi.restoreAllMocks();
});

type Reply = { ok: boolean; data?: unknown; error?: { kind: string; message: string; retryAfterSeconds?: number } };
const send = (type: string, data?: unknown) => deliver(type, data) as Promise<Reply>;
const control = (path: string) => fetch(`${env.sandbox.url}/__sandbox${path}`, { method: 'POST' });
const fault = (rule: object) =>
  fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
const tokenRequests = () => env.sandbox.requests.filter((r) => r.path === '/oauth/token');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Signed in, with the access token already past its expiry: the next call renews it first. */
async function expiredSignIn(): Promise<{ token: string; refreshToken: string }> {
  const tokens = await storeSignedIn(env.sandbox);
  await credentialsItem.setValue({ ...(await credentialsItem.getValue())!, expiresAt: Date.now() - 1 });
  env.sandbox.requests.length = 0;
  return tokens;
}

describe('signed-in sessions, when the token endpoint answers late or fails', () => {
  it('a renewal answer that lands after a pasted key connected never puts the old sign-in back', async () => {
    await expiredSignIn();
    await fault({ path: '/oauth/token', delayMs: 300 });
    const renewing = send('refreshRewards', { force: true });
    while (tokenRequests().length === 0) await sleep(5);
    expect(await send('connect', { baseUrl: env.sandbox.url, token: env.sandbox.token })).toMatchObject({ ok: true });
    expect((await renewing).ok).toBe(false);
    expect(await credentialsItem.getValue()).toMatchObject({ token: env.sandbox.token });
    expect((await credentialsItem.getValue())?.refreshToken).toBeUndefined();
    // Every call from now on goes out with the pasted key, and none renews the old sign-in. The
    // connection's own warm-up reads (profile, history) may land among them on a busy machine.
    env.sandbox.requests.length = 0;
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
    const sent = env.sandbox.requests;
    expect(sent.filter((r) => r.path === '/v1/panel/rewards')).toHaveLength(1);
    expect(sent.map((r) => r.headers.authorization)).toEqual(sent.map(() => `Bearer ${env.sandbox.token}`));
  });

  it('a renewal answer that lands after a disconnect does not bring the tokens back', async () => {
    await expiredSignIn();
    await fault({ path: '/oauth/token', delayMs: 300 });
    const renewing = send('refreshRewards', { force: true });
    while (tokenRequests().length === 0) await sleep(5);
    await send('disconnect');
    expect((await renewing).ok).toBe(false);
    expect(await credentialsItem.getValue()).toBeNull();
    expect((await sessionItem.getValue()).connected).toBe(false);
  });

  it('a 429 from the token endpoint keeps the session, waits as Retry-After says, and renews after', async () => {
    const { refreshToken } = await expiredSignIn();
    await fault({ path: '/oauth/token', status: 429, headers: { 'Retry-After': '1' }, body: '{"error":"slow_down"}' });
    const reply = await send('refreshRewards', { force: true });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'rate_limited', retryAfterSeconds: 1 } });
    expect(await sessionItem.getValue()).toMatchObject({ connected: true, rejected: false });
    expect((await credentialsItem.getValue())?.refreshToken).toBe(refreshToken);
    // The refresh the panelist asked for shows the wait, and is not left loading.
    expect((await syncItem.getValue()).rewards).toMatchObject({ loading: false, error: { kind: 'rate_limited' } });
    // Within the wait nothing more is asked of the token endpoint.
    expect((await send('refreshRewards', { force: true })).ok).toBe(false);
    expect(tokenRequests()).toHaveLength(1);
    await sleep(1100);
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
    expect(tokenRequests()).toHaveLength(2);
  });

  it('a 500 at the token endpoint keeps the session and the refresh token', async () => {
    const { refreshToken } = await expiredSignIn();
    await fault({ path: '/oauth/token', status: 500 });
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: false, error: { kind: 'server' } });
    expect(await sessionItem.getValue()).toMatchObject({ connected: true, rejected: false });
    expect((await credentialsItem.getValue())?.refreshToken).toBe(refreshToken);
    expect(await send('refreshRewards', { force: true })).toMatchObject({ ok: true });
  });

  it('a panel error that echoes the refresh token reaches neither the reply nor the sync item', async () => {
    const { refreshToken, token } = await storeSignedIn(env.sandbox);
    await fault({
      path: '/v1/panel/rewards',
      status: 422,
      body: JSON.stringify({ message: `Refresh ${refreshToken} and ${token} refused`, field: refreshToken }),
    });
    const reply = await send('refreshRewards', { force: true });
    expect(reply.ok).toBe(false);
    const seen = JSON.stringify([reply, await syncItem.getValue()]);
    expect(seen).toContain('[token]');
    expect(seen).not.toContain(refreshToken);
    expect(seen).not.toContain(token);
  });

  it('a refused refresh token while the credentials are prepared says "Sign in again" at once, everywhere', async () => {
    await expiredSignIn();
    await control('/oauth/revoke');
    const reply = await send('refreshRewards', { force: true });
    expect(reply).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized', message: expect.stringMatching(/Sign in again/) },
    });
    // The popup and the options page read the session: rejected, so both ask to sign in again.
    expect(await sessionItem.getValue()).toMatchObject({ connected: true, rejected: true, signedIn: true });
    expect((await syncItem.getValue()).rewards).toMatchObject({ loading: false, error: { kind: 'unauthorized' } });
    expect(created.map((n) => n.id)).toEqual([expect.stringMatching(/^rejected:/)]);
    expect((await credentialsItem.getValue())?.refreshToken).toBeUndefined();
  });
});
