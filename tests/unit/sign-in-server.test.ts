// @vitest-environment node
/**
 * What the authorization request asks, from what the build read of the server
 * (utils/sign-in-server.ts), compared with what the standards say it must be: an OpenID provider
 * gets `openid`, and `offline_access` with `prompt=consent` (OpenID Connect Core §11) unless its
 * own list of scopes leaves `offline_access` out; a server whose metadata was not read gets the
 * operator's scopes and nothing else; after Disconnect, `login consent` only to a server whose
 * metadata lists both. Deliberate breakages it failed on: `consent` sent to a plain OAuth 2.0
 * server; `offline_access` added without `prompt=consent`; `openid` added twice; `login consent`
 * sent whatever the server lists.
 */
import { describe, expect, it } from 'vitest';
import {
  asksPasswordAfterDisconnect,
  authorizationParams,
  NO_METADATA,
  type ServerFacts,
} from '../../utils/sign-in-server';

const OPENID: ServerFacts = {
  metadata: true,
  openid: true,
  offlineAccess: true,
  promptLogin: true,
  issParameter: true,
};

describe('the authorization request', () => {
  it('asks a server whose metadata was not read the scopes as set, and nothing more', () => {
    expect(authorizationParams('', NO_METADATA, false)).toEqual({});
    expect(authorizationParams('panel offline_access', NO_METADATA, false)).toEqual({ scope: 'panel offline_access' });
  });

  it('asks an OpenID provider for openid and offline_access, with the consent prompt', () => {
    expect(authorizationParams('', OPENID, false)).toEqual({ scope: 'openid offline_access', prompt: 'consent' });
    // The operator's own scopes stay; none is asked twice.
    expect(authorizationParams('openid panel', OPENID, false)).toEqual({
      scope: 'openid panel offline_access',
      prompt: 'consent',
    });
    expect(authorizationParams('offline_access', OPENID, false)).toEqual({
      scope: 'openid offline_access',
      prompt: 'consent',
    });
  });

  it('leaves offline_access out where the provider does not list it, and then asks no consent', () => {
    const without = { ...OPENID, offlineAccess: false };
    expect(authorizationParams('', without, false)).toEqual({ scope: 'openid' });
    // Unless the operator asks for it: then the standard way.
    expect(authorizationParams('offline_access', without, false)).toEqual({
      scope: 'openid offline_access',
      prompt: 'consent',
    });
  });

  it('asks a plain OAuth 2.0 server with metadata for no OpenID scope or prompt', () => {
    const oauth2: ServerFacts = { ...NO_METADATA, metadata: true, issParameter: true };
    expect(authorizationParams('panel offline_access', oauth2, false)).toEqual({ scope: 'panel offline_access' });
  });
});

describe('the sign-in after Disconnect (a shared computer)', () => {
  it('asks every server to log the panelist in again, an OpenID provider with max_age=0 too', () => {
    expect(authorizationParams('', NO_METADATA, true)).toEqual({ prompt: 'login' });
    expect(authorizationParams('', { ...OPENID, prompts: ['none', 'login', 'consent'] }, true)).toEqual({
      scope: 'openid offline_access',
      prompt: 'login consent',
      max_age: '0',
    });
    // Without offline_access no consent is asked, so login goes alone where it is listed.
    expect(authorizationParams('', { ...OPENID, offlineAccess: false, prompts: ['login'] }, true)).toEqual({
      scope: 'openid',
      prompt: 'login',
      max_age: '0',
    });
    // A provider whose prompt_values_supported has no login: max_age alone, which it must honour.
    expect(authorizationParams('', { ...OPENID, promptLogin: false }, true)).toEqual({
      scope: 'openid offline_access',
      prompt: 'consent',
      max_age: '0',
    });
  });

  it('sends one prompt value to a provider whose metadata does not list both login and consent (Entra ID refuses two)', () => {
    // No prompt_values_supported (Entra ID, oidc-provider): consent, which the refresh token needs,
    // and max_age=0 for the password.
    expect(authorizationParams('', OPENID, true)).toEqual({
      scope: 'openid offline_access',
      prompt: 'consent',
      max_age: '0',
    });
    // A list with login but not consent.
    expect(authorizationParams('api://panel/read', { ...OPENID, prompts: ['none', 'login'] }, true)).toEqual({
      scope: 'openid api://panel/read offline_access',
      prompt: 'consent',
      max_age: '0',
    });
  });

  it('says the password will be asked only where the metadata says so', () => {
    expect(asksPasswordAfterDisconnect(NO_METADATA)).toBe(false);
    expect(asksPasswordAfterDisconnect(undefined)).toBe(false);
    expect(asksPasswordAfterDisconnect(OPENID)).toBe(true);
    // A plain OAuth 2.0 server that lists `login` among its prompts.
    expect(asksPasswordAfterDisconnect({ ...NO_METADATA, metadata: true, promptLogin: true })).toBe(true);
    expect(asksPasswordAfterDisconnect({ ...NO_METADATA, metadata: true })).toBe(false);
  });
});

describe('a build that sends no prompt=consent (oauth.consentPrompt omit: Microsoft Entra ID)', () => {
  const ENTRA: ServerFacts = {
    metadata: true,
    openid: true,
    offlineAccess: true,
    promptLogin: false,
    issParameter: false,
  };

  it('still asks offline_access, without prompt=consent, and after Disconnect max_age=0 alone', () => {
    expect(authorizationParams('api://panel/read', ENTRA, false, { consentPrompt: false })).toEqual({
      scope: 'openid api://panel/read offline_access',
    });
    expect(authorizationParams('api://panel/read', ENTRA, true, { consentPrompt: false })).toEqual({
      scope: 'openid api://panel/read offline_access',
      max_age: '0',
    });
    // A provider that lists login gets it alone after Disconnect, no longer held back by consent.
    const listing = { ...ENTRA, promptLogin: true, prompts: ['login'] };
    expect(authorizationParams('', listing, true, { consentPrompt: false })).toEqual({
      scope: 'openid offline_access',
      prompt: 'login',
      max_age: '0',
    });
  });

  it('by default sends prompt=consent as before', () => {
    expect(authorizationParams('', ENTRA, false)).toEqual({ scope: 'openid offline_access', prompt: 'consent' });
    expect(authorizationParams('', ENTRA, false, { consentPrompt: true })).toEqual({
      scope: 'openid offline_access',
      prompt: 'consent',
    });
  });
});
