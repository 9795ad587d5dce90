// @vitest-environment node
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { toAppError } from '../../entrypoints/background/result';
import { draftDiscardedItem, ledgerItem, profileItem, rewardsItem, sessionItem } from '../../utils/storage-items';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { activeSessionId, deliver, OWN_PAGE } from './background-helpers';
import { rid } from './test-ids';

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
    [
      'a web page relaying through a content script',
      { id: 'test-extension-id', url: 'https://evil.example/', tab: { id: 3 } },
    ],
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
    expect(right).toMatchObject({
      ok: true,
      data: { connected: true, tokenHint: sandbox.token.slice(-4), baseUrl: sandbox.url },
    });
    expect(JSON.stringify(right)).not.toContain(sandbox.token);
    // The catalogue is read after the answer, under the new session.
    await vi.waitFor(
      async () => expect((await rewardsItem.getValue())?.data.balance).toEqual({ points: 2500, source: 'rewards' }),
      { timeout: 10_000 },
    );
  });

  it('refuses a malformed base URL and a blank token without sending anything', async () => {
    expect(await deliver('connect', { baseUrl: 'not a url', token: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(await deliver('connect', { baseUrl: 'http://panel.example.com', token: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(await deliver('connect', { baseUrl: sandbox.url, token: '   ' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input' },
    });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('answers not_connected before a token is stored', async () => {
    expect(await deliver('refreshRewards', { force: true })).toMatchObject({
      ok: false,
      error: { kind: 'not_connected' },
    });
  });

  it('disconnecting removes the token and every cached panelist data', async () => {
    await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token });
    expect(await deliver('disconnect', undefined)).toMatchObject({ ok: true, data: { connected: false } });
    expect(await credentialsItem.getValue()).toBeNull();
    expect(await rewardsItem.getValue()).toBeNull();
    const stored = await fakeBrowser.storage.local.get(null);
    expect(JSON.stringify(stored)).not.toContain(sandbox.token);
  });

  it('takes a key the panel accepts whatever shape its values answer has; refuses a 403 and a page that is not JSON', async () => {
    const valuesAnswer = (status: number, body: string) =>
      fetch(`${sandbox.url}/__sandbox/faults`, {
        method: 'POST',
        body: JSON.stringify({ method: 'GET', path: '/v1/panel/variables/data', status, body, times: 1 }),
      });
    // A wrong address that answers every path with a web page is not a panel.
    await valuesAnswer(200, '<!doctype html><title>Sign in</title>');
    expect(await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token })).toMatchObject({
      ok: false,
      error: { kind: 'unexpected' },
    });
    await valuesAnswer(403, '{"message":"Your account is on hold."}');
    expect(await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token })).toMatchObject({
      ok: false,
      error: { kind: 'not_allowed', message: expect.stringContaining('Your account is on hold.') },
    });
    expect(await credentialsItem.getValue()).toBeNull();

    // The interface does not show this answer's shape: one the extension cannot read is the
    // profile's to tell, and the key is taken.
    await valuesAnswer(200, '{"message":"success"}');
    expect(await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token })).toMatchObject({
      ok: true,
      data: { connected: true },
    });
    await vi.waitFor(
      async () => expect((await rewardsItem.getValue())?.data.balance).toEqual({ points: 2500, source: 'rewards' }),
      { timeout: 10_000 },
    );
  });

  it('flags the session when the server stops accepting the token', async () => {
    await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token });
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/panel/rewards', status: 401, body: '{"message":"Token expired"}' }),
    });
    expect(await deliver('refreshRewards', { force: true })).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized' },
    });
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
    const cases = [
      { BIRTH_DATE: '2024-02-30' },
      { EMPLOYMENT: 999 },
      { PANELIST_COUNTRY: 'DE' },
      { NOT_A_QUESTION: 'x' },
      {},
    ];
    for (const values of cases) {
      expect(await deliver('saveValues', { session: await activeSessionId(), values })).toMatchObject({
        ok: false,
        error: { kind: 'invalid_input' },
      });
    }
    expect(sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('saves valid values in one update and re-reads the profile', async () => {
    const reply = await deliver('saveValues', {
      session: await activeSessionId(),
      values: { FIRST_NAME: 'Robin', HOBBIES: [135] },
    });
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

    await ledgerItem.setValue({
      requestId: 'r',
      rewardId: rid(101),
      rewardName: 'x',
      points: 500,
      startedAt: Date.now(),
      state: 'unknown',
    });
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

describe('the handler table passes each message on as it came', () => {
  const REDEEM = '/v1/panel/redemption';
  const fault = (rule: object) =>
    fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
  beforeEach(async () => {
    await deliver('connect', { baseUrl: sandbox.url, token: sandbox.token });
  });

  it('a redeem while the same reward is being checked goes through only when confirmed again', async () => {
    await fault({ path: REDEEM, drop: true });
    expect(await deliver('redeem', { session: await activeSessionId(), rewardId: 101, points: 500 })).toMatchObject({
      ok: true,
      data: { state: 'unknown' },
    });
    expect(await deliver('redeem', { session: await activeSessionId(), rewardId: 101, points: 500 })).toMatchObject({
      ok: false,
      error: { kind: 'unsettled' },
    });
    expect(
      await deliver('redeem', {
        session: await activeSessionId(),
        rewardId: 101,
        points: 500,
        confirmUnsettled: false,
      }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'unsettled' },
    });
    expect(
      await deliver('redeem', { session: await activeSessionId(), rewardId: 101, points: 500, confirmUnsettled: true }),
    ).toMatchObject({
      ok: true,
      data: { rewardId: '101' },
    });
  });

  it('"Check now" answers with the ledger entry, and dismissing a settled one forgets it', async () => {
    const redeemed = (await deliver('redeem', { session: await activeSessionId(), rewardId: 101, points: 500 })) as {
      data: { requestId: string; state: string };
    };
    expect(redeemed.data.state).toBe('done');
    expect(await deliver('checkRedemption', undefined)).toMatchObject({
      ok: true,
      data: { requestId: redeemed.data.requestId },
    });
    expect(await deliver('dismissRedemption', undefined)).toEqual({ ok: true, data: null });
    expect(await ledgerItem.getValue()).toBeNull();
  });

  it('a history refresh reads the history', async () => {
    sandbox.reset();
    expect(await deliver('refreshHistory', { force: true })).toEqual({ ok: true, data: null });
    expect(sandbox.requests.map((r) => r.path)).toContain('/v1/panel/redemptions');
  });

  it('the discarded-edits notice is dismissed for the session that sends it', async () => {
    const session = (await sessionItem.getValue()).id!;
    await draftDiscardedItem.setValue({ count: 2, at: 1 });
    expect(await deliver('dismissDraftNotice', { session })).toEqual({ ok: true, data: null });
    expect(await draftDiscardedItem.getValue()).toBeNull();
  });

  it('a refusal at the door says why in words', async () => {
    const reply = (await deliver('getSession', undefined, {
      id: 'other-extension',
      url: 'chrome-extension://other-extension/page.html',
    })) as { error: { message: string } };
    expect(reply.error.message).toMatch(/\w{4,}/);
  });

  it('a message carrying nothing may say so with null', async () => {
    expect(await deliver('getSession', null)).toMatchObject({ ok: true, data: { connected: true } });
  });

  it('a draft edit of 1,000 values is taken; one of 1,001 is refused at the door, saying the limit', async () => {
    const session = (await sessionItem.getValue()).id!;
    const values = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`Q_${i}`, 'x']));
    expect(await deliver('editDraft', { session, changes: values(1_000) })).toEqual({ ok: true, data: null });
    const refused = (await deliver('editDraft', { session, changes: values(1_001) })) as {
      ok: boolean;
      error: { kind: string; message: string };
    };
    expect(refused).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(refused.error.message).toContain('at most 1,000 values');
  });
});
