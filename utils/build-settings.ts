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
  /** Sandbox connection, filled in for development builds only, never in a release build. */
  devToken: string;
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
    devToken: dev ? (env.PANEL_DEV_TOKEN ?? '') : '',
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
