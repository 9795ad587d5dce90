// @vitest-environment node
/**
 * Sign-in in a tab, where the browser has no `identity` (Firefox for Android; Chrome
 * without the optional permission): against the sandbox's authorization server over real HTTP,
 * with a stand-in for the browser's tabs (sign-in-tab-helpers.ts). The server is strict: exact
 * redirect URLs, PKCE S256 only, `iss` on every answer (RFC 9207), codes used once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { signIn, signInDoor } from '../../entrypoints/background/session/sign-in';
import {
  isRedirect,
  KEEP_AWAKE_MS,
  launchTabFlow,
  TAB_SIGN_IN_LIMIT_MS,
  SignInTabEnded,
} from '../../entrypoints/background/session/sign-in-tab';
import { settings } from '../../utils/settings';
import { rewardsItem, sessionItem } from '../../utils/storage-items';
import { OAUTH_PATHS } from '../sandbox/oauth';
import { deliver, firstReadsDone } from './background-helpers';
import { actAsPanelist, installIdentity, REDIRECT_URL, signInSandbox } from './sign-in-helpers';
import { installTabs, type FakeTab } from './sign-in-tab-helpers';

const env = signInSandbox();
let restore: () => void = () => undefined;
afterEach(() => restore());

const doneUrl = () => `${env.sandbox.url}${OAUTH_PATHS.done}`;

/** The panelist signs in and decides on the server's pages in the tab, which then goes where the server sends it. */
function panelist(decision: 'allow' | 'deny' = 'allow', change?: (back: URL) => void) {
  return async (tab: FakeTab) => {
    const back = new URL(await actAsPanelist(tab.url, decision));
    change?.(back);
    tab.go(back.href);
  };
}

function tabs(...args: Parameters<typeof installTabs>) {
  const installed = installTabs(...args);
  restore = installed.restore;
  return installed;
}

async function nothingStored(): Promise<void> {
  expect(await credentialsItem.getValue()).toBeNull();
  expect((await sessionItem.getValue()).connected).toBe(false);
  expect(await rewardsItem.getValue()).toBeNull();
}

async function signInError(): Promise<{ kind: string; message: string }> {
  const unregister = registerHandlers();
  try {
    const reply = (await deliver('signIn', undefined)) as { ok: boolean; error: { kind: string; message: string } };
    expect(reply.ok).toBe(false);
    return reply.error;
  } finally {
    unregister();
  }
}

const tokenRequests = () => env.sandbox.requests.filter((r) => r.path === OAUTH_PATHS.token);

