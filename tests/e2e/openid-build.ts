/**
 * The browser tests' build with sign-in at the OpenID provider (../sandbox/openid-provider.ts) and
 * the panel API at the sandbox, in .output/e2e-sign-in-openid, made once per run in each lane
 * (builds.ts); with `identity` taken out of a copy's manifest for the tab sign-in, as on Firefox
 * for Android.
 */
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { startOpenIdProvider } from '../sandbox/openid-provider';
import { buildFolder, buildOnceServing, type BrowserName } from './builds';
import { E2E_SANDBOX_PORT, laneDir } from './config';
import { withoutIdentity } from './no-identity-build';

/** The second of the lane's two ports (config.ts). */
export const OPENID_PORT = E2E_SANDBOX_PORT + 1;
export const OPENID_ISSUER = `http://127.0.0.1:${OPENID_PORT}`;
const OUT = laneDir('.output/e2e-sign-in-openid');
const NO_IDENTITY = laneDir('.output/e2e-sign-in-openid-no-identity');

/**
 * Built while a provider answers on the lane's port, given only its issuer and the client id, as
 * OPERATORS.md recommends: the build reads the endpoints and what to ask from its metadata. The
 * tests start their own provider afterwards.
 */
export async function openIdBuild(browser: BrowserName, identity: boolean): Promise<string> {
  const sandbox = { url: `http://127.0.0.1:${E2E_SANDBOX_PORT}`, otherKeys: new Set<string>() };
  const op = await startOpenIdProvider({ port: OPENID_PORT, redirectUris: [], sandbox });
  let dir: string;
  try {
    dir = await buildOnceServing(OUT, browser, {
      PANEL_API_BASE_URL: sandbox.url,
      // Only the issuer and the client: the endpoints come from the provider's metadata.
      PANEL_OAUTH_ISSUER: OPENID_ISSUER,
      PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
    });
  } finally {
    await op.close();
  }
  return identity ? dir : withoutIdentity(dir, `${NO_IDENTITY}/${buildFolder(browser)}`);
}
