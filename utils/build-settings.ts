/** Settings a panel operator chooses at build time; read by wxt.config.ts from the environment. */
export interface BuildSettings {
  /** API base URL baked into the build; empty means the panelist enters it on the options page. */
  apiBaseUrl: string;
  panelName: string;
  /** Accent colour of the pages (CSS colour). */
  brandColor: string;
  /** Stored variable that holds the points balance when no response carries it (design §2). */
  balanceVariable: string;
  /** Page of the panel that shows the panelist their key ("Where do I find this?"); empty hides the link. */
  tokenHelpUrl: string;
  geckoId: string;
  /** The panel's page where panelists earn points (its surveys); empty hides "Earn more points". */
  earnUrl: string;
  /** Sandbox connection, filled in for development builds only, never in a release build. */
  devToken: string;
  /** OAuth 2.0 sign-in (authorization code + PKCE); empty endpoints or client id: token form only. */
  oauth: OAuthSettings;
}

export interface OAuthSettings {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  /** Space-separated; empty sends no `scope`. */
  scopes: string;
  /** Compared with an `iss` the server returns (RFC 9207); defaults to the authorization endpoint's origin. */
  issuer: string;
  /** Token revocation (RFC 7009): Disconnect ends the sign-in's refresh token there; empty: only forgotten locally. */
  revocationEndpoint: string;
}

/** Sign-in is offered when the operator set the endpoints, the client id and the API base URL. */
export function signInConfigured(settings: BuildSettings): boolean {
  // Optional chaining: settings made by hand (older builds' shape, tests) may lack the block.
  const { authorizationEndpoint, tokenEndpoint, clientId } = settings.oauth ?? {};
  return !!(authorizationEndpoint && tokenEndpoint && clientId && settings.apiBaseUrl);
}

function oauthSettings(env: Env): OAuthSettings {
  const authorizationEndpoint = env.PANEL_OAUTH_AUTHORIZATION_ENDPOINT ?? '';
  let origin = '';
  try {
    origin = authorizationEndpoint ? new URL(authorizationEndpoint).origin : '';
  } catch {
    // A malformed endpoint fails at sign-in with a clear message; the build itself still works.
  }
  return {
    authorizationEndpoint,
    tokenEndpoint: env.PANEL_OAUTH_TOKEN_ENDPOINT ?? '',
    clientId: env.PANEL_OAUTH_CLIENT_ID ?? '',
    scopes: env.PANEL_OAUTH_SCOPES ?? '',
    issuer: env.PANEL_OAUTH_ISSUER ?? origin,
    revocationEndpoint: env.PANEL_OAUTH_REVOCATION_ENDPOINT ?? '',
  };
}

export const SANDBOX_DEV_URL = 'http://127.0.0.1:8787';

type Env = Record<string, string | undefined>;

export function buildSettings(env: Env, mode: string): BuildSettings {
  const dev = mode === 'development';
  return {
    apiBaseUrl: env.PANEL_API_BASE_URL ?? (dev ? SANDBOX_DEV_URL : ''),
    panelName: env.PANEL_NAME ?? 'Panel Rewards',
    brandColor: env.PANEL_BRAND_COLOR ?? '#2458d6',
    balanceVariable: env.PANEL_BALANCE_VARIABLE ?? 'POINTS_BALANCE',
    tokenHelpUrl: webPage(env.PANEL_TOKEN_HELP_URL),
    geckoId: env.PANEL_GECKO_ID ?? 'panel-rewards@panelist.example',
    earnUrl: env.PANEL_EARN_URL ?? '',
    devToken: dev ? (env.PANEL_DEV_TOKEN ?? '') : '',
    oauth: oauthSettings(env),
  };
}

/** A link shown to panelists must be a web page: anything else (javascript:, a typo) is left out. */
function webPage(value: string | undefined): string {
  if (!value) return '';
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '';
  } catch {
    return '';
  }
}
