/**
 * The pre-flight's sign-in checks: every redirect URL the build needs, listed, and checked with
 * the authorization server itself; the server's published metadata (RFC 8414, or OpenID Connect
 * Discovery), where it publishes any, compared with the build's issuer and endpoints and the flow
 * the extension runs (PKCE S256, `iss` on the answer); whether the scope asked yields a refresh
 * token; and the token and revocation requests the extension sends (sign-in-server.ts).
 *
 * No metadata names the redirect URLs a client registered, so each is tried the way the server
 * itself judges one: an authorization request with that `redirect_uri`, its redirect not followed
 * and no one signed in. A server sends the browser to a registered address (or on to its sign-in
 * page), and answers an unregistered one with an error of its own without going there (RFC 6749
 * §4.1.2.1): nothing is signed in, nothing is issued.
 */
import * as oauth from 'oauth4webapi';
import { signInConfigured } from '../../../utils/build-settings';
import { extensionIds } from '../../../utils/build/operator/extension-ids';
import type { ResolvedSettings } from '../../../utils/build/operator/panel-config';
import type { Check } from './checks';
import { issuerChecks, refreshChecks, requestChecks } from './sign-in-server';

const TIMEOUT_MS = 10_000;
const TOPIC = 'Sign-in';

/** Every redirect URL the build needs, by browser; Chrome's only once chromeKey fixes the id. */
export function redirectUrls(settings: ResolvedSettings): { where: string; url: string | null }[] {
  const ids = extensionIds(settings);
  // The trusted testers' item and Edge's are items of their own: listed when their ids are set.
  const own = [
    ...(ids.chromeBeta
      ? [{ where: "Chrome, the trusted testers' item (the sign-in window)", url: ids.chromeBeta.redirectUrl }]
      : []),
    ...(ids.edge ? [{ where: 'Edge (the sign-in window)', url: ids.edge.redirectUrl }] : []),
  ];
  return [
    { where: 'Chrome (the sign-in window)', url: ids.chrome?.redirectUrl ?? null },
    ...own,
    { where: 'Firefox on the desktop (the sign-in window)', url: ids.firefox.redirectUrl },
    { where: 'Firefox for Android, and any browser without the window (a tab)', url: ids.tab?.redirectUrl ?? null },
  ];
}

function metadataChecks(settings: ResolvedSettings, server: oauth.AuthorizationServer): Check[] {
  const { oauth: o } = settings;
  const checks: Check[] = [];
  const differs = (name: string, set: string, published: string | undefined, key: string) => {
    if (set && published && set !== published)
      checks.push({
        level: 'fail',
        topic: TOPIC,
        text: `${key} is ${set}, but the server's metadata says ${name} is ${published}.`,
        change: `Set ${key} to ${published} (or correct the server's metadata).`,
      });
  };
  differs(
    'authorization_endpoint',
    o.authorizationEndpoint,
    server.authorization_endpoint,
    'oauth.authorizationEndpoint',
  );
  differs('token_endpoint', o.tokenEndpoint, server.token_endpoint, 'oauth.tokenEndpoint');
  differs('revocation_endpoint', o.revocationEndpoint, server.revocation_endpoint, 'oauth.revocationEndpoint');
  const methods = server.code_challenge_methods_supported;
  if (!methods?.includes('S256'))
    checks.push({
      level: methods ? 'fail' : 'warn',
      topic: TOPIC,
      text: methods
        ? `The server's PKCE methods are ${methods.join(', ')}, without S256, the only one the extension sends (RFC 7636).`
        : 'The server’s metadata lists no PKCE methods (code_challenge_methods_supported): S256, which the extension sends, is not confirmed.',
      change: 'Support PKCE with S256, and say so in code_challenge_methods_supported.',
    });
  if (!o.revocationEndpoint && server.revocation_endpoint)
    checks.push({
      level: 'warn',
      topic: TOPIC,
      text: `The server publishes a revocation endpoint (${server.revocation_endpoint}) the build does not use: Disconnect only forgets the tokens in the browser.`,
      change: `Set oauth.revocationEndpoint to ${server.revocation_endpoint}.`,
    });
  if (checks.length === 0)
    checks.push({
      level: 'ok',
      topic: TOPIC,
      text: `The server's metadata (${server.issuer}) names the build's endpoints and supports PKCE S256${server.authorization_response_iss_parameter_supported ? ' and iss on the answer (RFC 9207)' : ''}.`,
    });
  return checks;
}

/** One redirect URL tried with the server: an authorization request nobody signs in to. */
async function tryRedirect(settings: ResolvedSettings, where: string, redirect: string): Promise<Check> {
  const url = new URL(settings.oauth.authorizationEndpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.oauth.clientId,
    redirect_uri: redirect,
    code_challenge: oauth.generateRandomCodeVerifier(),
    code_challenge_method: 'S256',
    state: oauth.generateRandomState(),
    ...(settings.oauth.scopes ? { scope: settings.oauth.scopes } : {}),
  }).toString();
  const refused = (why: string): Check => ({
    level: 'fail',
    topic: TOPIC,
    text: `${where}: ${redirect} ${why}: the server does not take it for client ${settings.oauth.clientId}, so sign-in there fails.`,
    change: `Register ${redirect} as a redirect URL of client ${settings.oauth.clientId}.`,
  });
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return {
      level: 'warn',
      topic: TOPIC,
      text: `${where}: the authorization endpoint could not be reached (${(error as Error).message}), so ${redirect} was not checked.`,
      change: 'Run the pre-flight where the sign-in server can be reached.',
    };
  }
  const body = await response.text().catch(() => '');
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) {
    const target = new URL(location, url);
    if (target.href.startsWith(redirect))
      return {
        level: 'ok',
        topic: TOPIC,
        text: `${where}: ${redirect} is registered (the server sends the browser back there).`,
      };
    return {
      level: 'ok',
      topic: TOPIC,
      text: `${where}: ${redirect} is taken: the server went on to ${target.origin}${target.pathname} to sign the panelist in.`,
    };
  }
  if (response.status >= 400) return refused(`was answered ${response.status}`);
  if (/redirect_uri|redirect uri|invalid_request|invalid_client|mismatch/i.test(body))
    return refused('was answered with an error page naming it');
  return {
    level: 'ok',
    topic: TOPIC,
    text: `${where}: ${redirect} is taken: the server showed its sign-in page (${response.status}).`,
  };
}

export async function signInChecks(settings: ResolvedSettings): Promise<Check[]> {
  if (!signInConfigured(settings))
    return [
      {
        level: 'info',
        topic: TOPIC,
        text: 'not configured: panelists connect with their personal key, and there is no redirect URL to register.',
      },
    ];
  const checks: Check[] = [];
  const urls = redirectUrls(settings);
  checks.push({
    level: 'info',
    topic: TOPIC,
    text: `the redirect URLs this build needs (register each for client ${settings.oauth.clientId}): ${urls.map((u) => `${u.where}: ${u.url ?? 'not known until chromeKey is the store item’s key (npm run ids)'}`).join('; ')}.`,
  });
  // The server's own: its issuer, metadata, what yields a refresh token, and the requests the
  // extension sends (sign-in-server.ts).
  const { checks: issuer, found } = await issuerChecks(settings);
  checks.push(
    ...issuer,
    ...(found ? metadataChecks(settings, found.server) : []),
    ...refreshChecks(settings, found),
    ...(await requestChecks(settings)),
  );
  for (const { where, url } of urls) if (url) checks.push(await tryRedirect(settings, where, url));
  return checks;
}
