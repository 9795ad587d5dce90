// @vitest-environment node
/**
 * A sign-in build published to more than one Chromium item: the Chrome Web Store's, its trusted
 * testers' item (`chromeBetaId`) and Edge Add-ons' (`edgeId`). Each item has its own id, so each
 * has its own redirect URL to register: `npm run ids` lists them all, and the pre-flight tries each
 * with an independent authorization server (panva's oidc-provider, redirect URIs matched exactly),
 * failing the one it does not take.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { chromeRedirectUrl, extensionIds, firefoxRedirectUrl } from '../../utils/build/operator/extension-ids';
import { PanelConfigError, buildSettings } from '../../utils/build/operator/panel-config';
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { OIDC_PATHS, startOpenIdProvider, type OpenIdProvider } from '../sandbox/openid-provider';
import { signInChecks } from '../tools/preflight/sign-in';

const TESTERS = 'abcdefghijklmnopabcdefghijklmnop';
const EDGE = 'ponmlkjihgfedcbaponmlkjihgfedcba';
const API = 'https://api.acme-panel.example';
const GECKO = 'rewards@acme-panel.example';
const SIGN_IN = {
  PANEL_CONFIG: 'none',
  PANEL_API_BASE_URL: API,
  PANEL_GECKO_ID: GECKO,
  PANEL_OAUTH_AUTHORIZATION_ENDPOINT: 'https://login.acme-panel.example/authorize',
  PANEL_OAUTH_TOKEN_ENDPOINT: 'https://login.acme-panel.example/token',
  PANEL_OAUTH_CLIENT_ID: 'acme',
  PANEL_CHROME_BETA_ID: TESTERS,
  PANEL_EDGE_ID: EDGE,
};

describe('the trusted testers’ item and the Edge item', () => {
  it('each have their own id and redirect URL; an id that is not 32 letters a–p is refused', () => {
    const ids = extensionIds(buildSettings(SIGN_IN, 'production'));
    expect(ids.chromeBeta).toEqual({ id: TESTERS, redirectUrl: `https://${TESTERS}.chromiumapp.org/` });
    expect(ids.edge).toEqual({ id: EDGE, redirectUrl: `https://${EDGE}.chromiumapp.org/` });
    expect(extensionIds(buildSettings({ PANEL_CONFIG: 'none' }, 'production'))).toMatchObject({
      chromeBeta: null,
      edge: null,
    });
    expect(() => buildSettings({ ...SIGN_IN, PANEL_EDGE_ID: 'not-an-id' }, 'production')).toThrow(PanelConfigError);
    expect(() => buildSettings({ ...SIGN_IN, PANEL_CHROME_BETA_ID: 'z'.repeat(32) }, 'production')).toThrow(
      /PANEL_CHROME_BETA_ID.*is not a Chrome extension id: 32 letters from a to p/,
    );
  });

  it('are listed by npm run ids with the redirect URLs to register', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'tests/tools/ids.ts'], {
      env: { ...process.env, ...SIGN_IN },
      encoding: 'utf8',
    });
    expect(out).toContain(`         id            ${TESTERS}  (chromeBetaId)`);
    expect(out).toContain(`Edge     id            ${EDGE}  (edgeId)`);
    expect(out).toContain(`  Chrome, trusted testers: https://${TESTERS}.chromiumapp.org/`);
    expect(out).toContain(`  Edge:                   https://${EDGE}.chromiumapp.org/`);
    const json = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'tests/tools/ids.ts', '--json'], {
        env: { ...process.env, ...SIGN_IN },
        encoding: 'utf8',
      }),
    ) as Record<string, { redirectUrl: string } | null>;
    expect(json.chromeBeta?.redirectUrl).toBe(chromeRedirectUrl(TESTERS));
    expect(json.edge?.redirectUrl).toBe(chromeRedirectUrl(EDGE));
  }, 60_000);

  describe('with the authorization server', () => {
    let strict: OpenIdProvider | null = null;
    afterEach(async () => strict?.close());

    it('are tried by the pre-flight: the testers’ item fails where only the public items are registered', async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      strict = await startOpenIdProvider({
        port,
        redirectUris: [firefoxRedirectUrl(GECKO), chromeRedirectUrl(EDGE)],
        sandbox: { url: API, otherKeys: new Set() },
      });
      const build = buildSettings(
        {
          ...SIGN_IN,
          PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${strict.issuer}${OIDC_PATHS.authorize}`,
          PANEL_OAUTH_TOKEN_ENDPOINT: `${strict.issuer}${OIDC_PATHS.token}`,
          PANEL_OAUTH_ISSUER: strict.issuer,
          PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
        },
        'production',
      );
      const checks = await signInChecks(build);
      expect(checks[0]!.text).toContain(
        `Chrome, the trusted testers' item (the sign-in window): ${chromeRedirectUrl(TESTERS)}`,
      );
      expect(checks[0]!.text).toContain(`Edge (the sign-in window): ${chromeRedirectUrl(EDGE)}`);
      expect(checks).toContainEqual(
        expect.objectContaining({
          level: 'fail',
          text: expect.stringContaining(
            `Chrome, the trusted testers' item (the sign-in window): ${chromeRedirectUrl(TESTERS)} was answered 400`,
          ),
          change: `Register ${chromeRedirectUrl(TESTERS)} as a redirect URL of client ${SANDBOX_CLIENT_ID}.`,
        }),
      );
      expect(checks).toContainEqual(
        expect.objectContaining({ level: 'ok', text: expect.stringContaining(`${chromeRedirectUrl(EDGE)} is taken`) }),
      );
    }, 60_000);
  });
});
