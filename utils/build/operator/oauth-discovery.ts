/**
 * The sign-in server's metadata, read when the build is given `oauth.issuer`: OpenID Connect
 * Discovery (`<issuer>/.well-known/openid-configuration`), then RFC 8414
 * (`/.well-known/oauth-authorization-server<issuer's path>`), with oauth4webapi, which also checks
 * that the document names that same issuer. What the build takes from it is in
 * utils/sign-in-server.ts (`ServerFacts`); the build, `npm run ids` and the pre-flight read it here.
 *
 * Build-time only (node): the pages and the worker never fetch metadata.
 */
import * as oauth from 'oauth4webapi';
import { signInConfigured } from '../../build-settings';
import { plainHttpAllowed } from '../../hosts';
import type { ServerFacts } from '../../sign-in-server';
import type { ResolvedSettings } from './panel-config';

const TIMEOUT_MS = 10_000;

export type Discovery =
  /** The server's metadata, from the document at `url`. */
  | { kind: 'metadata'; server: oauth.AuthorizationServer; url: string; via: 'oidc' | 'oauth2' }
  /** A document is there, but names another issuer (`published`): the issuer set is not the server's. */
  | { kind: 'other-issuer'; published: string; url: string }
  /** Neither address has a document (a 4xx at both). */
  | { kind: 'none'; tried: string[] }
  /** An address could not be read, or its answer is not metadata: nothing can be said. */
  | { kind: 'unreadable'; url: string; why: string };

/** The two well-known addresses of an issuer, OpenID Connect's first. */
export function wellKnownUrls(issuer: string): { via: 'oidc' | 'oauth2'; url: string }[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  return [
    { via: 'oidc', url: `${url.origin}${path}/.well-known/openid-configuration` },
    { via: 'oauth2', url: `${url.origin}/.well-known/oauth-authorization-server${path}` },
  ];
}

/** Reads the metadata of `issuer` (an absolute https:// address; http:// only on this machine). */
export async function discover(issuer: string): Promise<Discovery> {
  const expected = new URL(issuer);
  const tried: string[] = [];
  // The first address that could not be read, told only when the other has no metadata either.
  let unreadable: Discovery | null = null;
  for (const { via, url } of wellKnownUrls(issuer)) {
    tried.push(url);
    let response: Response;
    try {
      response = await oauth.discoveryRequest(expected, {
        algorithm: via,
        [oauth.allowInsecureRequests]: plainHttpAllowed(expected),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      unreadable ??= { kind: 'unreadable', url, why: (error as Error).message };
      continue;
    }
    if (response.status >= 400 && response.status < 500) continue;
    if (response.status !== 200) {
      unreadable ??= { kind: 'unreadable', url, why: `it answered HTTP ${response.status}` };
      continue;
    }
    const copy = response.clone();
    try {
      return { kind: 'metadata', server: await oauth.processDiscoveryResponse(expected, response), url, via };
    } catch {
      const body = (await copy.json().catch(() => null)) as { issuer?: unknown } | null;
      if (typeof body?.issuer === 'string' && URL.parse(body.issuer)?.href !== expected.href)
        return { kind: 'other-issuer', published: body.issuer, url };
      unreadable ??= { kind: 'unreadable', url, why: 'its answer is not JSON metadata' };
    }
  }
  return unreadable ?? { kind: 'none', tried };
}

/** What the extension takes from a server's metadata (utils/sign-in-server.ts says why each). */
export function factsOf(server: oauth.AuthorizationServer, via: 'oidc' | 'oauth2'): ServerFacts {
  const scopes = server.scopes_supported;
  const openid = via === 'oidc' || !!scopes?.includes('openid');
  const prompts = server['prompt_values_supported'];
  return {
    metadata: true,
    openid,
    offlineAccess: openid && (!scopes || scopes.includes('offline_access')),
    promptLogin: Array.isArray(prompts) ? prompts.includes('login') : openid,
    issParameter: server.authorization_response_iss_parameter_supported === true,
  };
}

/** A setting named as the build's problems name it: its key, and its environment variable. */
const named = (key: string, env: string) => `${key} (${env})`;
const ISSUER = named('oauth.issuer', 'PANEL_OAUTH_ISSUER');

export interface WithMetadata {
  settings: ResolvedSettings;
  problems: string[];
  warnings: string[];
}

/**
 * The settings with what the sign-in server's metadata says, when the operator gave `oauth.issuer`:
 * its exact issuer, and the facts the authorization request follows (`oauthServer`). An issuer whose
 * document names another, or that cannot be read, is a problem naming `oauth.issuer`: a build
 * would otherwise be made for a server it does not know. Without `oauth.issuer`, or without sign-in,
 * nothing is fetched and nothing is assumed.
 */
export async function withServerMetadata(settings: ResolvedSettings): Promise<WithMetadata> {
  const out: WithMetadata = { settings, problems: [], warnings: [] };
  if (!signInConfigured(settings) || !settings.oauth.issuer || settings.sources['oauth.issuer'] === 'default')
    return out;
  const issuer = settings.oauth.issuer;
  const found = await discover(issuer);
  switch (found.kind) {
    case 'metadata':
      out.settings = {
        ...settings,
        oauth: { ...settings.oauth, issuer: found.server.issuer },
        oauthServer: factsOf(found.server, found.via),
      };
      break;
    case 'other-issuer':
      out.problems.push(
        `${ISSUER} is ${issuer}, but the server's metadata (${found.url}) names its issuer ${found.published}: set oauth.issuer to ${found.published}`,
      );
      break;
    case 'unreadable':
      out.problems.push(
        `${ISSUER} ${issuer}: its metadata could not be read at ${found.url} (${found.why}). Build where the server answers: the build takes what sign-in asks for from it`,
      );
      break;
    case 'none':
      out.warnings.push(
        `${ISSUER} ${issuer} publishes no metadata (${found.tried.join(', ')}): sign-in asks it as a plain OAuth 2.0 server, with the endpoints and scopes as set`,
      );
      break;
  }
  return out;
}
