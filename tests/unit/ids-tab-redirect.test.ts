// @vitest-environment node
/** `npm run ids` names the address to register for sign-in in a tab, only in a build with sign-in. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { extensionIds } from '../../utils/build/operator/extension-ids';
import { buildSettings } from '../../utils/build/operator/panel-config';

const SIGN_IN = {
  PANEL_CONFIG: 'none',
  PANEL_API_BASE_URL: 'https://api.acme.example/panel',
  PANEL_OAUTH_AUTHORIZATION_ENDPOINT: 'https://login.acme.example/authorize',
  PANEL_OAUTH_TOKEN_ENDPOINT: 'https://login.acme.example/token',
  PANEL_OAUTH_CLIENT_ID: 'acme',
};

describe('npm run ids, sign-in in a tab', () => {
  it('gives the panel’s own page by default, the operator’s address when set, and nothing without sign-in', () => {
    expect(extensionIds(buildSettings(SIGN_IN, 'production')).tab).toEqual({
      redirectUrl: 'https://api.acme.example/extension-sign-in-done',
    });
    const own = 'https://api.acme.example/oauth/done';
    expect(extensionIds(buildSettings({ ...SIGN_IN, PANEL_OAUTH_TAB_REDIRECT_URL: own }, 'production')).tab).toEqual({
      redirectUrl: own,
    });
    expect(extensionIds(buildSettings({ PANEL_CONFIG: 'none' }, 'production')).tab).toBeNull();
  });

  it('says what to register for each browser', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'tests/tools/ids.ts'], {
      env: { ...process.env, ...SIGN_IN },
      encoding: 'utf8',
    });
    expect(out).toMatch(/Firefox on the desktop: https:\/\/[0-9a-f]{40}\.extensions\.allizom\.org\//);
    expect(out).toContain('Firefox for Android:    https://api.acme.example/extension-sign-in-done');
    expect(out).toContain('Chrome:                 https://<Chrome id>.chromiumapp.org/');
  }, 60_000);
});
