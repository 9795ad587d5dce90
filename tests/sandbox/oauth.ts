/**
 * What a panel operator's authorization server does, for the sandbox: the authorization code flow
 * with PKCE (RFC 6749 §4.1, RFC 7636 S256 only), refresh tokens rotated on every use, token
 * revocation (RFC 7009) and the standard error bodies (RFC 6749 §5.2). Access tokens it issues are accepted by the panel API
 * until they expire. Test controls live in oauth-control.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { json } from './http-util';
import { consentPage, donePage, errorPage, signInPage } from './oauth-page';
import type { ApiRequest, ApiResult } from './types';

export const SANDBOX_CLIENT_ID = 'panel-rewards-extension';
export const SANDBOX_EMAIL = 'panelist@sandbox.example';
export const SANDBOX_PASSWORD = 'sandbox-password-42';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  decision: '/oauth/decision',
  token: '/oauth/token',
  revocation: '/oauth/revocation',
  /** The panel's own page where sign-in in a tab comes back (the extension's default `oauth.tabRedirectUrl`). */
  done: '/extension-sign-in-done',
} as const;

const CLIENT_NAME = 'Panel Rewards';
const CODE_TTL_MS = 10 * 60_000;
const SIGN_IN_TTL_MS = 30 * 60_000;
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;

/**
 * Without an exact list, any extension redirect URL is accepted (Chrome's chromiumapp.org, Firefox's
 * extensions.allizom.org), because a development build's extension id is not known in advance.
 */
