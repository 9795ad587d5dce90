// @vitest-environment node
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/credentials';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { toAppError } from '../../entrypoints/background/result';
import { ledgerItem, profileItem, rewardsItem, sessionItem } from '../../utils/storage-items';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { deliver, OWN_PAGE } from './background-helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  fakeBrowser.reset();
  sandbox.reset();
  // @webext-core/messaging listens through the `chrome` global.
  vi.stubGlobal('chrome', fakeBrowser);
  unregister = registerHandlers();
});
afterEach(() => unregister());
let unregister: () => void;

describe('message protocol', () => {
  it('answers the extension’s own pages', async () => {
    expect(await deliver('getSession', undefined)).toMatchObject({ ok: true, data: { connected: false } });
  });

  it.each([
    ['a web page relaying through a content script', { id: 'test-extension-id', url: 'https://evil.example/', tab: { id: 3 } }],
    ['another extension', { id: 'other-extension', url: 'chrome-extension://other-extension/page.html' }],
    ['a sender without a URL', { id: 'test-extension-id' }],
  ])('refuses %s', async (_label, sender) => {
    const reply = await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token }, sender);
    expect(reply).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(sandbox.requests).toHaveLength(0);
    expect(await credentialsItem.getValue()).toBeNull();
  });

  it('connects only after the API accepts the token, and never answers with the token', async () => {
    const wrong = await deliver('connect', { baseUrl: sandbox.url, token: 'not-the-token' });
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(await credentialsItem.getValue()).toBeNull();
    expect((await sessionItem.getValue()).connected).toBe(false);

    const right = await deliver('connect', { baseUrl: `${sandbox.url}/`, token: ` ${sandbox.token} ` }, OWN_PAGE);
    expect(right).toMatchObject({ ok: true, data: { connected: true, tokenHint: sandbox.token.slice(-4), baseUrl: sandbox.url } });
    expect(JSON.stringify(right)).not.toContain(sandbox.token);
    expect((await rewardsItem.getValue())?.data.balance).toEqual({ points: 2500, source: 'rewards' });
  });

  it('refuses a malformed base URL and a blank token without sending anything', async () => {
    expect(await deliver('connect', { baseUrl: 'not a url', token: 'x' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await deliver('connect', { baseUrl: 'http://panel.example.com', token: 'x' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(await deliver('connect', { baseUrl: sandbox.url, token: '   ' })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('answers not_connected before a token is stored', async () => {
    expect(await deliver('refreshRewards', { force: true })).toMatchObject({ ok: false, error: { kind: 'not_connected' } });
  });

  it('disconnecting removes the token and every cached panelist data', async () => {
    await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token });
    expect(await deliver('disconnect', undefined)).toMatchObject({ ok: true, data: { connected: false } });
    expect(await credentialsItem.getValue()).toBeNull();
    expect(await rewardsItem.getValue()).toBeNull();
    const stored = await fakeBrowser.storage.local.get(null);
    expect(JSON.stringify(stored)).not.toContain(sandbox.token);
  });

  it('flags the session when the server stops accepting the token', async () => {
    await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token });
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ path: '/v1/panel/rewards', status: 401, body: '{"message":"Token expired"}' }) });
    expect(await deliver('refreshRewards', { force: true })).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect((await sessionItem.getValue()).rejected).toBe(true);
  });
});

describe('profile writes', () => {
  beforeEach(async () => {
    await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token });
    await deliver('refreshProfile', { force: true });
    sandbox.requests.length = 0;
  });

  it('checks values again before sending them, whatever the page sent', async () => {
    const cases = [{ BIRTH_DATE: '2024-02-30' }, { EMPLOYMENT: 999 }, { PANELIST_COUNTRY: 'DE' }, { NOT_A_QUESTION: 'x' }, {}];
    for (const values of cases) {
      expect(await deliver('saveValues', { values })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    }
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('saves valid values in one update and re-reads the profile', async () => {
    const reply = await deliver('saveValues', { values: { FIRST_NAME: 'Robin', HOBBIES: [135] } });
    expect(reply).toEqual({ ok: true, data: null });
    expect((await profileItem.getValue())?.data.values).toMatchObject({ FIRST_NAME: 'Robin', HOBBIES: [135] });
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(sandbox.state.values).toMatchObject({ FIRST_NAME: 'Robin', HOBBIES: [135] });
  });
});

describe('history refresh', () => {
  it('skips the freshness window while a redemption outcome is unknown', async () => {
    await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token });
    await deliver('refreshHistory', { force: true });
    const historyRequests = () => sandbox.requests.filter((r) => r.path === '/v1/panel/redemptions').length;
    const before = historyRequests();
    await deliver('refreshHistory', { force: false });
    expect(historyRequests()).toBe(before);

    await ledgerItem.setValue({ requestId: 'r', rewardId: 101, rewardName: 'x', points: 500, startedAt: Date.now(), state: 'unknown' });
    await deliver('refreshHistory', { force: false });
    expect(historyRequests()).toBe(before + 1);
  });
});

describe('storage full', () => {
  it('says so in words instead of a generic failure', () => {
    const error = toAppError(new Error('Resource::kQuotaBytes quota exceeded'));
    expect(error.kind).toBe('unexpected');
    expect(error.message).toMatch(/storage is full/);
    expect(toAppError(new Error('boom')).message).toMatch(/Something went wrong/);
  });
});
