// @vitest-environment node
/**
 * What a connection starts, beyond the switch itself (session/session.ts): the balance its first
 * read of the catalogue brings is the account's first point, and the profile and history are read again from the panel, however
 * fresh the copies a reconnect of the same account keeps. Against the sandbox over real HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { balanceIdle, watchBalance } from '../../entrypoints/background/balance-history';
import { connect } from '../../entrypoints/background/session/session';
import { balanceHistoryItem } from '../../utils/storage-items';
import type { Sandbox } from '../sandbox/server';
import { apiRequests, closeSandboxes, firstReadsDone, startTwoAccounts, until } from './background-helpers';

const HISTORY = '/v1/panel/redemptions';
const REWARDS = '/v1/panel/rewards';
const PROFILE = '/v1/panel/variables/meta';

let a: Sandbox;
let b: Sandbox;
beforeAll(async () => {
  // The tests count requests: a time-out a loaded machine can reach (2 s) would add a retry's.
  ({ a, b } = await startTwoAccounts({ timeoutMs: 10_000, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));
beforeEach(() => {
  fakeBrowser.reset();
  a.reset();
});

describe('a connection', () => {
  it('records the balance it read as the account’s first point of its balance over time', async () => {
    const unwatch = watchBalance();
    try {
      await connect(a.url, a.token);
      // The catalogue is read after the connect answers; its balance is the first point.
      await until(() => apiRequests(a, REWARDS) === 1);
      await vi.waitFor(
        async () => {
          await balanceIdle();
          expect((await balanceHistoryItem.getValue()).map((sample) => sample.points)).toEqual([a.state.balance]);
        },
        { timeout: 10_000 },
      );
      // The history and the profile this connect reads land here, not in the next test's counts.
      await firstReadsDone();
    } finally {
      unwatch();
    }
  });

  it('reads the history and the profile again on a reconnect of the same account, however fresh the kept copies', async () => {
    await connect(a.url, a.token);
    await until(() => apiRequests(a, HISTORY) === 1 && apiRequests(a, PROFILE) === 1);
    // The same key again at once: its history and profile are kept, and were just read. Its
    // history is read once as evidence of the account (account-identity.ts), and once more after.
    await connect(a.url, a.token);
    await until(() => apiRequests(a, HISTORY) === 3 && apiRequests(a, PROFILE) === 2);
  });
});
