/**
 * Background tests of sign-in: the build settings pointed at a sandbox's authorization server, and
 * a stand-in for the browser's sign-in window that does over HTTP what a panelist does on its pages.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { OAuthSettings } from '../../utils/build-settings';
import { settings } from '../../utils/settings';
import { connectTo } from './background-helpers';
import { OAUTH_PATHS, SANDBOX_CLIENT_ID, SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/oauth';
import { startSandbox, type Sandbox } from '../sandbox/server';

export const REDIRECT_URL = 'https://testextensionid.chromiumapp.org/';

export function oauthSettingsFor(sandbox: Sandbox): OAuthSettings {
  return {
    authorizationEndpoint: `${sandbox.url}${OAUTH_PATHS.authorize}`,
    tokenEndpoint: `${sandbox.url}${OAUTH_PATHS.token}`,
    clientId: SANDBOX_CLIENT_ID,
    scopes: '',
    issuer: sandbox.url,
    // Set by the tests of revocation (background-revoke.test.ts); the others disconnect without it.
    revocationEndpoint: '',
    // Sign-in in a tab comes back to the sandbox's own page, as a built extension's default would.
    consentPrompt: '',
    tabRedirectUrl: `${sandbox.url}${OAUTH_PATHS.done}`,
  };
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual',
});

/** What the panelist does in the window: sign in, then allow (or deny); resolves with the redirect. */
export async function actAsPanelist(url: string, decision: 'allow' | 'deny' = 'allow'): Promise<string> {
  const page = await fetch(url, { redirect: 'manual' });
  const html = await page.text();
  const txn = /name="txn" value="([^"]+)"/.exec(html)?.[1];
  if (!txn) throw new Error(`The authorization page refused: ${page.status} ${page.headers.get('location') ?? html}`);
  const origin = new URL(url).origin;
  await fetch(`${origin}${OAUTH_PATHS.authorize}`, form({ txn, email: SANDBOX_EMAIL, password: SANDBOX_PASSWORD }));
  const back = await fetch(`${origin}${OAUTH_PATHS.decision}`, form({ txn, decision }));
  return back.headers.get('location') ?? '';
}

export type WindowBehaviour = (url: string) => Promise<string>;

/** Installs the sign-in window stand-in; `behaviour` decides what the window returns. */
export function installIdentity(behaviour: WindowBehaviour): { urls: string[]; interactive: unknown[] } {
  const seen = { urls: [] as string[], interactive: [] as unknown[] };
  const identity = fakeBrowser.identity as unknown as Record<string, unknown>;
  identity.getRedirectURL = () => REDIRECT_URL;
  identity.launchWebAuthFlow = async ({ url, interactive }: { url: string; interactive?: boolean }) => {
    seen.urls.push(url);
    seen.interactive.push(interactive);
    return behaviour(url);
  };
  return seen;
}

/** One sandbox per file with sign-in configured for it; fresh storage and sandbox before each test. */
export function signInSandbox(): { sandbox: Sandbox } {
  const env = {} as { sandbox: Sandbox };
  const saved = { apiBaseUrl: settings.apiBaseUrl, oauth: settings.oauth };
  beforeAll(async () => {
    env.sandbox = await startSandbox();
    settings.apiBaseUrl = env.sandbox.url;
    settings.oauth = oauthSettingsFor(env.sandbox);
  });
  afterAll(async () => {
    Object.assign(settings, saved);
    await env.sandbox.close();
  });
  beforeEach(() => {
    fakeBrowser.reset();
    env.sandbox.reset();
  });
  return env;
}

/** Signed-in credentials obtained from the sandbox directly, stored as sign-in stores them. */
export async function storeSignedIn(sandbox: Sandbox): Promise<{ token: string; refreshToken: string }> {
  const { createHash, randomBytes } = await import('node:crypto');
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${sandbox.url}${OAUTH_PATHS.authorize}`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: SANDBOX_CLIENT_ID,
    redirect_uri: REDIRECT_URL,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  const code = new URL(await actAsPanelist(url.href)).searchParams.get('code') ?? '';
  const answer = (await (
    await fetch(
      `${sandbox.url}${OAUTH_PATHS.token}`,
      form({
        grant_type: 'authorization_code',
        client_id: SANDBOX_CLIENT_ID,
        code,
        redirect_uri: REDIRECT_URL,
        code_verifier: verifier,
      }),
    )
  ).json()) as { access_token: string; refresh_token: string; expires_in: number };
  await connectTo(sandbox, {
    token: answer.access_token,
    refreshToken: answer.refresh_token,
    expiresAt: Date.now() + answer.expires_in * 1000,
  });
  return { token: answer.access_token, refreshToken: answer.refresh_token };
}
