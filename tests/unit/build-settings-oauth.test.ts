// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { signInConfigured } from '../../utils/build-settings';
import { buildSettings, resolveSettings } from '../../utils/build/operator/panel-config';

const OAUTH_ENV = {
  // The project's own config file, if a developer has one, plays no part here.
  PANEL_CONFIG: 'none',
  PANEL_API_BASE_URL: 'https://api.panel.example',
  PANEL_OAUTH_AUTHORIZATION_ENDPOINT: 'https://login.panel.example/oauth/authorize',
  PANEL_OAUTH_TOKEN_ENDPOINT: 'https://login.panel.example/oauth/token',
  PANEL_OAUTH_CLIENT_ID: 'extension',
};

describe('sign-in build settings', () => {
  it('are read from the environment, the issuer defaulting to the authorization endpoint origin', () => {
    const { oauth } = buildSettings({ ...OAUTH_ENV, PANEL_OAUTH_SCOPES: 'panel offline_access' }, 'production');
    expect(oauth).toEqual({
      authorizationEndpoint: 'https://login.panel.example/oauth/authorize',
      tokenEndpoint: 'https://login.panel.example/oauth/token',
      clientId: 'extension',
      scopes: 'panel offline_access',
      issuer: 'https://login.panel.example',
      revocationEndpoint: '',
      // Sign-in in a tab comes back to the panel API's own origin.
      consentPrompt: '',
      tabRedirectUrl: 'https://api.panel.example/extension-sign-in-done',
    });
    expect(buildSettings({ ...OAUTH_ENV, PANEL_OAUTH_ISSUER: 'https://id.example/' }, 'production').oauth.issuer).toBe(
      'https://id.example/',
    );
    const revocation = 'https://login.panel.example/oauth/revoke';
    expect(
      buildSettings({ ...OAUTH_ENV, PANEL_OAUTH_REVOCATION_ENDPOINT: revocation }, 'production').oauth
        .revocationEndpoint,
    ).toBe(revocation);
  });

  it('take oauth.consentPrompt as send or omit, and refuse anything else, naming it', () => {
    expect(buildSettings({ ...OAUTH_ENV, PANEL_OAUTH_CONSENT_PROMPT: 'omit' }, 'production').oauth.consentPrompt).toBe(
      'omit',
    );
    expect(buildSettings(OAUTH_ENV, 'production').oauth.consentPrompt).toBe('');
    expect(resolveSettings({ ...OAUTH_ENV, PANEL_OAUTH_CONSENT_PROMPT: 'no' }, 'production').problems).toEqual([
      'PANEL_OAUTH_CONSENT_PROMPT (environment): "no" must be send or omit',
    ]);
  });

  it("take the tab sign-in address on the panel's origin only, without a query, and derive none without sign-in", () => {
    const own = 'https://api.panel.example/oauth/extension-done';
    expect(buildSettings({ ...OAUTH_ENV, PANEL_OAUTH_TAB_REDIRECT_URL: own }, 'production').oauth.tabRedirectUrl).toBe(
      own,
    );
    expect(
      buildSettings({ PANEL_CONFIG: 'none', PANEL_API_BASE_URL: 'https://api.panel.example' }, 'production').oauth
        .tabRedirectUrl,
    ).toBe('');
    const problems = (extra: Record<string, string>) =>
      resolveSettings({ ...OAUTH_ENV, ...extra }, 'production').problems;
    expect(problems({ PANEL_OAUTH_TAB_REDIRECT_URL: 'https://login.panel.example/done' })).toEqual([
      expect.stringMatching(
        /^oauth\.tabRedirectUrl \(PANEL_OAUTH_TAB_REDIRECT_URL\) https:\/\/login\.panel\.example\/done is not on the panel's origin https:\/\/api\.panel\.example/,
      ),
    ]);
    expect(problems({ PANEL_OAUTH_TAB_REDIRECT_URL: 'https://api.panel.example/done?from=ext' })).toEqual([
      expect.stringContaining('must not have a query'),
    ]);
    expect(problems({ PANEL_OAUTH_TAB_REDIRECT_URL: 'http://api.panel.example/done' })).toEqual([
      expect.stringContaining('must start with https://'),
    ]);
  });

  it('offer sign-in only with both endpoints, the client id and the API base URL', () => {
    expect(signInConfigured(buildSettings(OAUTH_ENV, 'production'))).toBe(true);
    // A missing part is now an error naming it (panel-config.test.ts); settings made by hand still ask.
    const { oauth, ...rest } = buildSettings(OAUTH_ENV, 'production');
    for (const name of ['authorizationEndpoint', 'tokenEndpoint', 'clientId'] as const) {
      expect(signInConfigured({ ...rest, oauth: { ...oauth, [name]: '' } }), name).toBe(false);
    }
    expect(signInConfigured({ ...rest, oauth, apiBaseUrl: '' })).toBe(false);
    expect(signInConfigured(buildSettings({ PANEL_CONFIG: 'none' }, 'production'))).toBe(false);
  });
});
