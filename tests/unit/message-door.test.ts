// @vitest-environment node
/**
 * Every message is checked at the door: a malformed variant of each message type is refused with
 * `bad_request` naming the field, before its handler runs, so nothing is read from the panel,
 * written to storage or sent. Real handlers and the sandbox over real HTTP.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { registerHandlers } from '../../entrypoints/background/handlers';
import { REQUESTS } from '../../utils/message-schemas';
import { activeSessionId, connectedSandbox, deliver } from './background-helpers';

const env = connectedSandbox();
let unregister: () => void;
beforeEach(() => {
  // @webext-core/messaging listens through the `chrome` global.
  vi.stubGlobal('chrome', fakeBrowser);
  unregister = registerHandlers();
});
afterEach(() => unregister());

/** For every message type, a variant of its data that a page of this extension would never send, and the field it names. */
const MALFORMED: Record<keyof typeof REQUESTS, [unknown, string]> = {
  getSession: [{ surprise: 1 }, ''],
  connect: [{ baseUrl: 'https://panel.example', token: 42 }, 'token'],
  disconnect: ['now', ''],
  refreshRewards: [{ force: 'yes' }, 'force'],
  redeem: [{ session: 's', rewardId: '101a', points: 500 }, 'rewardId'],
  checkRedemption: [[1], ''],
  dismissRedemption: [{ all: true }, ''],
  refreshHistory: [{}, 'force'],
  refreshProfile: [{ force: true, extra: 1 }, 'extra'],
  saveValues: [{ session: 's', values: { FIRST_NAME: { $gt: '' } } }, 'values.FIRST_NAME'],
  deleteValue: [{ session: 's', name: ['FIRST_NAME'] }, 'name'],
  editDraft: [{ session: 's', changes: { FIRST_NAME: 'Jo' }, clear: false }, 'clear'],
  dismissDraftNotice: [{}, 'session'],
  seeQuestions: [{ account: 'a', names: 'PETS' }, 'names'],
  setPreferences: [{ badgeShows: 'everything' }, 'badgeShows'],
  signIn: [{ redirect: 'https://evil.example' }, ''],
  setGoal: [{ rewardId: 1.5 }, 'rewardId'],
};

async function storageNow(): Promise<string> {
  return JSON.stringify(await fakeBrowser.storage.local.get(null));
}

describe('the door', () => {
  it.each(Object.entries(MALFORMED))(
    '%s with malformed data is refused as bad_request, naming the field; nothing is read, written or sent',
    async (type, [data, field]) => {
      const before = await storageNow();
      const reply = (await deliver(type, data)) as {
        ok: boolean;
        error?: { kind: string; field?: string; message: string };
      };
      expect(reply).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
      expect(reply.error?.field).toBe(field || undefined);
      expect(reply.error?.message).toContain(`“${type}”`);
      expect(reply.error?.message).toContain(field || 'this request');
      expect(env.sandbox.requests).toEqual([]);
      expect(await storageNow()).toBe(before);
    },
  );

  it.each([
    ['"101a"', '101a'],
    ['"1e3"', '1e3'],
    ['NaN', Number.NaN],
    ['-1', -1],
    ['1.5', 1.5],
    ['null', null],
    ['a huge one', 2 ** 60],
  ])(
    'a redeem whose rewardId is %s never becomes an outcome: no ledger entry, no read, no request',
    async (_, rewardId) => {
      const reply = await deliver('redeem', { session: await activeSessionId(), rewardId, points: 500 });
      expect(reply).toMatchObject({ ok: false, error: { kind: 'bad_request', field: 'rewardId' } });
      expect(await fakeBrowser.storage.local.get('ledger')).toEqual({});
      expect(env.sandbox.requests).toEqual([]);
    },
  );

  it('a well-formed message goes through to its handler', async () => {
    expect(await deliver('refreshRewards', { force: true })).toEqual({ ok: true, data: null });
    expect(env.sandbox.requests.map((r) => r.path)).toContain('/v1/panel/rewards');
    expect(await deliver('setGoal', { rewardId: null })).toEqual({ ok: true, data: null });
    expect(await deliver('getSession', undefined)).toMatchObject({ ok: true });
  });
});