describe('sign-in in a tab, where the browser has no sign-in window', () => {
  it('is chosen when identity is missing, and the sign-in window where it is there', () => {
    installIdentity(() => Promise.reject(new Error('unused')));
    expect(signInDoor()).toMatchObject({ kind: 'window', redirectUri: REDIRECT_URL });
    tabs(() => undefined);
    expect(signInDoor()).toMatchObject({ kind: 'tab', redirectUri: doneUrl() });
    // An `identity` without launchWebAuthFlow (a browser that lists the namespace but not the call).
    (fakeBrowser as unknown as { identity: unknown }).identity = { getRedirectURL: () => REDIRECT_URL };
    expect(signInDoor().kind).toBe('tab');
    // Nor one without getRedirectURL: the window would have no address to come back to.
    (fakeBrowser as unknown as { identity: unknown }).identity = { launchWebAuthFlow: async () => REDIRECT_URL };
    expect(signInDoor().kind).toBe('tab');
  });

  it('opens the authorization request in a tab with PKCE S256, a random state and the panel’s own redirect address, reads the answer, closes the tab, then stores the checked session', async () => {
    const seen = tabs(panelist());
    const session = await signIn();

    expect(seen.opened).toHaveLength(1);
    // In front: the panelist is to sign in there now.
    expect(seen.active).toEqual([true]);
    const sent = new URL(seen.opened[0]!);
    expect(sent.origin + sent.pathname).toBe(`${env.sandbox.url}${OAUTH_PATHS.authorize}`);
    expect(sent.searchParams.get('redirect_uri')).toBe(doneUrl());
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(sent.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The extension closed its tab; none is left open.
    expect(seen.closedByExtension).toHaveLength(1);
    expect(seen.open.size).toBe(0);
    // The code was exchanged with the verifier and the same redirect address.
    const exchange = new URLSearchParams(String(tokenRequests()[0]?.body ?? ''));
    expect(exchange.get('redirect_uri')).toBe(doneUrl());
    expect(exchange.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,}$/);

    expect(session).toMatchObject({ connected: true, signedIn: true, origin: env.sandbox.url, rejected: false });
    const credentials = await credentialsItem.getValue();
    expect(credentials?.refreshToken).toBeTruthy();
    expect(env.sandbox.oauth.accepts(credentials?.token ?? null)).toBe(true);
    // The catalogue is read after the session is in place (session/session.ts).
    await firstReadsDone();
    expect((await rewardsItem.getValue())?.data.rewards.length).toBeGreaterThan(0);
    // The listeners it added are gone with the tab.
    expect(seen.onUpdated.listeners).toHaveLength(0);
    expect(seen.onRemoved.listeners).toHaveLength(0);
  });

  it('the sandbox serves the page the tab comes back to, and takes it as a registered redirect address only on its own origin', async () => {
    const page = await fetch(`${doneUrl()}?code=x&state=y`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('close this tab');
    const elsewhere = new URL(`${env.sandbox.url}${OAUTH_PATHS.authorize}`);
    elsewhere.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'panel-rewards-extension',
      redirect_uri: 'http://127.0.0.1:9/extension-sign-in-done',
    }).toString();
    const refused = await fetch(elsewhere, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('is not registered');
  });

  it('a closed tab says so and stores nothing', async () => {
    const seen = tabs((tab) => tab.close());
    const error = await signInError();
    expect(error).toMatchObject({ kind: 'rejected' });
    expect(error.message).toBe(
      'The sign-in tab was closed before you finished. Press “Sign in” to try again. Nothing was stored.',
    );
    expect(seen.closedByExtension).toEqual([]);
    await nothingStored();
  });

  it('a closed tab while the panel cannot be reached is told as unreachable', async () => {
    const saved = settings.oauth;
    settings.oauth = { ...saved, authorizationEndpoint: 'http://127.0.0.1:9/oauth/authorize' };
    try {
      tabs((tab) => tab.close());
      const error = await signInError();
      expect(error).toMatchObject({ kind: 'network' });
      expect(error.message).toContain('http://127.0.0.1:9');
    } finally {
      settings.oauth = saved;
    }
    await nothingStored();
  });

  it('denied access says so, closes the tab and stores nothing', async () => {
    const seen = tabs(panelist('deny'));
    const error = await signInError();
    expect(error.message).toMatch(/^Access was not allowed/);
    expect(seen.closedByExtension).toHaveLength(1);
    expect(tokenRequests()).toHaveLength(0);
    await nothingStored();
  });

  it('an answer whose state is not ours is ignored: nothing is exchanged or stored', async () => {
    tabs(panelist('allow', (back) => back.searchParams.set('state', 'forged-state')));
    const error = await signInError();
    expect(error).toMatchObject({ kind: 'unexpected' });
    expect(error.message).toBe(
      'The answer the sign-in tab came back with did not belong to this sign-in, so it was ignored and nothing was stored. Press “Sign in” to try again.',
    );
    expect(tokenRequests()).toHaveLength(0);
    await nothingStored();
  });

  it('an answer from another issuer (RFC 9207 `iss`) is refused the same way', async () => {
    await fetch(`${env.sandbox.url}/__sandbox/oauth`, {
      method: 'PATCH',
      body: JSON.stringify({ iss: 'https://login.other-panel.example' }),
    });
    tabs(panelist());
    const error = await signInError();
    expect(error).toMatchObject({ kind: 'unexpected' });
    expect(error.message).toMatch(/did not belong to this sign-in/);
    expect(tokenRequests()).toHaveLength(0);
    await nothingStored();
  });

  it('an answer without the state it was sent is ignored', async () => {
    tabs(panelist('allow', (back) => back.searchParams.delete('state')));
    expect((await signInError()).message).toMatch(/did not belong to this sign-in/);
    await nothingStored();
  });

  it('only its own tab is read: another tab at the redirect address changes nothing', async () => {
    const seen = tabs(async (tab, all) => {
      const forged = all.other('about:blank');
      forged.go(`${doneUrl()}?code=forged&state=forged`);
      await panelist()(tab);
    });
    const session = await signIn();
    expect(session.connected).toBe(true);
    expect(seen.closedByExtension).toHaveLength(1);
    // The other tab is still open: the extension never closes a tab that is not its own.
    expect(seen.open.size).toBe(1);
  });

  it('an address reached before the browser answered tabs.create is not missed', async () => {
    const seen = tabs(() => undefined, { beforeCreateAnswers: panelist() });
    expect((await signIn()).connected).toBe(true);
    expect(seen.closedByExtension).toHaveLength(1);
  });

  it('the pages the tab passes through are not taken for the answer, and another tab closing ends nothing', async () => {
    const seen = tabs(async (tab, all) => {
      const request = tab.url;
      // The server's own sign-in page, on the way to the redirect address.
      tab.go(`${env.sandbox.url}${OAUTH_PATHS.authorize}?step=login`);
      all.other('about:blank').close();
      tab.go(await actAsPanelist(request));
    });
    expect((await signIn()).connected).toBe(true);
    expect(seen.closedByExtension).toHaveLength(1);
  });

  it('a tab closed before the browser answered tabs.create ends the sign-in as closed', async () => {
    tabs(() => undefined, { beforeCreateAnswers: (tab) => tab.close() });
    expect(await signInError()).toMatchObject({ kind: 'rejected', message: expect.stringMatching(/tab was closed/) });
    await nothingStored();
  });

  it('a tab the browser answers without an id is said as one it did not open', async () => {
    tabs(() => undefined, { withoutId: true });
    expect(await signInError()).toEqual({
      kind: 'unexpected',
      message: 'The browser did not open the sign-in tab. Press “Sign in” to try again.',
    });
    await nothingStored();
  });

  it('a tab left open past the time limit is told as such, not as closed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const seen = tabs(() => undefined);
      const reply = signInError();
      await vi.waitFor(() => expect(seen.opened).toHaveLength(1), { interval: 1 });
      await vi.advanceTimersByTimeAsync(TAB_SIGN_IN_LIMIT_MS);
      expect(await reply).toMatchObject({ kind: 'rejected', message: expect.stringMatching(/more than 30 minutes/) });
    } finally {
      vi.useRealTimers();
    }
    await nothingStored();
  });

  it('a tab the browser does not open is said plainly', async () => {
    tabs(() => undefined, { createFails: true });
    const error = await signInError();
    expect(error.message).toBe('The browser did not open the sign-in tab. Press “Sign in” to try again.');
    await nothingStored();
  });

  it('an Android panelist completes the same sign-in twice with a new state and verifier each time', async () => {
    const seen = tabs(panelist());
    await signIn();
    await signIn();
    const [a, b] = seen.opened.map((u) => new URL(u).searchParams);
    expect(a?.get('state')).not.toBe(b?.get('state'));
    expect(a?.get('code_challenge')).not.toBe(b?.get('code_challenge'));
  });
});

