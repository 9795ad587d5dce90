/**
 * The pre-flight's checks of the sign-in server itself, beside the redirect URLs (sign-in.ts):
 *
 * - **The issuer.** The server's metadata, found at the build's issuer or, where that has none,
 *   under the authorization endpoint's path (an issuer mounted under a path that the build does
 *   not know: every `iss` then names another server, and every sign-in fails).
 * - **A refresh token.** Whether the scope the extension asks yields one, by the server's own
 *   metadata: an OpenID provider issues one for `offline_access` asked with `prompt=consent`
 *   (OpenID Connect Core §11), which the extension asks only when the build read its metadata.
 * - **The requests the extension sends**, to the token and revocation endpoints, with a made-up
 *   code and refresh token: as the extension sends them (no `Origin`,
 *   entrypoints/background/auth/without-origin.ts), and with each browser's own `Origin`, so that
 *   the answer tells a refused client or origin from the `invalid_grant` a made-up token earns.
 *
 * Nothing is signed in and nothing is issued: no code or token used here was ever the server's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { extensionIds } from '../../../utils/build/operator/extension-ids';
import { discover, factsOf, type Discovery } from '../../../utils/build/operator/oauth-discovery';
import type { ResolvedSettings } from '../../../utils/build/operator/panel-config';
import { authorizationParams, consentPromptOf } from '../../../utils/sign-in-server';
import type { Check } from './checks';

const TOPIC = 'Sign-in';
const TIMEOUT_MS = 10_000;

type Found = Extract<Discovery, { kind: 'metadata' }>;

/** The addresses an issuer under the authorization endpoint's path could have, longest first. */
export function issuersNear(authorizationEndpoint: string): string[] {
  const url = new URL(authorizationEndpoint);
  const parts = url.pathname.split('/').filter(Boolean).slice(0, -1);
  return parts.map((_, i) => `${url.origin}/${parts.slice(0, parts.length - i).join('/')}`);
}

/**
 * The server's metadata, and what the pre-flight says of the build's issuer against it. Without
 * metadata at the build's issuer, the addresses under the authorization endpoint's path are tried:
 * a server found there names the issuer the build must have.
 */
export async function issuerChecks(settings: ResolvedSettings): Promise<{ checks: Check[]; found: Found | null }> {
  const { issuer, authorizationEndpoint } = settings.oauth;
  const given = settings.sources['oauth.issuer'] !== 'default';
  const named = given
    ? `oauth.issuer ${issuer}`
    : `the build's issuer ${issuer} (oauth.issuer not set: the authorization endpoint's origin)`;
  const at = await discover(issuer);
  if (at.kind === 'metadata')
    return {
      checks: [{ level: 'ok', topic: TOPIC, text: `${named} is the server's own: its metadata (${at.url}) names it.` }],
      found: at,
    };
  if (at.kind === 'other-issuer') return { checks: [wrongIssuer(named, at.published, at.url)], found: null };
  for (const candidate of issuersNear(authorizationEndpoint)) {
    if (candidate === issuer) continue;
    const near = await discover(candidate);
    if (near.kind === 'metadata' && near.server.authorization_endpoint === authorizationEndpoint)
      return { checks: [wrongIssuer(named, near.server.issuer, near.url)], found: near };
  }
  if (at.kind === 'unreadable')
    return {
      checks: [
        {
          level: 'warn',
          topic: TOPIC,
          text: `The server's metadata could not be read at ${at.url} (${at.why}), so ${named} was not compared with it.`,
          change: 'Run the pre-flight where the sign-in server can be reached.',
        },
      ],
      found: null,
    };
  return {
    checks: [
      {
        level: 'info',
        topic: TOPIC,
        text: `${issuer} publishes no metadata (RFC 8414, OpenID Connect Discovery), nor does any address under the authorization endpoint's path: the endpoints are taken as set, and an \`iss\` the server sends must be ${issuer}.`,
      },
    ],
    found: null,
  };
}

function wrongIssuer(named: string, published: string, url: string): Check {
  return {
    level: 'fail',
    topic: TOPIC,
    text: `The server's metadata (${url}) names its issuer ${published}, but ${named}: an \`iss\` it sends names another server, and every sign-in ends with "did not belong to this sign-in".`,
    change: `Set oauth.issuer to ${published} (its metadata then names the endpoints too).`,
  };
}

