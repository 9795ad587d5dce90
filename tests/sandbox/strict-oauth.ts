/**
 * An independent, strict authorization server for the sign-in tests: panva's oidc-provider (an
 * OpenID Certified implementation, used in production), not the sandbox's own, so the extension's
 * sign-in is held to a server whose rules it did not shape. Configured strictly: a public client
 * with PKCE S256 required, redirect URIs matched exactly (a web client: no loopback port leeway),
 * `iss` in every authorization response (RFC 9207, always on in oidc-provider), codes that live
 * 30 s, refresh tokens rotated on every use, revocation (RFC 7009).
 *
 * The panel API stays the sandbox: the panel is the resource server (resource indicator), and its
 * opaque access tokens are accepted by the sandbox once oidc-provider has issued them at its token
 * endpoint, and no longer once revoked there. Nothing here hands a token to the extension: it gets
 * one only by the real code exchange.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type Client, type KoaContextWithOIDC } from 'oidc-provider';
import { SANDBOX_CLIENT_ID, SANDBOX_EMAIL, SANDBOX_PASSWORD } from './oauth';
import type { Sandbox } from './server';

export const STRICT_PATHS = { authorize: '/auth', token: '/token', revocation: '/token/revocation' } as const;
/** The scope the panel API's tokens carry. */
export const STRICT_SCOPE = 'panel';

export interface StrictOAuth {
  issuer: string;
  /** What the token endpoint was asked, in order, and whether it answered with tokens. */
  exchanges: Array<{ grantType: string | null; redirectUri: string | null; verifier: boolean; ok: boolean }>;
  close(): Promise<void>;
}

/**
 * `origins`: the extension's own origins (chrome-extension://ID, moz-extension://UUID). The
 * background's token requests carry one as `Origin` even with host access, and oidc-provider
 * refuses a request from an origin its CORS check does not allow ("origin … not allowed for client").
 */
export async function startStrictOAuth(options: {
  port: number;
  redirectUris: string[];
  origins: string[];
  sandbox: Pick<Sandbox, 'url' | 'otherKeys'>;
}): Promise<StrictOAuth> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const resource = `${options.sandbox.url}/`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: SANDBOX_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: options.redirectUris,
      },
    ],
    pkce: { required: () => true },
    routes: { authorization: STRICT_PATHS.authorize, token: STRICT_PATHS.token, revocation: STRICT_PATHS.revocation },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: STRICT_SCOPE,
          audience: resource,
          accessTokenFormat: 'opaque',
          accessTokenTTL: 600,
        }),
      },
    },
    scopes: [STRICT_SCOPE],
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: KoaContextWithOIDC, client: Client) => client.grantTypeAllowed('refresh_token'),
    ttl: { AuthorizationCode: 30, Interaction: 600, Session: 600, Grant: 3600, RefreshToken: 3600 },
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string) => options.origins.includes(origin),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });
  provider.on('access_token.saved', (token: { jti: string }) => options.sandbox.otherKeys.add(token.jti));
  provider.on('access_token.destroyed', (token: { jti: string }) => options.sandbox.otherKeys.delete(token.jti));

  const exchanges: StrictOAuth['exchanges'] = [];
  const record = (ctx: KoaContextWithOIDC, ok: boolean) => {
    const params = ctx.oidc.params as Record<string, string | undefined>;
    exchanges.push({
      grantType: params.grant_type ?? null,
      redirectUri: params.redirect_uri ?? null,
      verifier: !!params.code_verifier,
      ok,
    });
  };
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => record(ctx, true));
  provider.on('grant.error', (ctx: KoaContextWithOIDC) => record(ctx, false));
  const callback = provider.callback();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const interaction = /^\/interaction\/([\w-]+)(?:\/(login|decide))?$/.exec(url.pathname);
    if (interaction) {
      void interact(provider, req, res, (interaction[2] as 'login' | 'decide' | undefined) ?? null).catch(
        (error: unknown) => page(res, 500, `<p>${escape(String(error))}</p>`),
      );
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    issuer,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A browser's keep-alive connection would hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString());
}

/** The sign-in page, then the consent page: the same labels as the sandbox's, so the same test steps drive both. */
async function interact(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  step: 'login' | 'decide' | null,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const { uid, prompt, params } = details;
  if (step === null && prompt.name === 'login') return signInPage(res, uid);
  if (step === null) return consentPage(res, uid);
  const form = await readForm(req);
  if (step === 'login') {
    if ((form.get('email') ?? '').trim().toLowerCase() !== SANDBOX_EMAIL || form.get('password') !== SANDBOX_PASSWORD) {
      return signInPage(res, uid, 'Wrong e-mail or password. Check both and try again.');
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
  const missing = prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

function signInPage(res: ServerResponse, uid: string, error = ''): void {
  page(
    res,
    200,
    `<h1>Sign in to Panel Rewards</h1>${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
<label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>`,
  );
}

function consentPage(res: ServerResponse, uid: string): void {
  page(
    res,
    200,
    `<h1>Allow Panel Rewards to see your points and profile?</h1>
<form method="post" action="/interaction/${uid}/decide">
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
