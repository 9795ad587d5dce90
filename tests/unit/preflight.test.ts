// @vitest-environment node
/**
 * The pre-flight's own checks: the profile's questions against the declared data kinds (a postal
 * code question is location data), the privacy policy's address against a small server on
 * 127.0.0.1, and sign-in against an independent authorization server (panva's oidc-provider, with
 * redirect URIs matched exactly): each redirect URL the build needs is tried, and the server's
 * metadata compared with the build's endpoints.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { firefoxRedirectUrl } from '../../utils/build/operator/extension-ids';
import { settingsWithMetadata } from '../../utils/build/operator/oauth-discovery';
import { buildSettings, type ResolvedSettings } from '../../utils/build/operator/panel-config';
import type { VariableDefinition } from '../../utils/types';
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import {
  OIDC_PATHS,
  startOpenIdProvider,
  type OpenIdProvider,
  type OpenIdProviderOptions,
} from '../sandbox/openid-provider';
import { askedKinds } from '../tools/preflight/data-kinds';
import { freePort } from './free-port';
import { dataKindChecks, policyCheck, type Check } from '../tools/preflight/checks';
import { signInChecks } from '../tools/preflight/sign-in';
import { requestChecks } from '../tools/preflight/sign-in-server';

const settings = (env: Record<string, string>): ResolvedSettings =>
  buildSettings({ PANEL_CONFIG: 'none', PANEL_NAME: 'Acme Opinions', ...env }, 'production');

const question = (name: string, text: string): VariableDefinition => ({
  id: 1,
  name,
  text,
  uuid: '',
  type: 'text',
  writable: true,
  options: [],
});

describe('the declared data kinds against the profile questions', () => {
  it('reads what a question asks from its name and its text, in the shipped languages', () => {
    const asked = askedKinds([
      question('ZIP_CODE', 'Your code'),
      question('Q7', 'What is your postal code?'),
      question('PLZ', 'Ihre Postleitzahl'),
      question('HOUSEHOLD_INCOME', 'Household income per year'),
      question('SMOKER', 'Do you smoke?'),
      question('EMAIL_ADDRESS', 'Your e-mail address'),
      question('SUBMIT_TIME', 'When did you submit it?'),
      question('FIRST_NAME', 'First name'),
    ]);
    expect(Object.fromEntries(asked)).toEqual({
      locationInfo: ['ZIP_CODE', 'Q7', 'PLZ'],
      financialAndPaymentInfo: ['HOUSEHOLD_INCOME'],
      healthInfo: ['SMOKER'],
    });
  });

  it('fails a kind asked and not declared, and warns of one declared and not asked', () => {
    const build = settings({ PANEL_PROFILE_DATA: 'personallyIdentifyingInfo healthInfo' });
    const checks = dataKindChecks(build, [
      question('POSTAL_CODE', 'What is your postal code?'),
      question('AGE', 'Age'),
    ]);
    expect(checks).toEqual([
      expect.objectContaining({
        level: 'fail',
        text: expect.stringMatching(
          /^POSTAL_CODE asks about where the panelist lives .*profileData does not declare locationInfo/,
        ),
        change: expect.stringContaining('Add locationInfo to profileData'),
      }),
      expect.objectContaining({
        level: 'warn',
        text: expect.stringMatching(/^profileData declares healthInfo, and no profile question asks about health/),
      }),
    ]);
    expect(dataKindChecks(settings({}), [question('POSTAL_CODE', 'Postal code')])).toEqual([
      expect.objectContaining({ level: 'ok' }),
    ]);
  });
});

describe('the privacy policy', () => {
  let server: Server;
  let base: string;
  const pages: Record<string, [number, string]> = {
    '/ok': [200, '<h1>Privacy policy of the Acme Opinions browser extension</h1><p>Contact: privacy@acme.example</p>'],
    '/template': [
      200,
      '<h1>Acme Opinions</h1><p>[YOUR PRIVACY CONTACT: E-MAIL ADDRESS]</p><p>Last updated: [DATE]</p>',
    ],
    '/other': [200, '<h1>Cookie policy</h1>'],
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const [status, body] = pages[req.url ?? ''] ?? [404, 'Not found'];
      res.writeHead(status, { 'Content-Type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['/ok', 'ok', 'answers 200 and names Acme Opinions'],
    ['/template', 'fail', "still holds the template's brackets: [YOUR PRIVACY CONTACT: E-MAIL ADDRESS], [DATE]"],
    ['/other', 'warn', 'does not name Acme Opinions'],
    ['/gone', 'fail', 'answered 404'],
  ])('%s: %s', async (path, level, says) => {
    const check = await policyCheck(settings({ PANEL_PRIVACY_POLICY_URL: `${base}${path}` }));
    expect(check).toMatchObject({ level, text: expect.stringContaining(says) });
  });

  it('fails a build that names none', async () => {
    expect(await policyCheck(settings({}))).toMatchObject({
      level: 'fail',
      text: expect.stringContaining('privacyPolicyUrl is not set'),
    });
  });
});

describe('sign-in, against a real OpenID provider (oidc-provider)', () => {
  let op: OpenIdProvider;
  const API = 'http://127.0.0.1:9';
  const GECKO = 'rewards@acme-panel.example';
  afterEach(async () => op?.close());

  /**
   * The provider, and the settings a build for it has, checked as the pre-flight checks them (its
   * metadata read where `oauth.issuer` is given). `env` adds to or blanks the build's settings.
   */
  async function start(
    redirectUris: string[],
    env: Record<string, string> = {},
    options: Partial<Pick<OpenIdProviderOptions, 'path' | 'otherwise'>> = {},
  ): Promise<ResolvedSettings> {
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris,
      sandbox: { url: API, otherKeys: new Set() },
      ...options,
    });
    const base = {
      PANEL_CONFIG: 'none',
      PANEL_NAME: 'Acme Opinions',
      PANEL_API_BASE_URL: API,
      PANEL_GECKO_ID: GECKO,
      PANEL_OAUTH_ISSUER: op.issuer,
      PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
    };
    return (await settingsWithMetadata({ ...base, ...env }, 'production')).settings;
  }

  /** The provider (under `path`), and a build given its endpoints by hand and no issuer: no metadata read. */
  async function byHand(path?: string, env: Record<string, string> = {}): Promise<ResolvedSettings> {
    const uris = [firefoxRedirectUrl(GECKO), `${API}/extension-sign-in-done`];
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris: uris,
      sandbox: { url: API, otherKeys: new Set() },
      path,
    });
    return buildSettings(
      {
        PANEL_CONFIG: 'none',
        PANEL_API_BASE_URL: API,
        PANEL_GECKO_ID: GECKO,
        PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${op.issuer}${OIDC_PATHS.authorize}`,
        PANEL_OAUTH_TOKEN_ENDPOINT: `${op.issuer}${OIDC_PATHS.token}`,
        PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
        ...env,
      },
      'production',
    );
  }

  const fails = (checks: Check[]) => checks.filter((c) => c.level === 'fail');

  it('at its defaults, the client registered as OPERATORS.md says: every redirect URL, the issuer, a refresh token and the extension’s requests pass', async () => {
    const build = await start([firefoxRedirectUrl(GECKO), `${API}/extension-sign-in-done`]);
    const checks = await signInChecks(build);
    expect(fails(checks)).toEqual([]);
    expect(checks[0]).toMatchObject({
      level: 'info',
      text: expect.stringContaining(`Firefox on the desktop (the sign-in window): ${firefoxRedirectUrl(GECKO)}`),
    });
    expect(checks).toContainEqual(
      expect.objectContaining({
        level: 'ok',
        text: expect.stringContaining(`oauth.issuer ${op.issuer} is the server's own`),
      }),
    );
    expect(checks).toContainEqual(
      expect.objectContaining({
        level: 'ok',
        text: expect.stringMatching(
          /^The scope asked \(openid offline_access, with prompt=consent\) yields a refresh token/,
        ),
      }),
    );
    // The extension's requests are taken without Origin (a made-up code earns invalid_grant); with
    // the browsers' own origins the provider refuses them, which is told for what it is.
    for (const what of ['the code exchange', 'a renewal', 'a revocation'])
      expect(checks).toContainEqual(
        expect.objectContaining({
          level: 'info',
          text: expect.stringMatching(
            new RegExp(
              `takes ${what} as the extension sends it \\(without Origin: HTTP (400 invalid_grant|200).*Chrome, chrome-extension://a{32}: HTTP 400 invalid_request "origin chrome-extension://a{32} not allowed for client: ${SANDBOX_CLIENT_ID}".*Firefox, moz-extension://`,
            ),
          ),
        }),
      );
    expect(checks).toContainEqual(
      expect.objectContaining({ level: 'ok', text: expect.stringContaining(`${firefoxRedirectUrl(GECKO)} is taken`) }),
    );
    // Nothing was issued: no code was ever the provider's.
    expect(op.exchanges.every((e) => e.error !== null)).toBe(true);
  });

  it('fails a redirect URL the provider does not take, naming it', async () => {
    const checks = await signInChecks(await start([firefoxRedirectUrl(GECKO)]));
    expect(fails(checks)).toEqual([
      expect.objectContaining({
        text: expect.stringContaining(
          `Firefox for Android, and any browser without the window (a tab): ${API}/extension-sign-in-done was answered 400`,
        ),
        change: `Register ${API}/extension-sign-in-done as a redirect URL of client ${SANDBOX_CLIENT_ID}.`,
      }),
    ]);
  });

  it('fails an issuer under a path the build does not know, naming the issuer to set', async () => {
    // The endpoints set by hand, without the issuer: the build takes the authorization endpoint's origin.
    const build = await byHand('/oidc');
    const origin = new URL(op.issuer).origin;
    expect(fails(await signInChecks(build))).toEqual([
      {
        level: 'fail',
        topic: 'Sign-in',
        text: `The server's metadata (${op.issuer}/.well-known/openid-configuration) names its issuer ${op.issuer}, but the build's issuer ${origin} (oauth.issuer not set: the authorization endpoint's origin): an \`iss\` it sends names another server, and every sign-in ends with "did not belong to this sign-in".`,
        change: `Set oauth.issuer to ${op.issuer} (its metadata then names the endpoints too).`,
      },
      // And without its metadata the build asks no offline access either.
      expect.objectContaining({
        text: expect.stringMatching(/^The server is an OpenID provider, but the build did not read its metadata/),
        change: `Set oauth.issuer to ${op.issuer}: the extension then asks openid and offline_access with prompt=consent.`,
      }),
    ]);
  });

  it('fails scopes that yield no refresh token: a build that did not read the provider’s metadata', async () => {
    // The endpoints and a scope set by hand, no issuer: nothing tells the build it is an OpenID provider.
    const manual = await byHand(undefined, { PANEL_OAUTH_SCOPES: 'openid' });
    expect(fails(await signInChecks(manual))).toEqual([
      {
        level: 'fail',
        topic: 'Sign-in',
        text: `The server is an OpenID provider, but the build did not read its metadata (oauth.issuer not set): the extension asks openid without offline_access and prompt=consent, and an OpenID provider issues no refresh token for that (OpenID Connect Core §11), so panelists sign in again whenever an access token ends.`,
        change: `Set oauth.issuer to ${op.issuer}: the extension then asks openid and offline_access with prompt=consent.`,
      },
    ]);
  });

  it('fails scopes that yield no refresh token: a provider that offers no offline_access', async () => {
    const build = await start(
      [firefoxRedirectUrl(GECKO), `${API}/extension-sign-in-done`],
      {},
      {
        // Refresh tokens are a grant it has, but no scope it lists asks for one.
        otherwise: { provider: { scopes: ['openid'], issueRefreshToken: async () => false } },
      },
    );
    expect(fails(await signInChecks(build))).toEqual([
      expect.objectContaining({
        text: expect.stringMatching(
          /^The server is an OpenID provider whose scopes_supported \(openid\) has no offline_access: .* the scope asked \(openid\) yields none/,
        ),
        change: 'Offer offline_access to the extension’s client, and list it in scopes_supported.',
      }),
    ]);
  });

  it('fails a client the provider does not take as public, naming the fix', async () => {
    const build = await start(
      [firefoxRedirectUrl(GECKO), `${API}/extension-sign-in-done`],
      {},
      {
        otherwise: {
          client: {
            token_endpoint_auth_method: 'client_secret_basic',
            client_secret: 'a secret the extension cannot keep',
          },
        },
      },
    );
    const failed = fails(await signInChecks(build));
    expect(failed.map((c) => c.text)).toEqual([
      expect.stringMatching(/refuses the code exchange as the extension sends it .*: HTTP 401 invalid_client/),
      expect.stringMatching(/refuses a renewal as the extension sends it .*: HTTP 401 invalid_client/),
      expect.stringMatching(/refuses a revocation as the extension sends it .*: HTTP 401 invalid_client/),
    ]);
    expect(new Set(failed.map((c) => c.change))).toEqual(
      new Set([
        `Register ${SANDBOX_CLIENT_ID} as a public client (no secret: token_endpoint_auth_method none) with the authorization_code and refresh_token grants.`,
      ]),
    );
  });

  it('fails endpoints the metadata contradicts', async () => {
    const build = await start([firefoxRedirectUrl(GECKO)]);
    const wrong = { ...build, oauth: { ...build.oauth, tokenEndpoint: `${op.issuer}/oauth/token` } };
    expect(await signInChecks(wrong)).toContainEqual(
      expect.objectContaining({
        level: 'fail',
        text: `oauth.tokenEndpoint is ${op.issuer}/oauth/token, but the server's metadata says token_endpoint is ${op.issuer}${OIDC_PATHS.token}.`,
      }),
    );
  });

  it('says so for a build without sign-in', async () => {
    expect(await signInChecks(settings({ PANEL_API_BASE_URL: 'https://api.acme.example' }))).toEqual([
      expect.objectContaining({ level: 'info', text: expect.stringContaining('not configured') }),
    ]);
  });
});

describe('sign-in, against a server that takes only requests with an Origin (as Entra ID’s single-page applications)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/authorize'))
        return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<form>Sign in</form>');
      const answer = req.headers.origin
        ? { error: 'invalid_grant', error_description: 'The code is unknown.' }
        : {
            error: 'invalid_request',
            error_description:
              "AADSTS9002327: Tokens issued for the 'Single-Page Application' client-type may only be redeemed via cross-origin requests.",
          };
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fails the extension’s requests, which carry none, naming the registration to use instead', async () => {
    const build = settings({
      PANEL_API_BASE_URL: 'http://127.0.0.1:9',
      PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${base}/authorize`,
      PANEL_OAUTH_TOKEN_ENDPOINT: `${base}/token`,
      PANEL_OAUTH_CLIENT_ID: 'spa-client',
    });
    const failed = (await requestChecks(build)).filter((c) => c.level === 'fail');
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({
      text: expect.stringContaining(
        `${base}/token refuses the code exchange as the extension sends it (without Origin, for client spa-client): HTTP 400 invalid_request "AADSTS9002327`,
      ),
      change: expect.stringContaining('"Mobile and desktop applications", not "Single-page application"'),
    });
  });
});
