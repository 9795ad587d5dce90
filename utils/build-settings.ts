/** Settings a panel operator chooses at build time; read by wxt.config.ts from the environment. */
export interface BuildSettings {
  /** API base URL baked into the build; empty means the panelist enters it on the options page. */
  apiBaseUrl: string;
  panelName: string;
  /** Accent colour of the pages (CSS colour). */
  brandColor: string;
  /** Stored variable that holds the points balance when no response carries it (design §2). */
  balanceVariable: string;
  geckoId: string;
  /** The panel's page where panelists earn points (its surveys); empty hides "Earn more points". */
  earnUrl: string;
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
    geckoId: env.PANEL_GECKO_ID ?? 'panel-rewards@panelist.example',
    earnUrl: env.PANEL_EARN_URL ?? '',
    devToken: dev ? (env.PANEL_DEV_TOKEN ?? '') : '',
  };
}
