// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildSettings, signInConfigured } from '../../utils/build-settings';

const OAUTH_ENV = {
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
    });
    expect(buildSettings({ ...OAUTH_ENV, PANEL_OAUTH_ISSUER: 'https://id.example/' }, 'production').oauth.issuer).toBe('https://id.example/');
    const revocation = 'https://login.panel.example/oauth/revoke';
    expect(buildSettings({ ...OAUTH_ENV, PANEL_OAUTH_REVOCATION_ENDPOINT: revocation }, 'production').oauth.revocationEndpoint).toBe(revocation);
  });

  it('offer sign-in only with both endpoints, the client id and the API base URL', () => {
    expect(signInConfigured(buildSettings(OAUTH_ENV, 'production'))).toBe(true);
    for (const name of Object.keys(OAUTH_ENV)) {
      const env: Record<string, string> = { ...OAUTH_ENV };
      delete env[name];
      expect(signInConfigured(buildSettings(env, 'production')), name).toBe(false);
    }
    expect(signInConfigured(buildSettings({}, 'production'))).toBe(false);
  });
});
