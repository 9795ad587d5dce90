// @vitest-environment node
/**
 * In the background, a variable name from a page reaches the panel only when it
 * is one of the panel's writable questions, and a 403 is "not allowed", never a rejected token.
 * Real background modules, the sandbox over real HTTP.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { profileItem, sessionItem, syncItem } from '../../utils/storage-items';
import { activeSessionId, connectedSandbox, deliver } from './background-helpers';

const env = connectedSandbox();
let unregister: () => void;
beforeEach(() => {
  // @webext-core/messaging listens through the `chrome` global.
  vi.stubGlobal('chrome', fakeBrowser);
  unregister = registerHandlers();
});
afterEach(() => unregister());

const writes = () => env.sandbox.requests.filter((r) => r.method === 'POST' || r.method === 'DELETE');
const fault = (rule: object) =>
  fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });

describe('deleteValue checks the name against the definitions', () => {
  it.each(['..', '.', 'PANELIST_COUNTRY', 'NICKNAME', 'first_name', ''])(
    'refuses %j without a DELETE, loading the definitions when none are cached',
    async (name) => {
      expect(await profileItem.getValue()).toBeNull();
      const reply = await deliver('deleteValue', { session: await activeSessionId(), name });
      expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: name } });
      expect(writes()).toEqual([]);
      // The definitions were read from the panel to check against.
      expect(env.sandbox.requests.some((r) => r.path === '/v1/panel/variables/meta')).toBe(true);
    },
  );

  it('uses the cached definitions: a name the cache does not list as writable is refused', async () => {
    await deliver('refreshProfile', { force: true });
    const cached = (await profileItem.getValue())!;
    // The cache says FIRST_NAME is read-only now: the page's request is not trusted over it.
    const definitions = cached.data.definitions.map((d) => (d.name === 'FIRST_NAME' ? { ...d, writable: false } : d));
    await profileItem.setValue({ ...cached, data: { ...cached.data, definitions } });
    env.sandbox.requests.length = 0;
    const reply = await deliver('deleteValue', { session: await activeSessionId(), name: 'FIRST_NAME' });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'FIRST_NAME' } });
    expect(env.sandbox.requests).toEqual([]);
    expect(env.sandbox.state.values.FIRST_NAME).toBe('Jordan');
  });

  it('deletes a writable value', async () => {
    const reply = await deliver('deleteValue', { session: await activeSessionId(), name: 'FIRST_NAME' });
    expect(reply).toMatchObject({ ok: true });
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /v1/panel/variables/data/FIRST_NAME']);
    expect(env.sandbox.state.values).not.toHaveProperty('FIRST_NAME');
  });
});

describe('saveValues checks the names against the definitions', () => {
  it.each([{ '..': 'x' }, { 'FIRST_NAME/..': 'x' }, { PANELIST_COUNTRY: 'DE' }, { FIRST_NAME: 'Sam', NICKNAME: 'x' }])(
    'refuses %j without a POST',
    async (values) => {
      const reply = await deliver('saveValues', { session: await activeSessionId(), values });
      expect(reply).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
      expect(writes()).toEqual([]);
      expect(env.sandbox.state.values.FIRST_NAME).toBe('Jordan');
    },
  );
});

describe('403 is not a rejected token', () => {
  it('a refresh answered 403 keeps the session; a 401 marks it rejected', async () => {
    await fault({ path: '/v1/panel/rewards', status: 403, body: '{"message":"Rewards are closed for your country."}' });
    const refused = await deliver('refreshRewards', { force: true });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'not_allowed', message: 'Rewards are closed for your country.' },
    });
    expect((await sessionItem.getValue()).rejected).toBe(false);

    await fault({ path: '/v1/panel/rewards', status: 401 });
    expect(await deliver('refreshRewards', { force: true })).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized' },
    });
    expect((await sessionItem.getValue()).rejected).toBe(true);
  });

  it('a redeem answered 403 keeps the session and redeems nothing', async () => {
    await fault({
      path: '/v1/panel/redemption',
      status: 403,
      body: '{"message":"Redemptions are paused for your account."}',
    });
    await deliver('redeem', { session: await activeSessionId(), rewardId: 101, points: 500 });
    expect((await sessionItem.getValue()).rejected).toBe(false);
    expect(env.sandbox.state.balance).toBe(2500);
    expect(env.sandbox.requests.filter((r) => r.path === '/v1/panel/redemption')).toHaveLength(1);
  });

  it('a delete answered 403 carries the panel message and keeps the session', async () => {
    await fault({ method: 'DELETE', status: 403, body: '{"message":"Your name can no longer be removed."}' });
    const reply = await deliver('deleteValue', { session: await activeSessionId(), name: 'FIRST_NAME' });
    expect(reply).toMatchObject({
      ok: false,
      error: { kind: 'not_allowed', message: 'Your name can no longer be removed.' },
    });
    expect((await sessionItem.getValue()).rejected).toBe(false);
    expect(env.sandbox.state.values.FIRST_NAME).toBe('Jordan');
  });
});

describe('a save the panel confirmed', () => {
  it.each([
    ['saveValues', { values: { FIRST_NAME: 'Sam' } }, 'Sam'],
    ['deleteValue', { name: 'FIRST_NAME' }, undefined],
  ] as const)(
    '%s is reported done when only the read after it fails; the cache shows the change and the read’s error is said apart',
    async (type, data, shown) => {
      await deliver('refreshProfile', { force: true });
      await fault({ method: 'GET', path: '/v1/panel/variables/data', status: 503, times: 10 });
      expect(await deliver(type, { session: await activeSessionId(), ...data })).toEqual({ ok: true, data: null });
      expect(env.sandbox.state.values.FIRST_NAME).toBe(shown);
      expect((await profileItem.getValue())?.data.values.FIRST_NAME).toBe(shown);
      expect((await syncItem.getValue()).profile.error).not.toBeNull();
    },
  );
});
