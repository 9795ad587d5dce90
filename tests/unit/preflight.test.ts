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
import { buildSettings, type ResolvedSettings } from '../../utils/build/operator/panel-config';
import type { VariableDefinition } from '../../utils/types';
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { OIDC_PATHS, startOpenIdProvider, type OpenIdProvider } from '../sandbox/openid-provider';
import { askedKinds } from '../tools/preflight/data-kinds';
import { dataKindChecks, policyCheck } from '../tools/preflight/checks';
import { signInChecks } from '../tools/preflight/sign-in';

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

describe('sign-in, against an independent authorization server', () => {
  let strict: OpenIdProvider;
  const API = 'http://127.0.0.1:9';
  const GECKO = 'rewards@acme-panel.example';
  afterEach(async () => strict?.close());

  async function start(redirectUris: string[]): Promise<ResolvedSettings> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    strict = await startOpenIdProvider({ port, redirectUris, sandbox: { url: API, otherKeys: new Set() } });
    return settings({
      PANEL_API_BASE_URL: API,
      PANEL_GECKO_ID: GECKO,
      PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${strict.issuer}${OIDC_PATHS.authorize}`,
      PANEL_OAUTH_TOKEN_ENDPOINT: `${strict.issuer}${OIDC_PATHS.token}`,
      PANEL_OAUTH_REVOCATION_ENDPOINT: `${strict.issuer}${OIDC_PATHS.revocation}`,
      PANEL_OAUTH_ISSUER: strict.issuer,
      PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
    });
  }

  it('lists every redirect URL, passes the registered ones and the metadata, and fails one the server does not take', async () => {
    const build = await start([firefoxRedirectUrl(GECKO)]);
    const checks = await signInChecks(build);
    expect(checks[0]).toMatchObject({
      level: 'info',
      text: expect.stringContaining(`Firefox on the desktop (the sign-in window): ${firefoxRedirectUrl(GECKO)}`),
    });
    expect(checks[0]!.text).toContain(`${API}/extension-sign-in-done`);
    expect(checks).toContainEqual(
      expect.objectContaining({
        level: 'ok',
        text: expect.stringMatching(/^The server's metadata .* names the build's endpoints and supports PKCE S256/),
      }),
    );
    expect(checks).toContainEqual(
      expect.objectContaining({ level: 'ok', text: expect.stringContaining(`${firefoxRedirectUrl(GECKO)} is taken`) }),
    );
    expect(checks).toContainEqual(
      expect.objectContaining({
        level: 'fail',
        text: expect.stringContaining(
          `Firefox for Android, and any browser without the window (a tab): ${API}/extension-sign-in-done was answered 400`,
        ),
        change: `Register ${API}/extension-sign-in-done as a redirect URL of client ${SANDBOX_CLIENT_ID}.`,
      }),
    );
    // Nothing was exchanged: no code was ever issued.
    expect(strict.exchanges).toEqual([]);
  });

  it('fails endpoints the metadata contradicts', async () => {
    const build = await start([firefoxRedirectUrl(GECKO)]);
    const wrong = { ...build, oauth: { ...build.oauth, tokenEndpoint: `${strict.issuer}/oauth/token` } };
    expect(await signInChecks(wrong)).toContainEqual(
      expect.objectContaining({
        level: 'fail',
        text: `oauth.tokenEndpoint is ${strict.issuer}/oauth/token, but the server's metadata says token_endpoint is ${strict.issuer}${OIDC_PATHS.token}.`,
      }),
    );
  });

  it('says so for a build without sign-in', async () => {
    expect(await signInChecks(settings({ PANEL_API_BASE_URL: 'https://api.acme.example' }))).toEqual([
      expect.objectContaining({ level: 'info', text: expect.stringContaining('not configured') }),
    ]);
  });
});
