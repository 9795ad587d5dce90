/**
 * A real OpenID provider for the sign-in tests: panva's oidc-provider (OpenID Certified, used in
 * production), at its defaults. Only what an operator must give is given: the extension's client,
 * registered as OPERATORS.md ("oidc-provider") says, the sign-in and consent pages (labelled like
 * the sandbox's, so the same steps drive both), an account lookup, revocation switched on, and
 * production keys. Every policy is the provider's own: PKCE required of a public client, refresh
 * tokens only for `offline_access` asked with `prompt=consent`, rotated on every use, `iss` on every
 * authorization response, the login remembered in a cookie, and CORS allowed only from the origins
 * of the client's redirect URIs (`clientBasedCORS`) — which is why the extension's requests must
 * reach it without the extension's own Origin.
 *
 * The panel API stays the sandbox: it accepts an access token while the provider's own records
 * hold it (issued, not ended, its grant not revoked), as a resource server asking the provider
 * would. Nothing here hands a token to the extension: it gets one only by the real code exchange.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { SANDBOX_CLIENT_ID, SANDBOX_EMAIL, SANDBOX_PASSWORD } from './oauth';
import type { Sandbox } from './server';

/** oidc-provider's own default routes, under the issuer's path. */
export const OIDC_PATHS = { authorize: '/auth', token: '/token', revocation: '/token/revocation' } as const;

/** One request to the token endpoint, as the provider saw it. */
export interface Exchange {
  grantType: string | null;
  redirectUri: string | null;
  verifier: boolean;
  /** The `Origin` header the request came with (null: none). */
  origin: string | null;
  /** The OAuth error it was answered with; null when it issued tokens. */
  error: string | null;
}

export interface OpenIdProvider {
  issuer: string;
  exchanges: Exchange[];
  /** Every request to the revocation endpoint, with its `Origin` header (null: none). */
  revocations: Array<{ origin: string | null }>;
  /** The authorization requests' `scope`, `prompt` and `max_age`, in order. */
  authorizations: Array<{ scope: string | null; prompt: string | null; maxAge: string | null }>;
  /** The pages the panelist answered, in order: `login` (e-mail and password) or `consent` (Allow or Deny). */
  answered: Array<'login' | 'consent'>;
  /** The provider ends every access token it issued (as at their expiry): the panel stops taking them. */
  endAccessTokens(): Promise<number>;
  /** The panelist's grants revoked at the provider (as from their account page): every token of them ends. */
  revokeGrants(): Promise<number>;
  /** What the provider's records say of a refresh token. */
  refreshToken(value: string): Promise<'live' | 'used' | 'gone'>;
  close(): Promise<void>;
}

export interface OpenIdProviderOptions {
  port: number;
  redirectUris: string[];
  sandbox: Pick<Sandbox, 'url' | 'otherKeys'>;
  /** Mount the issuer under this path (`/oidc`: issuer http://127.0.0.1:PORT/oidc). */
  path?: string;
  /**
   * A server set up otherwise than OPERATORS.md says, for the pre-flight's failures only: more
   * metadata of the client, more configuration of the provider. The browser tests never pass it.
   */
  otherwise?: { client?: Record<string, unknown>; provider?: Record<string, unknown> };
}

/** Production signing keys, as an operator provides them (the provider's own are for development only). */
function signingKeys(): { keys: Record<string, unknown>[] } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'panel-sign-in', use: 'sig', alg: 'RS256' }] };
}

export async function startOpenIdProvider(options: OpenIdProviderOptions): Promise<OpenIdProvider> {
  const mount = options.path ?? '';
  const issuer = `http://127.0.0.1:${options.port}${mount}`;
  const provider = new Provider(issuer, {
    // The extension's client, as OPERATORS.md says to register it: public, with both grants.
    clients: [
      {
        client_id: SANDBOX_CLIENT_ID,
        // A browser extension is an app on the panelist's device with claimed https redirects:
        // a native client, whose rotated refresh tokens each get the whole lifetime again.
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: options.redirectUris,
        ...options.otherwise?.client,
      },
    ],
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    jwks: signingKeys(),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `${mount}/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    ...options.otherwise?.provider,
  });

  const held = trackAccessTokens(provider, options.sandbox.otherKeys);
  const recorded = record(provider);
  const callback = provider.callback();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${options.port}`);
    const interaction = new RegExp(`^${mount}/interaction/([\\w-]+)(?:/(login|decide))?$`).exec(url.pathname);
    if (interaction) {
      const step = (interaction[2] as 'login' | 'decide' | undefined) ?? null;
      void interact(provider, req, res, step, mount, recorded.answered).catch((error: unknown) =>
        page(res, 500, `<p>${escape(String(error))}</p>`),
      );
      return;
    }
    if (req.method === 'POST' && url.pathname === `${mount}${OIDC_PATHS.revocation}`)
      recorded.revocations.push({ origin: req.headers.origin ?? null });
    if (req.method === 'GET' && url.pathname === `${mount}${OIDC_PATHS.authorize}`) {
      const asked = (name: string) => url.searchParams.get(name);
      recorded.authorizations.push({ scope: asked('scope'), prompt: asked('prompt'), maxAge: asked('max_age') });
    }
    if (!url.pathname.startsWith(`${mount}/`)) return page(res, 404, '<p>Not found</p>');
    // Mounted as a framework mounts it: the provider sees its own path, and the whole one as originalUrl.
    Object.assign(req, { originalUrl: req.url, url: req.url!.slice(mount.length) || '/' });
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    issuer,
    ...recorded,
    endAccessTokens: held.end,
    revokeGrants: held.revoke,
    async refreshToken(value) {
      const token = await provider.RefreshToken.find(value);
      return !token ? 'gone' : token.consumed ? 'used' : 'live';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A browser's keep-alive connection would hold close() open.
        server.closeAllConnections();
      }),
  };
}

