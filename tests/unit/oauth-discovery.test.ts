// @vitest-environment node
/**
 * The sign-in server's metadata as the build reads it (utils/build/operator/oauth-discovery.ts):
 * from a real OpenID provider (oidc-provider at its defaults), at the root and under a path; from
 * a small server that publishes RFC 8414 metadata only, or another issuer's, or none; and from no
 * server at all. What the build takes from it is compared with what the documents say.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discover, factsOf, withServerMetadata } from '../../utils/build/operator/oauth-discovery';
import { buildSettings } from '../../utils/build/operator/panel-config';
import { authorizationParams, NO_METADATA } from '../../utils/sign-in-server';
import { SANDBOX_CLIENT_ID } from '../sandbox/oauth';
import { startOpenIdProvider, type OpenIdProvider } from '../sandbox/openid-provider';
import { freePort } from './free-port';

describe('an OpenID provider', () => {
  let op: OpenIdProvider;
  afterEach(() => op?.close());

  it.each([
    ['at the root', undefined],
    ['under a path', '/oidc'],
  ])('%s: its metadata, and the facts taken from it', async (_, path) => {
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris: [],
      sandbox: { url: 'http://127.0.0.1:9', otherKeys: new Set() },
      path,
    });
    const found = await discover(op.issuer);
    expect(found).toMatchObject({
      kind: 'metadata',
      via: 'oidc',
      url: `${op.issuer}/.well-known/openid-configuration`,
    });
    if (found.kind !== 'metadata') return;
    expect(found.server.token_endpoint).toBe(`${op.issuer}/token`);
    expect(factsOf(found.server, found.via)).toEqual({
      metadata: true,
      openid: true,
      offlineAccess: true,
      // It lists no prompt_values_supported: max_age=0 asks it for the password.
      promptLogin: false,
      issParameter: true,
      // Its operator's key is an RSA one (openid-provider.ts): ID tokens signed RS256.
      idTokenAlgs: ['RS256'],
    });
  });

  it('a build given its issuer takes the facts; another issuer is refused, naming oauth.issuer; an address without metadata builds without', async () => {
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris: [],
      sandbox: { url: 'http://127.0.0.1:9', otherKeys: new Set() },
      path: '/oidc',
    });
    const env = {
      PANEL_CONFIG: 'none',
      PANEL_API_BASE_URL: 'https://api.panel.example',
      PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
      PANEL_OAUTH_AUTHORIZATION_ENDPOINT: `${op.issuer}/auth`,
      PANEL_OAUTH_TOKEN_ENDPOINT: `${op.issuer}/token`,
    };
    const right = await withServerMetadata(buildSettings({ ...env, PANEL_OAUTH_ISSUER: op.issuer }, 'production'));
    expect(right.problems).toEqual([]);
    expect(right.settings.oauth.issuer).toBe(op.issuer);
    expect(right.settings.oauthServer.openid).toBe(true);

    // An issuer is compared whole (RFC 8414 §3.3): a trailing slash after its path is another issuer.
    const slash = await withServerMetadata(
      buildSettings({ ...env, PANEL_OAUTH_ISSUER: `${op.issuer}/` }, 'production'),
    );
    expect(slash.problems).toEqual([
      `oauth.issuer (PANEL_OAUTH_ISSUER) is ${op.issuer}/, but the server's metadata (${op.issuer}/.well-known/openid-configuration) names its issuer ${op.issuer}: set oauth.issuer to ${op.issuer}`,
    ]);

    const origin = new URL(op.issuer).origin;
    const wrong = await withServerMetadata(buildSettings({ ...env, PANEL_OAUTH_ISSUER: origin }, 'production'));
    expect(wrong.settings.oauthServer).toEqual(NO_METADATA);
    expect(wrong.warnings).toEqual([
      expect.stringMatching(/^oauth\.issuer \(PANEL_OAUTH_ISSUER\) .* publishes no metadata/),
    ]);

    // Given only the issuer, the build takes the endpoints from its metadata.
    const only = await withServerMetadata(
      buildSettings(
        {
          ...env,
          PANEL_OAUTH_AUTHORIZATION_ENDPOINT: '',
          PANEL_OAUTH_TOKEN_ENDPOINT: '',
          PANEL_OAUTH_ISSUER: op.issuer,
        },
        'production',
      ),
    );
    expect(only.problems).toEqual([]);
    expect(only.settings.oauth).toMatchObject({
      issuer: op.issuer,
      authorizationEndpoint: `${op.issuer}/auth`,
      tokenEndpoint: `${op.issuer}/token`,
      revocationEndpoint: `${op.issuer}/token/revocation`,
      consentPrompt: '',
      tabRedirectUrl: 'https://api.panel.example/extension-sign-in-done',
    });

    // A setting the metadata contradicts stops the build, named; a scope it does not list is only said.
    const contradicted = await withServerMetadata(
      buildSettings(
        {
          ...env,
          PANEL_OAUTH_ISSUER: op.issuer,
          PANEL_OAUTH_TOKEN_ENDPOINT: `${op.issuer}/oauth/token`,
          PANEL_OAUTH_SCOPES: 'panel',
        },
        'production',
      ),
    );
    expect(contradicted.problems).toEqual([
      `oauth.tokenEndpoint (PANEL_OAUTH_TOKEN_ENDPOINT) is ${op.issuer}/oauth/token, but the server's metadata (${op.issuer}/.well-known/openid-configuration) names token_endpoint ${op.issuer}/token: set it to ${op.issuer}/token, or leave it out to take it from there`,
    ]);
    expect(contradicted.warnings).toEqual([
      expect.stringMatching(
        /^oauth\.scopes \(PANEL_OAUTH_SCOPES\) asks panel, which the server's metadata .* does not list in scopes_supported \(openid offline_access\)/,
      ),
    ]);

    // Without oauth.issuer nothing is fetched and nothing assumed.
    const none = await withServerMetadata(buildSettings(env, 'production'));
    expect(none).toEqual({ settings: buildSettings(env, 'production'), problems: [], warnings: [] });
  });
});

describe('npm run ids', () => {
  let op: OpenIdProvider;
  afterEach(() => op?.close());

  it('given only the issuer and the client, names the endpoints and what sign-in asks, from the metadata', async () => {
    op = await startOpenIdProvider({
      port: await freePort(),
      redirectUris: [],
      sandbox: { url: 'http://127.0.0.1:9', otherKeys: new Set() },
    });
    // Not blocking this process, which serves the provider.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'tests/tools/ids.ts', '--json'],
      {
        env: {
          ...process.env,
          PANEL_CONFIG: 'none',
          PANEL_API_BASE_URL: 'https://api.panel.example',
          PANEL_OAUTH_ISSUER: op.issuer,
          PANEL_OAUTH_CLIENT_ID: SANDBOX_CLIENT_ID,
        },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({
      tab: { redirectUrl: 'https://api.panel.example/extension-sign-in-done' },
      signIn: {
        issuer: op.issuer,
        metadata: true,
        openid: true,
        authorizationEndpoint: `${op.issuer}/auth`,
        tokenEndpoint: `${op.issuer}/token`,
        revocationEndpoint: `${op.issuer}/token/revocation`,
        asks: { scope: 'openid offline_access', prompt: 'consent' },
        // It lists no prompts: consent alone, which keeps offline_access there, and max_age=0 for the password.
        asksAfterDisconnect: { scope: 'openid offline_access', prompt: 'consent', max_age: '0' },
      },
    });
  }, 60_000);
});

describe('other servers', () => {
  let server: Server;
  let base: string;
  const documents: Record<string, unknown> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = documents[req.url ?? ''];
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // RFC 8414 only, for an issuer under /as: a plain OAuth 2.0 server.
    documents['/.well-known/oauth-authorization-server/as'] = {
      issuer: `${base}/as`,
      authorization_endpoint: `${base}/as/authorize`,
      token_endpoint: `${base}/as/token`,
      scopes_supported: ['panel'],
    };
    // A document naming another issuer than the one it is read for.
    documents['/other/.well-known/openid-configuration'] = { issuer: 'https://login.elsewhere.example' };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads RFC 8414 metadata at its own address, and takes a plain OAuth 2.0 server for one', async () => {
    const found = await discover(`${base}/as`);
    expect(found).toMatchObject({ kind: 'metadata', via: 'oauth2' });
    if (found.kind === 'metadata') expect(factsOf(found.server, found.via)).toEqual({ ...NO_METADATA, metadata: true });
  });

  it('tells a document naming another issuer, none at all, and an unreachable server apart', async () => {
    expect(await discover(`${base}/other`)).toEqual({
      kind: 'other-issuer',
      published: 'https://login.elsewhere.example',
      url: `${base}/other/.well-known/openid-configuration`,
    });
    expect(await discover(`${base}/nothing`)).toEqual({
      kind: 'none',
      tried: [
        `${base}/nothing/.well-known/openid-configuration`,
        `${base}/.well-known/oauth-authorization-server/nothing`,
      ],
    });
    expect(await discover(`http://127.0.0.1:${await freePort()}`)).toMatchObject({ kind: 'unreadable' });
  });

  it('an issuer that publishes nothing needs the endpoints set, and says which', async () => {
    const only = buildSettings(
      {
        PANEL_CONFIG: 'none',
        PANEL_API_BASE_URL: 'https://api.panel.example',
        PANEL_OAUTH_CLIENT_ID: 'acme',
        PANEL_OAUTH_ISSUER: `${base}/nothing`,
      },
      'production',
    );
    expect((await withServerMetadata(only)).problems).toEqual([
      expect.stringMatching(
        /^oauth\.issuer \(PANEL_OAUTH_ISSUER\) .*\/nothing publishes no metadata \(.*\): set oauth\.authorizationEndpoint and oauth\.tokenEndpoint/,
      ),
    ]);
  });

  it('an OpenID provider listing no offline_access, or no login prompt, is asked for neither', () => {
    const server = {
      issuer: base,
      scopes_supported: ['openid', 'panel'],
      prompt_values_supported: ['none', 'consent'],
    };
    expect(factsOf(server, 'oidc')).toEqual({
      metadata: true,
      openid: true,
      offlineAccess: false,
      promptLogin: false,
      prompts: ['none', 'consent'],
      issParameter: false,
    });
  });

  it('sends prompt=login after Disconnect only to a provider that lists it (Google lists none and refuses it)', () => {
    // Google's discovery document, as far as sign-in reads it: no prompt_values_supported.
    const google = { issuer: base, scopes_supported: ['openid', 'email', 'profile'] };
    const facts = factsOf(google, 'oidc');
    expect(facts.promptLogin).toBe(false);
    // max_age=0 has an OpenID provider ask for the password (Core §3.1.2.1).
    expect(authorizationParams('email', facts, true)).toEqual({ scope: 'openid email', max_age: '0' });
    // A provider that lists login gets it.
    const listing = factsOf({ ...google, prompt_values_supported: ['none', 'login'] }, 'oidc');
    expect(authorizationParams('email', listing, true)).toEqual({
      scope: 'openid email',
      prompt: 'login',
      max_age: '0',
    });
  });

  it('keeps the prompt values a provider lists, and none where the list is not one of names', () => {
    // Keycloak's.
    const keycloak = { issuer: base, prompt_values_supported: ['none', 'login', 'consent'] };
    expect(factsOf(keycloak, 'oidc')).toMatchObject({ promptLogin: true, prompts: ['none', 'login', 'consent'] });
    // Entra ID's lists none.
    expect(factsOf({ issuer: base }, 'oidc')).not.toHaveProperty('prompts');
    expect(factsOf({ issuer: base, prompt_values_supported: ['login', 1] }, 'oidc')).not.toHaveProperty('prompts');
  });
});
