// @vitest-environment node
/** Sign-in in the background, against the sandbox's authorization server over HTTP. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { httpTuning } from '../../entrypoints/background/auth/api';
import { signIn } from '../../entrypoints/background/session/sign-in';
import { markRejected } from '../../entrypoints/background/auth/rejected';
import { alertOf, connectedBy, errorText } from '../../components/options/error-text';
import type { AppError } from '../../utils/errors';
import { settings } from '../../utils/settings';
import { rewardsItem, sessionItem } from '../../utils/storage-items';
import { deliver, firstReadsDone } from './background-helpers';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { OAUTH_PATHS } from '../sandbox/oauth';
import { actAsPanelist, installIdentity, REDIRECT_URL, signInSandbox, storeSignedIn } from './sign-in-helpers';
import { installTabs } from './sign-in-tab-helpers';

const env = signInSandbox();

async function nothingStored(): Promise<void> {
  expect(await credentialsItem.getValue()).toBeNull();
  expect((await sessionItem.getValue()).connected).toBe(false);
  expect(await rewardsItem.getValue()).toBeNull();
}

async function signInError(): Promise<AppError> {
  const unregister = registerHandlers();
  try {
    const reply = (await deliver('signIn', undefined)) as { ok: boolean; error: AppError };
    expect(reply.ok).toBe(false);
    return reply.error;
  } finally {
    unregister();
  }
}

describe('sign-in', () => {
  it('sends PKCE S256 and a random state, exchanges the code, checks the token with a real call, then stores it', async () => {
    const window = installIdentity((url) => actAsPanelist(url));
    const session = await signIn();

    const sent = new URL(window.urls[0] ?? '');
    // Interactive: the window shows the server's pages to the panelist.
    expect(window.interactive).toEqual([true]);
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(sent.searchParams.get('redirect_uri')).toBe(REDIRECT_URL);
    expect(sent.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const exchange = env.sandbox.requests.find((r) => r.path === '/oauth/token');
    expect(String(exchange?.body)).toContain('code_verifier=');

    expect(session).toMatchObject({ connected: true, signedIn: true, origin: env.sandbox.url, rejected: false });
    const credentials = await credentialsItem.getValue();
    expect(credentials?.refreshToken).toBeTruthy();
    expect(credentials?.expiresAt).toBeGreaterThan(Date.now());
    expect(env.sandbox.oauth.accepts(credentials?.token ?? null)).toBe(true);
    // The catalogue is read after the session is in place (session/session.ts).
    await firstReadsDone();
    expect((await rewardsItem.getValue())?.data.rewards.length).toBeGreaterThan(0);
  });

  it('a second sign-in uses a new state and verifier', async () => {
    const window = installIdentity((url) => actAsPanelist(url));
    await signIn();
    await signIn();
    const [a, b] = window.urls.map((u) => new URL(u).searchParams);
    expect(a?.get('state')).not.toBe(b?.get('state'));
    expect(a?.get('code_challenge')).not.toBe(b?.get('code_challenge'));
  });

  it('a closed sign-in window says so and stores nothing', async () => {
    installIdentity(() => Promise.reject(new Error('The user did not approve access.')));
    const error = await signInError();
    expect(error.message).toMatch(/window was closed/);
    await nothingStored();
  });

  it('denied access says so and stores nothing', async () => {
    installIdentity((url) => actAsPanelist(url, 'deny'));
    const error = await signInError();
    expect(error.kind).toBe('rejected');
    // Told without saying the panelist chose it: a server may answer access_denied on its own.
    expect(error.message).toMatch(/^Access was not allowed, so nothing was connected\. If you did not choose “Deny”/);
    expect(error.message).not.toMatch(/you chose/i);
    await nothingStored();
  });

  it('an answer whose state is not ours is ignored and nothing is stored', async () => {
    installIdentity(async (url) => {
      const back = new URL(await actAsPanelist(url));
      back.searchParams.set('state', 'forged-state');
      return back.href;
    });
    const error = await signInError();
    expect(error).toMatchObject({ kind: 'unexpected' });
    expect(error.message).toMatch(/^The answer from the sign-in window did not belong to this sign-in/);
    expect(env.sandbox.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(0);
    await nothingStored();
  });

  it('an unreachable panel is told as such, not as a closed window', async () => {
    const saved = settings.oauth;
    settings.oauth = { ...saved, authorizationEndpoint: 'http://127.0.0.1:9/oauth/authorize' };
    try {
      // What Firefox says for every ending; the extension then finds the server is not there.
      installIdentity(() => Promise.reject(new Error('User cancelled or denied access.')));
      const error = await signInError();
      expect(error).toMatchObject({ kind: 'network' });
      expect(error.message).toContain('http://127.0.0.1:9');
      // Chrome names the failed load itself.
      installIdentity(() => Promise.reject(new Error('Authorization page could not be loaded.')));
      expect(await signInError()).toMatchObject({ kind: 'network' });
    } finally {
      settings.oauth = saved;
    }
    await nothingStored();
  });

  it('a sign-in page that loads with an error from a reachable server is told as that, not as a connection to check', async () => {
    // Chrome's words for any page the window could not show, an error status included (a redirect
    // address the server does not know answers 400 on common servers); the server itself answers.
    installIdentity(() => Promise.reject(new Error('Authorization page could not be loaded.')));
    const origin = new URL(settings.oauth.authorizationEndpoint).origin;
    expect(await signInError()).toEqual({
      kind: 'rejected',
      message: `The panel’s sign-in page at ${origin} answered with an error instead of asking you to sign in. Press “Sign in” to try again; if it keeps happening, contact the panel. Nothing was stored.`,
    });
    await nothingStored();
  });

  it('another refusal by the server is told with its OAuth error code, and a code that is not one as “error”', async () => {
    const refusal = (code: string) =>
      installIdentity(async (url) => {
        const state = new URL(url).searchParams.get('state') ?? '';
        return `${REDIRECT_URL}?${new URLSearchParams({ error: code, state })}`;
      });
    const told = (code: string) =>
      `The panel refused the sign-in (${code}). Press “Sign in” to try again; if it keeps happening, contact the panel. Nothing was stored.`;
    refusal('temporarily_unavailable');
    expect(await signInError()).toEqual({ kind: 'rejected', message: told('temporarily_unavailable') });
    // Not a code as RFC 6749 spells them (lower case and `_`, whole): not repeated to the panelist.
    for (const odd of ['Server_Error', 'server_error<b>']) {
      refusal(odd);
      expect(await signInError()).toEqual({ kind: 'rejected', message: told('error') });
    }
    await nothingStored();
  });

  it('a build whose sign-in settings are missing, or whose panel address is not one, says it has no sign-in', async () => {
    const saved = { oauth: settings.oauth, apiBaseUrl: settings.apiBaseUrl };
    const window = installIdentity((url) => actAsPanelist(url));
    const none = {
      kind: 'invalid_input',
      message: 'This build of the extension has no sign-in. Use a personal key instead.',
    };
    try {
      settings.oauth = { ...saved.oauth, clientId: '' };
      expect(await signInError()).toEqual(none);
      settings.oauth = saved.oauth;
      settings.apiBaseUrl = 'not a panel address';
      expect(await signInError()).toEqual(none);
    } finally {
      Object.assign(settings, saved);
    }
    expect(window.urls).toEqual([]);
    await nothingStored();
  });

  it('a refused code exchange (the verifier does not match) is told with its OAuth error, nothing stored', async () => {
    installIdentity((url) => {
      // Someone else's challenge reached the server: the extension's verifier cannot match it.
      const tampered = new URL(url);
      tampered.searchParams.set('code_challenge', 'A'.repeat(43));
      return actAsPanelist(tampered.href);
    });
    const error = await signInError();
    expect(error).toMatchObject({ kind: 'rejected' });
    expect(error.message).toContain('invalid_grant');
    await nothingStored();
  });

  it('asks a server without metadata the scopes as set, and no prompt', async () => {
    const window = installIdentity((url) => actAsPanelist(url));
    await signIn();
    const sent = new URL(window.urls[0]!).searchParams;
    expect([sent.get('scope'), sent.get('prompt'), sent.get('max_age')]).toEqual([null, null, null]);
  });

  it('asks an OpenID provider for offline access the standard way (its metadata, read at build time)', async () => {
    const saved = settings.oauthServer;
    settings.oauthServer = { metadata: true, openid: true, offlineAccess: true, promptLogin: true, issParameter: true };
    try {
      const window = installIdentity((url) => actAsPanelist(url));
      await signIn();
      const sent = new URL(window.urls[0]!).searchParams;
      expect([sent.get('scope'), sent.get('prompt'), sent.get('max_age')]).toEqual([
        'openid offline_access',
        'consent',
        null,
      ]);
    } finally {
      settings.oauthServer = saved;
    }
  });

  it('sends no prompt=consent to an OpenID provider where the build says to omit it (Entra ID)', async () => {
    const saved = { server: settings.oauthServer, oauth: settings.oauth };
    settings.oauthServer = {
      metadata: true,
      openid: true,
      offlineAccess: true,
      promptLogin: false,
      issParameter: false,
    };
    settings.oauth = { ...settings.oauth, consentPrompt: 'omit' };
    try {
      const window = installIdentity((url) => actAsPanelist(url));
      await signIn();
      const sent = new URL(window.urls[0]!).searchParams;
      expect([sent.get('scope'), sent.get('prompt')]).toEqual(['openid offline_access', null]);
    } finally {
      Object.assign(settings, { oauthServer: saved.server, oauth: saved.oauth });
    }
  });

  it('refuses an answer without `iss` from a server whose metadata says it sends one (RFC 9207)', async () => {
    const saved = settings.oauthServer;
    settings.oauthServer = { ...saved, metadata: true, issParameter: true };
    env.sandbox.oauth.settings.iss = '';
    try {
      installIdentity((url) => actAsPanelist(url));
      expect(await signInError()).toMatchObject({ message: expect.stringMatching(/did not belong to this sign-in/) });
      await nothingStored();
    } finally {
      settings.oauthServer = saved;
    }
  });

  it('after Disconnect, the next sign-in asks for the password again, until one is made that way', async () => {
    const window = installIdentity((url) => actAsPanelist(url));
    const unregister = registerHandlers();
    try {
      await signIn();
      await deliver('disconnect', undefined);
      // Denied: no sign-in was made, so the next one still asks.
      installIdentity((url) => actAsPanelist(url, 'deny'));
      await deliver('signIn', undefined);
      installIdentity((url) => (window.urls.push(url), actAsPanelist(url)));
      await signIn();
      await signIn();
    } finally {
      unregister();
    }
    const prompts = window.urls.map((url) => new URL(url).searchParams.get('prompt'));
    // A server without metadata: `prompt=login` (ignored where unknown), no `max_age`.
    expect(prompts).toEqual([null, 'login', null]);
    expect(window.urls.every((url) => !new URL(url).searchParams.has('max_age'))).toBe(true);
  });

  it('a Disconnect’s mark written before an update of the extension is still taken by the next sign-in', async () => {
    // The key the mark has always been stored under: an update restarts the worker, storage stays.
    await fakeBrowser.storage.local.set({ 'sign-in:fresh': true });
    const window = installIdentity((url) => actAsPanelist(url));
    await signIn();
    expect(new URL(window.urls[0]!).searchParams.get('prompt')).toBe('login');
    expect(await fakeBrowser.storage.local.get('sign-in:fresh')).toEqual({ 'sign-in:fresh': false });
  });

  it.each([
    // Keycloak lists these.
    ['lists login and consent', ['none', 'login', 'consent'], 'login consent'],
    // Entra ID lists none and refuses two values; max_age=0 asks for the password there.
    ['lists no prompts', undefined, 'consent'],
  ])(
    'after Disconnect, an OpenID provider that %s is asked to log the panelist in again, with max_age=0',
    async (_, prompts, prompt) => {
      const saved = settings.oauthServer;
      settings.oauthServer = {
        metadata: true,
        openid: true,
        offlineAccess: true,
        promptLogin: true,
        ...(prompts ? { prompts } : {}),
        issParameter: true,
      };
      const unregister = registerHandlers();
      try {
        const window = installIdentity((url) => actAsPanelist(url));
        await signIn();
        await deliver('disconnect', undefined);
        await signIn();
        const sent = new URL(window.urls[1]!).searchParams;
        expect([sent.get('prompt'), sent.get('max_age')]).toEqual([prompt, '0']);
      } finally {
        unregister();
        settings.oauthServer = saved;
      }
    },
  );

  it('without the identity permission (refused in Chrome, or no such API) sign-in goes through a tab instead', async () => {
    const seen = installTabs((tab) => tab.close());
    try {
      expect(await signInError()).toMatchObject({
        kind: 'rejected',
        message: expect.stringMatching(/sign-in tab was closed/),
      });
      expect(seen.opened).toHaveLength(1);
    } finally {
      seen.restore();
    }
  });
});

describe('a sign-in whose check fails', () => {
  const CHECK = '/v1/panel/variables/data';
  const NOT_ACCEPTED =
    'You signed in, but Test Panel did not accept that sign-in, so nothing was stored. Try again later; if it keeps happening, contact Test Panel.';
  const saved = { panelName: settings.panelName, tuning: { ...httpTuning } };
  const fault = (rule: object) =>
    fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
  const tokenRequests = () => env.sandbox.requests.filter((r) => r.path === OAUTH_PATHS.token);
  beforeEach(() => {
    settings.panelName = 'Test Panel';
    settings.oauth = { ...settings.oauth, revocationEndpoint: `${env.sandbox.url}${OAUTH_PATHS.revocation}` };
    installIdentity((url) => actAsPanelist(url));
  });
  afterEach(() => {
    settings.panelName = saved.panelName;
    settings.oauth = { ...settings.oauth, revocationEndpoint: '' };
    Object.assign(httpTuning, saved.tuning);
    connectedBy.signedIn = false;
  });

  it('a 401 to the check says the panel did not accept the sign-in, stores nothing and revokes the new refresh token', async () => {
    // An access token made for another audience (Keycloak's `account`): the code exchange works, the panel refuses it.
    await fault({ method: 'GET', path: CHECK, status: 401 });
    const error = await signInError();
    expect(tokenRequests()).toHaveLength(1);
    expect(error).toEqual({ kind: 'rejected', message: NOT_ACCEPTED, status: 401, endpoint: CHECK });
    // As the options page and the popup show it (SignIn.tsx), with or without an earlier sign-in
    // on the page: neither a personal key nor an expired sign-in.
    for (const signedIn of [false, true]) {
      connectedBy.signedIn = signedIn;
      const alert = alertOf(error, '', errorText(error, ''));
      expect(alert.text).toBe(NOT_ACCEPTED);
      expect(alert.text).not.toMatch(/personal key|no longer|expired/);
      expect(alert.support).toBe(`HTTP 401 ${CHECK}`);
    }
    await nothingStored();
    // No refresh token issued to the extension still renews (SECURITY.md).
    await expect.poll(() => env.sandbox.oauth.revocations).toEqual(['refresh_token']);
    expect(env.sandbox.oauth.liveRefreshTokens()).toEqual([]);
  });

  it('an earlier sign-in stays as it was, and only the refused sign-in’s refresh token is revoked', async () => {
    const earlier = await storeSignedIn(env.sandbox);
    const before = await credentialsItem.getValue();
    await fault({ method: 'GET', path: CHECK, status: 401 });
    expect(await signInError()).toMatchObject({ kind: 'rejected', message: NOT_ACCEPTED });
    expect(await credentialsItem.getValue()).toEqual(before);
    expect(await sessionItem.getValue()).toMatchObject({ connected: true, signedIn: true, rejected: false });
    await expect.poll(() => env.sandbox.oauth.revocations).toEqual(['refresh_token']);
    expect(env.sandbox.oauth.liveRefreshTokens()).toEqual([earlier.refreshToken]);
  });

  it('a check that fails otherwise (a 503) keeps its own words, and the new refresh token is revoked all the same', async () => {
    Object.assign(httpTuning, { retryBaseDelayMs: 1 });
    await fault({ method: 'GET', path: CHECK, status: 503, times: 10 });
    const error = await signInError();
    expect(tokenRequests()).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'server', status: 503, endpoint: CHECK });
    expect(error.message).not.toBe(NOT_ACCEPTED);
    await nothingStored();
    await expect.poll(() => env.sandbox.oauth.revocations).toEqual(['refresh_token']);
    expect(env.sandbox.oauth.liveRefreshTokens()).toEqual([]);
  });
});

describe('a sign-in replacing a session the panel refused', () => {
  beforeEach(() => {
    settings.oauth = { ...settings.oauth, revocationEndpoint: `${env.sandbox.url}${OAUTH_PATHS.revocation}` };
  });
  afterEach(() => {
    settings.oauth = { ...settings.oauth, revocationEndpoint: '' };
  });

  it('revokes the refused session’s refresh token before the sign-in window opens, not after the new one is stored', async () => {
    // A server that revokes the whole grant (oidc-provider's default revokeGrantPolicy) reuses it
    // for a sign-in in the same browser session: a revocation after would end the new sign-in too.
    const earlier = await storeSignedIn(env.sandbox);
    const stored = (await credentialsItem.getValue())!;
    // An API 401 the renewal did not mend: the session is refused, its refresh token kept.
    await markRejected(stored.session);
    // Whether the earlier sign-in's refresh token is still live at the server as the window opens.
    const liveAtOpen: boolean[] = [];
    installIdentity((url) => {
      liveAtOpen.push(env.sandbox.oauth.liveRefreshTokens().includes(earlier.refreshToken));
      return actAsPanelist(url);
    });
    await signIn();
    expect(liveAtOpen).toEqual([false]);
    const now = (await credentialsItem.getValue())!;
    expect(now.refreshToken).toBeDefined();
    expect(env.sandbox.oauth.liveRefreshTokens()).toEqual([now.refreshToken]);
    expect(env.sandbox.oauth.liveRefreshTokens()).not.toContain(earlier.refreshToken);
    // Revoked once, not again after the switch.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(env.sandbox.oauth.revocations).toEqual(['refresh_token']);
  });

  it('a session not refused keeps its refresh token until the new sign-in is stored', async () => {
    const earlier = await storeSignedIn(env.sandbox);
    // Whether the earlier sign-in's refresh token is still live at the server as the window opens.
    const liveAtOpen: boolean[] = [];
    installIdentity((url) => {
      liveAtOpen.push(env.sandbox.oauth.liveRefreshTokens().includes(earlier.refreshToken));
      return actAsPanelist(url);
    });
    await signIn();
    expect(liveAtOpen).toEqual([true]);
    await expect.poll(() => env.sandbox.oauth.liveRefreshTokens()).not.toContain(earlier.refreshToken);
  });
});
