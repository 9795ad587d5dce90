/**
 * The e2e build with sign-in pointed at the independent strict server (../sandbox/strict-oauth.ts)
 * and the panel API at the sandbox, in .output/e2e-sign-in-strict; with `identity` taken out of a
 * copy's manifest for the tab sign-in.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { STRICT_PATHS, STRICT_SCOPE } from '../sandbox/strict-oauth';
import { E2E_SANDBOX_PORT } from './config';
import { withoutIdentity } from './no-identity-build';

export const STRICT_PORT = E2E_SANDBOX_PORT + 1;
const OUT = '.output/e2e-sign-in-strict';

export function strictBuild(browser: 'chrome' | 'firefox', identity: boolean): string {
  const dir = `${OUT}/${browser === 'chrome' ? 'chrome-mv3' : 'firefox-mv2'}`;
  if (!(process.env.E2E_SKIP_BUILD === '1' && existsSync(`${dir}/manifest.json`))) {
    const issuer = `http://127.0.0.1:${STRICT_PORT}`;
    const env = {
      ...process.env,
      PANEL_OUT_DIR: OUT,
      PANEL_CONFIG: 'none',
      PANEL_API_BASE_URL: `http://127.0.0.1:${E2E_SANDBOX_PORT}`,
      PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${issuer}${STRICT_PATHS.authorize}`,
      PANEL_OAUTH_TOKEN_ENDPOINT: `${issuer}${STRICT_PATHS.token}`,
      PANEL_OAUTH_REVOCATION_ENDPOINT: `${issuer}${STRICT_PATHS.revocation}`,
      PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
      PANEL_OAUTH_SCOPES: STRICT_SCOPE,
    };
    execFileSync('npx', ['wxt', 'build', '--browser', browser], { stdio: ['ignore', 'ignore', 'inherit'], env });
  }
  return identity
    ? dir
    : withoutIdentity(dir, `${OUT}-no-identity/${browser === 'chrome' ? 'chrome-mv3' : 'firefox-mv2'}`);
}
