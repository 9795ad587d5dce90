/** The browser tests' build with sign-in configured, made once per run in each lane (builds.ts). */
import { OAUTH_PATHS, SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { buildOnce, type BrowserName } from './builds';
import { E2E_SANDBOX_PORT, laneDir } from './config';

export const SIGN_IN_OUT_DIR = laneDir('.output/e2e-sign-in');

/** The sign-in build of `browser`, in .output/e2e-sign-in; returns its directory. */
export function signInBuild(browser: BrowserName): string {
  const url = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
  return buildOnce(SIGN_IN_OUT_DIR, browser, {
    PANEL_API_BASE_URL: url,
    PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${url}${OAUTH_PATHS.authorize}`,
    PANEL_OAUTH_TOKEN_ENDPOINT: `${url}${OAUTH_PATHS.token}`,
    PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
    PANEL_OAUTH_REVOCATION_ENDPOINT: `${url}${OAUTH_PATHS.revocation}`,
    // A page to earn points on, as an operator's build has: its link shares the header's next step.
    PANEL_EARN_URL: 'https://panel.example.com/earn',
  });
}
