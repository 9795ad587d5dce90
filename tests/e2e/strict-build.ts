/**
 * The browser tests' build with sign-in pointed at the independent strict server
 * (../sandbox/strict-oauth.ts) and the panel API at the sandbox, in .output/e2e-sign-in-strict, made
 * once per run in each lane (builds.ts); with `identity` taken out of a copy's manifest for the tab
 * sign-in.
 */
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { STRICT_PATHS, STRICT_SCOPE } from '../sandbox/strict-oauth';
import { buildFolder, buildOnce, type BrowserName } from './builds';
import { E2E_SANDBOX_PORT, laneDir } from './config';
import { withoutIdentity } from './no-identity-build';

/** The second of the lane's two ports (config.ts). */
export const STRICT_PORT = E2E_SANDBOX_PORT + 1;
const OUT = laneDir('.output/e2e-sign-in-strict');
const NO_IDENTITY = laneDir('.output/e2e-sign-in-strict-no-identity');

export function strictBuild(browser: BrowserName, identity: boolean): string {
  const issuer = `http://127.0.0.1:${STRICT_PORT}`;
  const dir = buildOnce(OUT, browser, {
    PANEL_API_BASE_URL: `http://127.0.0.1:${E2E_SANDBOX_PORT}`,
    PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${issuer}${STRICT_PATHS.authorize}`,
    PANEL_OAUTH_TOKEN_ENDPOINT: `${issuer}${STRICT_PATHS.token}`,
    PANEL_OAUTH_REVOCATION_ENDPOINT: `${issuer}${STRICT_PATHS.revocation}`,
    PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
    PANEL_OAUTH_SCOPES: STRICT_SCOPE,
  });
  return identity ? dir : withoutIdentity(dir, `${NO_IDENTITY}/${buildFolder(browser)}`);
}
