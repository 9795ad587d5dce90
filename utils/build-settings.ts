import type { RuntimeSettings } from './build/operator/settings-table';
import type { ServerFacts } from './sign-in-server';

/**
 * The settings a panel operator chose at build time, as the pages and the worker receive them
 * (utils/settings.ts). What each means, its environment variable and its check are in the one
 * table, utils/build/operator/settings-table.ts; wxt.config.ts reads them with utils/build/operator/panel-config.ts.
 */
export interface BuildSettings extends RuntimeSettings {
  /** Sandbox connection, filled in for development builds only, never in a release build. */
  devToken: string;
  /** What the sign-in server's metadata says (utils/sign-in-server.ts); nothing known without `oauth.issuer`. */
  oauthServer: ServerFacts;
}

export type OAuthSettings = BuildSettings['oauth'];

/** Sign-in is offered when the operator set the endpoints, the client id and the API base URL. */
export function signInConfigured(settings: Pick<BuildSettings, 'oauth' | 'apiBaseUrl'>): boolean {
  // Optional chaining: settings made by hand (older builds' shape, tests) may lack the block.
  const { authorizationEndpoint, tokenEndpoint, clientId } = settings.oauth ?? {};
  return !!(authorizationEndpoint && tokenEndpoint && clientId && settings.apiBaseUrl);
}

/**
 * Where sign-in in a tab comes back: the operator's `oauth.tabRedirectUrl`, or a page on
 * the panel API's own origin, whose addresses the extension may read (its host permission).
 */
export function tabRedirectUrl(settings: Pick<BuildSettings, 'oauth' | 'apiBaseUrl'>): string {
  return settings.oauth?.tabRedirectUrl || defaultTabRedirect(settings.apiBaseUrl);
}

export function defaultTabRedirect(apiBaseUrl: string): string {
  return new URL('/extension-sign-in-done', apiBaseUrl).href;
}

export const SANDBOX_DEV_URL = 'http://127.0.0.1:8787';
