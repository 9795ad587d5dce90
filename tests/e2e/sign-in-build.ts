/** The e2e build with sign-in configured (issue 12), made once per run next to the shared one. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { OAUTH_PATHS, SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { E2E_SANDBOX_PORT } from './config';

export const SIGN_IN_OUT_DIR = '.output/e2e-sign-in';

/** Builds `browser` into .output/e2e-sign-in unless E2E_SKIP_BUILD=1 and it is there; returns its directory. */
export function signInBuild(browser: 'chrome' | 'firefox'): string {
  const dir = `${SIGN_IN_OUT_DIR}/${browser === 'chrome' ? 'chrome-mv3' : 'firefox-mv2'}`;
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(`${dir}/manifest.json`)) return dir;
  const url = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
  const env = {
    ...process.env,
    PANEL_OUT_DIR: SIGN_IN_OUT_DIR,
    PANEL_CONFIG: 'none',
    PANEL_API_BASE_URL: url,
    PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${url}${OAUTH_PATHS.authorize}`,
    PANEL_OAUTH_TOKEN_ENDPOINT: `${url}${OAUTH_PATHS.token}`,
    PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
    PANEL_OAUTH_REVOCATION_ENDPOINT: `${url}${OAUTH_PATHS.revocation}`,
    // A page to earn points on, as an operator's build has: its link shares the header's next step.
    PANEL_EARN_URL: 'https://panel.example.com/earn',
  };
  execFileSync('npx', ['wxt', 'build', '--browser', browser], { stdio: ['ignore', 'ignore', 'inherit'], env });
  return dir;
}
