// @vitest-environment node
/**
 * Two Confirms whose answers came more than the due slack apart are each checked at their own
 * times: the alarm keeps firing until both are settled, one firing per due time, so settling both
 * takes more firings than one Confirm's four checks (what the model test's final checks must allow
 * for; the soak on be775d7, seed 859331309, run 541).
 */
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { httpTuning } from '../../../entrypoints/background/auth/api';
import {
  CHECK_AFTER_MS,
  CHECK_ALARM,
  redeemsInFlight,
  onCheckAlarm,
} from '../../../entrypoints/background/redemption/service';
import { ledgerItem, unsettledItem } from '../../../utils/storage-items';
import { armFault, closeSandboxes, connectedSandbox, redeemNow } from '../background-helpers';
import { rid } from '../test-ids';

const env = connectedSandbox();
beforeAll(() => {
  Object.assign(httpTuning, { timeoutMs: 2000, retryBaseDelayMs: 1 });
});
afterAll(() => closeSandboxes());
afterEach(() => {
  redeemsInFlight.clear();
  vi.useRealTimers();
});

it('two unknown Confirms answered 20 s apart take a firing per due time, and both end not found', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  await armFault(env.sandbox, { path: '/v1/panel/redemption', drop: true });
  expect((await redeemNow(rid(101))).state).toBe('unknown');
  vi.setSystemTime(Date.now() + 20_000);
  await armFault(env.sandbox, { path: '/v1/panel/redemption', drop: true });
  expect((await redeemNow(rid(102))).state).toBe('unknown');
  let firings = 0;
  for (; firings < 50; firings++) {
    const alarm = await fakeBrowser.alarms.get(CHECK_ALARM);
    if (!alarm) break;
    await fakeBrowser.alarms.clear(CHECK_ALARM);
    await onCheckAlarm(alarm);
  }
  const open = [await ledgerItem.getValue(), ...(await unsettledItem.getValue())].filter((e) => e?.state === 'unknown');
  expect(open).toEqual([]);
  expect(firings).toBeGreaterThan(CHECK_AFTER_MS.length + 2);
});