/**
 * The panel takes an access token while the provider holds it: issued, not ended or revoked, its
 * grant not revoked (a grant's revocation ends its tokens without an event per token).
 */
function trackAccessTokens(provider: Provider, accepted: Set<string>) {
  const grants = new Map<string, string>();
  provider.on('access_token.saved', (token: { jti: string; grantId: string }) => {
    accepted.add(token.jti);
    grants.set(token.jti, token.grantId);
  });
  provider.on('access_token.destroyed', (token: { jti: string }) => accepted.delete(token.jti));
  const endGrant = (grantId: string) => {
    for (const [jti, grant] of grants) if (grant === grantId) accepted.delete(jti);
  };
  provider.on('grant.revoked', (_ctx: unknown, grantId: string) => endGrant(grantId));
  return {
    async end(): Promise<number> {
      let ended = 0;
      for (const jti of grants.keys()) {
        const token = await provider.AccessToken.find(jti);
        if (token) await token.destroy().then(() => ended++);
      }
      return ended;
    },
    async revoke(): Promise<number> {
      const ids = new Set(grants.values());
      for (const grantId of ids) {
        await Promise.all([
          provider.AccessToken.revokeByGrantId(grantId),
          provider.RefreshToken.revokeByGrantId(grantId),
          provider.AuthorizationCode.revokeByGrantId(grantId),
          provider.Grant.adapter.destroy(grantId),
        ]);
        endGrant(grantId);
      }
      return ids.size;
    },
  };
}

/** What the provider was asked, from its own events. */
function record(provider: Provider) {
  const exchanges: Exchange[] = [];
  const authorizations: OpenIdProvider['authorizations'] = [];
  const answered: OpenIdProvider['answered'] = [];
  const revocations: OpenIdProvider['revocations'] = [];
  const exchange = (ctx: KoaContextWithOIDC, error: string | null) => {
    const params = (ctx.oidc?.params ?? {}) as Record<string, string | undefined>;
    exchanges.push({
      grantType: params.grant_type ?? null,
      redirectUri: params.redirect_uri ?? null,
      verifier: !!params.code_verifier,
      origin: ctx.get('Origin') || null,
      error,
    });
  };
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => exchange(ctx, null));
  provider.on('grant.error', (ctx: KoaContextWithOIDC, error: { error?: string }) =>
    exchange(ctx, error.error ?? 'error'),
  );
  return { exchanges, authorizations, answered, revocations };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString());
}

/** The sign-in page, then the consent page, as the provider's prompts ask for them. */
async function interact(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  step: 'login' | 'decide' | null,
  mount: string,
  answered: OpenIdProvider['answered'],
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const { uid, prompt, params } = details;
  const at = `${mount}/interaction/${uid}`;
  if (step === null) return prompt.name === 'login' ? signInPage(res, at) : consentPage(res, at);
  // What the panelist answered, not what was loaded: Firefox's sign-in window sends the
  // authorization request twice, and only the second window's pages are used.
  answered.push(step === 'login' ? 'login' : 'consent');
  const form = await readForm(req);
  if (step === 'login') {
    if ((form.get('email') ?? '').trim().toLowerCase() !== SANDBOX_EMAIL || form.get('password') !== SANDBOX_PASSWORD) {
      return signInPage(res, at, 'Wrong e-mail or password. Check both and try again.');
    }
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: 'panelist-1' } },
      { mergeWithLastSubmission: false },
    );
  }
  if (form.get('decision') !== 'allow') {
    return provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The panelist denied access.' },
      { mergeWithLastSubmission: false },
    );
  }
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: details.session!.accountId, clientId: String(params.client_id) });
  const missing = prompt.details as { missingOIDCScope?: string[] };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

function signInPage(res: ServerResponse, at: string, error = ''): void {
  page(
    res,
    200,
    `<h1>Sign in to Panel Rewards</h1>${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="${at}/login">
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>`,
  );
}

function consentPage(res: ServerResponse, at: string): void {
  page(
    res,
    200,
    `<h1>Allow Panel Rewards to see your points and profile?</h1>
<form method="post" action="${at}/decide">
<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></form>`,
  );
}

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Sign in</title></head><body>${body}</body></html>`,
  );
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
