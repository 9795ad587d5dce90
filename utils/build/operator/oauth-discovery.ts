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
import * as v from 'valibot';
import { plainHttpAllowed } from '../../hosts';
import type { ServerFacts } from '../../sign-in-server';
import { PanelConfigError, resolveSettings, type ResolvedSettings } from './panel-config';
import { SETTING_ROWS, SETTINGS } from './settings-table';

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
  const listed =
    Array.isArray(prompts) && prompts.every((value) => typeof value === 'string') ? prompts.map(String) : undefined;
  const algs = server.id_token_signing_alg_values_supported;
  const named = Array.isArray(algs) && algs.length > 0 && algs.every((alg) => typeof alg === 'string');
  return {
    metadata: true,
    openid,
    offlineAccess: openid && (!scopes || scopes.includes('offline_access')),
    // Only where listed: Google's discovery lists no prompts and refuses `login`; an OpenID
    // provider is asked for the password by `max_age=0` instead (sign-in-server.ts).
    promptLogin: !!listed?.includes('login'),
    ...(listed ? { prompts: listed } : {}),
    issParameter: server.authorization_response_iss_parameter_supported === true,
    ...(named ? { idTokenAlgs: [...algs] } : {}),
  };
}

/** A setting named as the build's problems name it: its key, and its environment variable. */
const named = (key: string) => {
  const row = SETTING_ROWS.find((r) => r.path === key);
  return row ? `${key} (${row.setting.env})` : key;
};
const ISSUER = named('oauth.issuer');

/** The endpoints the metadata names, by setting: the build takes each it is not given. */
const ENDPOINTS = [
  { key: 'authorizationEndpoint', field: 'authorization_endpoint', needed: true },
  { key: 'tokenEndpoint', field: 'token_endpoint', needed: true },
  { key: 'revocationEndpoint', field: 'revocation_endpoint', needed: false },
] as const;

export interface WithMetadata {
  settings: ResolvedSettings;
  problems: string[];
  warnings: string[];
}

/**
 * The settings with what the sign-in server's metadata says, when the operator gave `oauth.issuer`:
 * its exact issuer, every endpoint not set (an endpoint set otherwise is a problem naming the
 * setting: a build for a server it does not agree with), and the facts the authorization request
 * follows (`oauthServer`). An issuer whose document names another, or that cannot be read, is a
 * problem naming `oauth.issuer`. Explicit endpoints stay for a server that publishes nothing.
 * Without `oauth.issuer`, or without a client id and panel, nothing is fetched and nothing assumed.
 */
export async function withServerMetadata(settings: ResolvedSettings): Promise<WithMetadata> {
  const out: WithMetadata = { settings, problems: [], warnings: [] };
  const { oauth: o } = settings;
  if (!o.clientId || !settings.apiBaseUrl || !o.issuer || settings.sources['oauth.issuer'] === 'default') return out;
  const found = await discover(o.issuer);
  if (found.kind === 'metadata') return taken(settings, found);
  if (found.kind === 'other-issuer')
    out.problems.push(
      `${ISSUER} is ${o.issuer}, but the server's metadata (${found.url}) names its issuer ${found.published}: set oauth.issuer to ${found.published}`,
    );
  else if (found.kind === 'unreadable')
    out.problems.push(
      `${ISSUER} ${o.issuer}: its metadata could not be read at ${found.url} (${found.why}). Build where the server answers: the build takes what sign-in asks for from it`,
    );
  else if (!o.authorizationEndpoint || !o.tokenEndpoint)
    out.problems.push(
      `${ISSUER} ${o.issuer} publishes no metadata (${found.tried.join(', ')}): set oauth.authorizationEndpoint and oauth.tokenEndpoint, which it would have named`,
    );
  else
    out.warnings.push(
      `${ISSUER} ${o.issuer} publishes no metadata (${found.tried.join(', ')}): sign-in asks it as a plain OAuth 2.0 server, with the endpoints and scopes as set`,
    );
  return out;
}

const sameAddress = (a: string, b: string) => (URL.parse(a)?.href ?? a) === (URL.parse(b)?.href ?? b);

/** The settings completed from the metadata, and every setting it contradicts. */
function taken(settings: ResolvedSettings, found: Extract<Discovery, { kind: 'metadata' }>): WithMetadata {
  const { server, url } = found;
  const problems: string[] = [];
  const warnings: string[] = [];
  const oauth = { ...settings.oauth, issuer: server.issuer };
  for (const { key, field, needed } of ENDPOINTS) {
    const set = settings.oauth[key];
    const published = server[field] ?? '';
    if (set && published && !sameAddress(set, published))
      problems.push(
        `${named(`oauth.${key}`)} is ${set}, but the server's metadata (${url}) names ${field} ${published}: set it to ${published}, or leave it out to take it from there`,
      );
    else if (!set && published) {
      const checked = v.safeParse(SETTINGS.oauth[key].schema, published);
      if (checked.success) oauth[key] = checked.output;
      else
        problems.push(
          `the server's metadata (${url}) names ${field} ${published}, which ${checked.issues[0]?.message ?? 'is not valid'}: correct the server's metadata, or set oauth.${key}`,
        );
    } else if (!set && needed) problems.push(`the server's metadata (${url}) names no ${field}: set oauth.${key}`);
  }
  const listed = server.scopes_supported;
  const unlisted = listed ? settings.oauth.scopes.split(' ').filter((scope) => scope && !listed.includes(scope)) : [];
  // Servers may leave scopes out of that list (RFC 8414 §2; an API's own scopes often are): said, not refused.
  if (unlisted.length)
    warnings.push(
      `${named('oauth.scopes')} asks ${unlisted.join(', ')}, which the server's metadata (${url}) does not list in scopes_supported (${listed!.join(' ')}): a server may leave scopes out of that list, so check the name`,
    );
  return {
    settings: { ...settings, oauth, oauthServer: factsOf(server, found.via) },
    problems,
    warnings,
  };
}

/**
 * The settings for a build in `mode` with the sign-in server's metadata taken in, for the tools
 * that need no more of the build's one-pass check (`npm run ids`). Throws a PanelConfigError
 * naming every problem.
 */
export async function settingsWithMetadata(
  env: Record<string, string | undefined>,
  mode: string,
): Promise<{ settings: ResolvedSettings; warnings: string[] }> {
  const resolved = resolveSettings(env, mode);
  const { settings, problems, warnings } = await withServerMetadata(resolved.settings);
  const all = [...resolved.problems, ...problems];
  if (all.length) throw new PanelConfigError(all, warnings);
  return { settings, warnings };
}