const EXTENSION_REDIRECT = /^https:\/\/[a-z0-9]+\.(chromiumapp\.org|extensions\.allizom\.org)\/[^?#]*$/;
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface OAuthSettings {
  accessTokenTtlSeconds: number;
  /**
   * Exact redirect URLs; null accepts any extension redirect URL and the sandbox's own page for
   * sign-in in a tab (OAUTH_PATHS.done on the origin the request came to).
   */
  redirectUris: string[] | null;
  /**
   * The `iss` every authorization response carries (RFC 9207): null for the server's own origin
   * (what the extension expects of the sandbox), '' for none; a test sets another to see it refused.
   */
  iss: string | null;
}

/** One sign-in in progress, between the authorization request and the panelist's decision. */
interface Pending {
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string;
  scope: string;
  signedIn: string | null;
  expiresAt: number;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  expiresAt: number;
  used: boolean;
  /** Tokens descending from one code form a family, revoked together when a code or refresh token is replayed. */
  family: string;
}

interface Grant {
  family: string;
  clientId: string;
  scope: string;
}

const random = (): string => randomBytes(24).toString('base64url');

export class OAuthServer {
  settings: OAuthSettings = { accessTokenTtlSeconds: DEFAULT_ACCESS_TOKEN_TTL_SECONDS, redirectUris: null, iss: null };
  private pending = new Map<string, Pending>();
  private codes = new Map<string, Code>();
  private accessTokens = new Map<string, { expiresAt: number; family: string }>();
  /** Current refresh tokens; rotated-out ones stay in `spent` so a replay can be recognised. */
  private refreshTokens = new Map<string, Grant>();
  private spent = new Map<string, string>();
  private revoked = new Set<string>();
  /** What the revocation endpoint was asked to end, in order: which kind of token it turned out to be. */
  readonly revocations: Array<'refresh_token' | 'access_token' | 'unknown'> = [];

  reset(): void {
    this.settings = { accessTokenTtlSeconds: DEFAULT_ACCESS_TOKEN_TTL_SECONDS, redirectUris: null, iss: null };
    for (const store of [this.pending, this.codes, this.accessTokens, this.refreshTokens, this.spent]) store.clear();
    this.revoked.clear();
    this.revocations.length = 0;
  }

  /** Whether the bearer token is an access token this server issued and that has not expired. */
  accepts(token: string | null): boolean {
    const issued = token ? this.accessTokens.get(token) : undefined;
    return !!issued && issued.expiresAt > Date.now() && !this.revoked.has(issued.family);
  }

  /** Test control: every access token issued so far expires now; refresh tokens stay valid. */
  expireAccessTokens(): number {
    for (const issued of this.accessTokens.values()) issued.expiresAt = 0;
    return this.accessTokens.size;
  }

  /** Test control: the panelist revoked the extension's access; every refresh is refused. */
  revokeAll(): void {
    for (const grant of this.refreshTokens.values()) this.revoked.add(grant.family);
    for (const issued of this.accessTokens.values()) this.revoked.add(issued.family);
  }

  /** Test inspection: the refresh tokens that would still renew now (issued, not spent, their family not revoked). */
  liveRefreshTokens(): string[] {
    return [...this.refreshTokens].filter(([, grant]) => !this.revoked.has(grant.family)).map(([token]) => token);
  }

  counts(): { accessTokens: number; refreshTokens: number; revocations: number } {
    return {
      accessTokens: this.accessTokens.size,
      refreshTokens: this.refreshTokens.size,
      revocations: this.revocations.length,
    };
  }

  handle(req: ApiRequest): ApiResult {
    const form = req.method === 'POST' ? new URLSearchParams(req.rawBody) : req.query;
    // The sandbox is plain http on this machine: its origin is the one the request names.
    const own = `http://${req.headers.host ?? '127.0.0.1'}`;
    if (req.path === OAUTH_PATHS.done && req.method === 'GET') return donePage(req.query);
    if (req.path === OAUTH_PATHS.authorize && req.method === 'GET') return this.authorize(req.query, own);
    if (req.path === OAUTH_PATHS.authorize && req.method === 'POST') return this.signIn(form);
    if (req.path === OAUTH_PATHS.decision && req.method === 'POST') return this.decide(form, own);
    if (req.path === OAUTH_PATHS.token && req.method === 'POST') return this.token(form);
    if (req.path === OAUTH_PATHS.revocation && req.method === 'POST') return this.revoke(form);
    const allow = req.path === OAUTH_PATHS.authorize ? 'GET, POST' : req.path === OAUTH_PATHS.done ? 'GET' : 'POST';
    return json(
      405,
      { error: 'invalid_request', error_description: `${req.method} is not allowed on ${req.path}` },
      { Allow: allow },
    );
  }

  private redirectAllowed(uri: string, own: string): boolean {
    return this.settings.redirectUris
      ? this.settings.redirectUris.includes(uri)
      : EXTENSION_REDIRECT.test(uri) || uri === `${own}${OAUTH_PATHS.done}`;
  }

  /** RFC 9207: who answered, on every authorization response. */
  private iss(own: string): string | null {
    return this.settings.iss === null ? own : this.settings.iss || null;
  }

  private authorize(query: URLSearchParams, own: string): ApiResult {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    // Unknown client or redirect URL: said on the page, never redirected (RFC 6749 §4.1.2.1).
    if (clientId !== SANDBOX_CLIENT_ID) return errorPage(400, `Unknown client: "${clientId}".`);
    if (!this.redirectAllowed(redirectUri, own))
      return errorPage(400, `The redirect URL "${redirectUri}" is not registered for this client.`);
    const state = query.get('state');
    const back = (error: string, description: string): ApiResult =>
      redirect(redirectUri, { error, error_description: description, state, iss: this.iss(own) });
    if (query.get('response_type') !== 'code')
      return back('unsupported_response_type', 'Only response_type=code is supported.');
    const challenge = query.get('code_challenge') ?? '';
    if (query.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return back('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256.');
    }
    const txn = random();
    this.pending.set(txn, {
      clientId,
      redirectUri,
      state,
      challenge,
      scope: query.get('scope') ?? '',
      signedIn: null,
      expiresAt: Date.now() + SIGN_IN_TTL_MS,
    });
    return signInPage(txn, CLIENT_NAME);
  }

  private live(txn: string | null): Pending | null {
    const pending = txn ? this.pending.get(txn) : undefined;
    return pending && pending.expiresAt > Date.now() ? pending : null;
  }

  private signIn(form: URLSearchParams): ApiResult {
    const txn = form.get('txn') ?? '';
    const pending = this.live(txn);
    if (!pending) return errorPage(400, 'This sign-in has expired. Close this window and press Sign in again.');
    const email = (form.get('email') ?? '').trim();
    if (email.toLowerCase() !== SANDBOX_EMAIL || form.get('password') !== SANDBOX_PASSWORD) {
      return signInPage(txn, CLIENT_NAME, email, 'Wrong e-mail or password. Check both and try again.');
    }
    pending.signedIn = email;
    return consentPage(txn, CLIENT_NAME, email);
  }

  private decide(form: URLSearchParams, own: string): ApiResult {
    const txn = form.get('txn') ?? '';
    const pending = this.live(txn);
    if (!pending?.signedIn)
      return errorPage(400, 'This sign-in has expired. Close this window and press Sign in again.');
    this.pending.delete(txn);
    const { redirectUri, state } = pending;
    if (form.get('decision') !== 'allow') {
      return redirect(redirectUri, {
        error: 'access_denied',
        error_description: 'The panelist denied access.',
        state,
        iss: this.iss(own),
      });
    }
    const code = random();
    const { clientId, challenge, scope } = pending;
    this.codes.set(code, {
      clientId,
      redirectUri,
      challenge,
      scope,
      expiresAt: Date.now() + CODE_TTL_MS,
      used: false,
      family: random(),
    });
    return redirect(redirectUri, { code, state, iss: this.iss(own) });
  }

  private token(form: URLSearchParams): ApiResult {
    const clientId = form.get('client_id') ?? '';
    if (clientId !== SANDBOX_CLIENT_ID) return oauthError(401, 'invalid_client', 'Unknown client.');
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(form, clientId);
    if (grantType === 'refresh_token') return this.refresh(form, clientId);
    return oauthError(400, 'unsupported_grant_type', `Grant type "${grantType ?? ''}" is not supported.`);
  }

  private exchangeCode(form: URLSearchParams, clientId: string): ApiResult {
    const code = this.codes.get(form.get('code') ?? '');
    if (!code || code.expiresAt <= Date.now())
      return oauthError(400, 'invalid_grant', 'The authorization code is unknown or expired.');
    if (code.used) {
      // A replayed code may be stolen: what was issued for it is revoked (RFC 6749 §4.1.2).
      this.revoked.add(code.family);
      return oauthError(400, 'invalid_grant', 'The authorization code was already used.');
    }
    code.used = true;
    if (code.clientId !== clientId) return oauthError(400, 'invalid_grant', 'The code was issued to another client.');
    if (form.get('redirect_uri') !== code.redirectUri)
      return oauthError(400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
    const verifier = form.get('code_verifier') ?? '';
    if (!VERIFIER.test(verifier) || createHash('sha256').update(verifier).digest('base64url') !== code.challenge) {
      return oauthError(400, 'invalid_grant', 'PKCE verification failed: code_verifier does not match code_challenge.');
    }
    return this.issue({ family: code.family, clientId, scope: code.scope });
  }

  private refresh(form: URLSearchParams, clientId: string): ApiResult {
    const presented = form.get('refresh_token') ?? '';
    const grant = this.refreshTokens.get(presented);
    if (!grant) {
      // A rotated-out token presented again: someone holds a copy, so the whole family goes.
      const family = this.spent.get(presented);
      if (family) this.revoked.add(family);
      return oauthError(400, 'invalid_grant', 'The refresh token is unknown, expired or already used.');
    }
    if (this.revoked.has(grant.family)) return oauthError(400, 'invalid_grant', 'Access was revoked. Sign in again.');
    if (grant.clientId !== clientId)
      return oauthError(400, 'invalid_grant', 'The refresh token was issued to another client.');
    this.refreshTokens.delete(presented);
    this.spent.set(presented, grant.family);
    return this.issue(grant);
  }

  /**
   * RFC 7009: a public client identifies itself by `client_id`. A refresh token ends with its whole
   * grant, access tokens included (§2.1); an access token ends alone. A token that is unknown,
   * expired or already revoked is answered 200 all the same (§2.2), and `token_type_hint` only
   * says where to look first, so it changes nothing here.
   */
  private revoke(form: URLSearchParams): ApiResult {
    const clientId = form.get('client_id') ?? '';
    if (clientId !== SANDBOX_CLIENT_ID) return oauthError(401, 'invalid_client', 'Unknown client.');
    const token = form.get('token');
    if (!token) return oauthError(400, 'invalid_request', 'The token to revoke is missing.');
    const grant = this.refreshTokens.get(token);
    if (grant && grant.clientId !== clientId)
      return oauthError(400, 'invalid_request', 'The token was issued to another client.');
    if (grant) {
      this.revoked.add(grant.family);
      this.refreshTokens.delete(token);
      this.revocations.push('refresh_token');
    } else if (this.accessTokens.delete(token)) {
      this.revocations.push('access_token');
    } else {
      this.revocations.push('unknown');
    }
    return { status: 200 };
  }

  private issue(grant: Grant): ApiResult {
    const accessToken = random();
    const refreshToken = random();
    const ttl = this.settings.accessTokenTtlSeconds;
    this.accessTokens.set(accessToken, { expiresAt: Date.now() + ttl * 1000, family: grant.family });
    this.refreshTokens.set(refreshToken, grant);
    return json(
      200,
      {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: ttl,
        refresh_token: refreshToken,
        ...(grant.scope ? { scope: grant.scope } : {}),
      },
      { Pragma: 'no-cache' },
    );
  }
}

export function isOAuthPath(path: string): boolean {
  return Object.values(OAUTH_PATHS).includes(path as never);
}

function oauthError(status: number, error: string, description: string): ApiResult {
  const headers: Record<string, string> = { Pragma: 'no-cache' };
  if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="sandbox"';
  return json(status, { error, error_description: description }, headers);
}

function redirect(uri: string, params: Record<string, string | null>): ApiResult {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return { status: 302, headers: { Location: url.toString() } };
}