/** Whether the scope the extension asks yields a refresh token, by the server's own metadata. */
export function refreshChecks(settings: ResolvedSettings, found: Found | null): Check[] {
  if (!found) return [];
  const live = factsOf(found.server, found.via);
  const asked = authorizationParams(
    settings.oauth.scopes,
    settings.oauthServer,
    false,
    consentPromptOf(settings.oauth),
  );
  const scope = asked.scope ?? '(none)';
  const grants = found.server.grant_types_supported;
  const fail = (text: string, change: string): Check[] => [{ level: 'fail', topic: TOPIC, text, change }];
  if (grants && !grants.includes('refresh_token'))
    return fail(
      `The server's grant types are ${grants.join(', ')}, without refresh_token: no scope yields a refresh token, so panelists sign in again whenever an access token ends.`,
      'Allow the refresh_token grant to the extension’s client, and list it in grant_types_supported.',
    );
  if (!live.openid)
    return [
      {
        level: 'info',
        topic: TOPIC,
        text: `A plain OAuth 2.0 server: whether it issues a refresh token for the scope asked (${scope}) is its own rule, which its metadata does not say.`,
      },
    ];
  if (!settings.oauthServer.metadata)
    return fail(
      `The server is an OpenID provider, but the build did not read its metadata (oauth.issuer not set): the extension asks ${scope} without offline_access and prompt=consent, and an OpenID provider issues no refresh token for that (OpenID Connect Core §11), so panelists sign in again whenever an access token ends.`,
      `Set oauth.issuer to ${found.server.issuer}: the extension then asks openid and offline_access with prompt=consent.`,
    );
  if (!live.offlineAccess)
    return fail(
      `The server is an OpenID provider whose scopes_supported (${found.server.scopes_supported?.join(' ')}) has no offline_access: it issues refresh tokens for offline access only (OpenID Connect Core §11), so the scope asked (${scope}) yields none, and panelists sign in again whenever an access token ends.`,
      'Offer offline_access to the extension’s client, and list it in scopes_supported.',
    );
  return [
    {
      level: 'ok',
      topic: TOPIC,
      text: `The scope asked (${scope}, ${asked.prompt ? `with prompt=${asked.prompt}` : 'without prompt=consent: oauth.consentPrompt omit'}) yields a refresh token by the server's metadata: an OpenID provider listing offline_access${grants ? ' and the refresh_token grant' : ''}.`,
    },
  ];
}

interface Answer {
  status: number;
  error: string | null;
  description: string;
}

async function post(url: string, form: Record<string, string>, origin: string | null): Promise<Answer | string> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
        ...(origin ? { Origin: origin } : {}),
      },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => null)) as { error?: unknown; error_description?: unknown } | null;
    return {
      status: response.status,
      error: typeof body?.error === 'string' ? body.error : null,
      description: typeof body?.error_description === 'string' ? body.error_description.slice(0, 200) : '',
    };
  } catch (error) {
    return (error as Error).message;
  }
}

interface Probe {
  what: string;
  url: string;
  form: Record<string, string>;
  /** The answer a made-up code or token earns from a server that takes the request. */
  expected: (answer: Answer) => boolean;
}

/** The requests the extension sends, each with a code or token the server never issued. */
function probes(settings: ResolvedSettings): Probe[] {
  const { oauth: o } = settings;
  const client = { client_id: o.clientId };
  const madeUp = () => randomBytes(32).toString('base64url');
  const refused = (answer: Answer) => answer.status === 400 && answer.error === 'invalid_grant';
  return [
    {
      what: 'the code exchange',
      url: o.tokenEndpoint,
      form: {
        grant_type: 'authorization_code',
        code: madeUp(),
        redirect_uri: extensionIds(settings).firefox.redirectUrl,
        code_verifier: oauth.generateRandomCodeVerifier(),
        ...client,
      },
      expected: refused,
    },
    {
      what: 'a renewal',
      url: o.tokenEndpoint,
      form: { grant_type: 'refresh_token', refresh_token: madeUp(), ...client },
      expected: refused,
    },
    ...(o.revocationEndpoint
      ? [
          {
            what: 'a revocation',
            url: o.revocationEndpoint,
            form: { token: madeUp(), token_type_hint: 'refresh_token', ...client },
            // RFC 7009 §2.2: a token the server does not know is answered 200 all the same.
            expected: (answer: Answer) => answer.status === 200,
          },
        ]
      : []),
  ];
}