describe('the tab flow itself', () => {
  it('stops waiting after its time limit and leaves the tab to the panelist', async () => {
    const seen = tabs(() => undefined);
    const ended = launchTabFlow(`${env.sandbox.url}${OAUTH_PATHS.authorize}`, doneUrl(), 50);
    await expect(ended).rejects.toEqual(new SignInTabEnded('timeout'));
    // What a log shows: which error, and how the tab ended.
    await expect(ended).rejects.toMatchObject({
      name: 'SignInTabEnded',
      message: 'The sign-in tab ended without an answer (timeout)',
    });
    expect(seen.open.size).toBe(1);
    expect(seen.onUpdated.listeners).toHaveLength(0);
  });

  it('keeps the background awake with an API call every 20 s while its tab is open, and stops when it ends', async () => {
    const runtime = fakeBrowser.runtime as unknown as { getPlatformInfo: unknown };
    const saved = runtime.getPlatformInfo;
    const calls = vi.fn(async () => ({ os: 'android', arch: 'arm64' }));
    runtime.getPlatformInfo = calls;
    vi.useFakeTimers();
    try {
      const seen = tabs(() => undefined);
      const flow = launchTabFlow(`${env.sandbox.url}${OAUTH_PATHS.authorize}`, doneUrl(), 10 * KEEP_AWAKE_MS);
      const ended = expect(flow).rejects.toEqual(new SignInTabEnded('closed'));
      await vi.advanceTimersByTimeAsync(3 * KEEP_AWAKE_MS + 1);
      expect(KEEP_AWAKE_MS).toBe(20_000);
      expect(calls).toHaveBeenCalledTimes(3);
      [...seen.open.values()][0]?.close();
      await ended;
      await vi.advanceTimersByTimeAsync(3 * KEEP_AWAKE_MS);
      expect(calls).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
      runtime.getPlatformInfo = saved;
    }
  });

  it('recognises the redirect address by origin and path, whatever the query', () => {
    expect(
      isRedirect(
        'https://panel.example/extension-sign-in-done?code=a&state=b',
        'https://panel.example/extension-sign-in-done',
      ),
    ).toBe(true);
    expect(
      isRedirect(
        'https://panel.example/extension-sign-in-done/x?code=a',
        'https://panel.example/extension-sign-in-done',
      ),
    ).toBe(false);
    expect(
      isRedirect('https://evil.example/extension-sign-in-done?code=a', 'https://panel.example/extension-sign-in-done'),
    ).toBe(false);
    expect(
      isRedirect('http://panel.example/extension-sign-in-done?code=a', 'https://panel.example/extension-sign-in-done'),
    ).toBe(false);
    expect(isRedirect('not a url', 'https://panel.example/extension-sign-in-done')).toBe(false);
  });
});