const said = (answer: Answer | string) =>
  typeof answer === 'string'
    ? `no answer (${answer})`
    : `HTTP ${answer.status}${answer.error ? ` ${answer.error}` : ''}${answer.description ? ` "${answer.description}"` : ''}`;

/** What to change for a request the extension sends that the server refuses. */
function fixFor(answer: Answer, clientId: string): string {
  if (answer.error === 'invalid_client')
    return `Register ${clientId} as a public client (no secret: token_endpoint_auth_method none) with the authorization_code and refresh_token grants.`;
  if (answer.error === 'unauthorized_client' || answer.error === 'unsupported_grant_type')
    return `Allow the authorization_code and refresh_token grants to client ${clientId}.`;
  if (/origin|cors|cross-origin|single-page/i.test(answer.description) || answer.status === 403)
    return `Let client ${clientId} send its requests without an Origin header, as a public native client (Microsoft Entra ID: its redirect URLs under "Mobile and desktop applications", not "Single-page application"): the extension sends none (OPERATORS.md, "The Origin the sign-in server sees").`;
  return `Find in the server's log why it refuses client ${clientId} here, and let it through.`;
}

/**
 * The extension's own requests, each with a made-up code or token: as the extension sends them
 * (a refusal other than `invalid_grant` breaks sign-in: fail, naming the fix), and with each
 * browser's own `Origin` (what a browser that did not apply the extension's header rule would send:
 * said, for what it is).
 */
export async function requestChecks(settings: ResolvedSettings): Promise<Check[]> {
  const ids = extensionIds(settings);
  // A Chrome id is 32 letters a–p; a stand-in where chromeKey does not fix it yet.
  const chrome = `chrome-extension://${ids.chrome?.id ?? 'a'.repeat(32)}`;
  // Firefox gives each installation its own: any one stands for them all.
  const firefox = `moz-extension://${randomUUID()}`;
  const checks: Check[] = [];
  for (const probe of probes(settings)) {
    const sent = await post(probe.url, probe.form, null);
    if (typeof sent === 'string' || sent.status >= 500) {
      checks.push({
        level: 'warn',
        topic: TOPIC,
        text: `${probe.what} at ${probe.url} could not be checked: ${said(sent)}.`,
        change: 'Run the pre-flight where the sign-in server answers.',
      });
      continue;
    }
    if (!probe.expected(sent)) {
      checks.push({
        level: 'fail',
        topic: TOPIC,
        text: `${probe.url} refuses ${probe.what} as the extension sends it (without Origin, for client ${settings.oauth.clientId}): ${said(sent)}, where a made-up ${probe.what === 'a revocation' ? 'token earns 200' : 'code or token earns invalid_grant'}. Sign-in fails there.`,
        change: fixFor(sent, settings.oauth.clientId),
      });
      continue;
    }
    const withOrigin = await Promise.all(
      [
        ['Chrome', chrome],
        ['Firefox', firefox],
      ].map(async ([browser, origin]) => ({
        browser: browser!,
        origin: origin!,
        answer: await post(probe.url, probe.form, origin!),
      })),
    );
    const refused = withOrigin.filter(({ answer }) => typeof answer === 'string' || !probe.expected(answer));
    checks.push({
      level: refused.length ? 'info' : 'ok',
      topic: TOPIC,
      text:
        `${probe.url} takes ${probe.what} as the extension sends it (without Origin: ${said(sent)} for a made-up one)` +
        (refused.length
          ? `; with the browser's own Origin it refuses it (${refused.map(({ browser, origin, answer }) => `${browser}, ${origin}: ${said(answer)}`).join('; ')}). The extension removes that header from its sign-in requests, so this is what only a browser that did not apply its header rule (before Chrome 101, Firefox 113) would meet.`
          : `, and with either browser's own Origin too.`),
    });
  }
  return checks;
}
