// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { onIdleStateChanged, onRefreshAlarm, REFRESH_ALARM } from '../../entrypoints/background/schedule/alarms';
import {
  historyNeedsRefresh,
  historyWanted,
  mayStillChange,
} from '../../entrypoints/background/schedule/refresh-policy';
import { refreshHistory, refreshRewards } from '../../entrypoints/background/sync/sync';
import { historyItem, ledgerItem, popupViewItem } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { apiRequests, connectedSandbox } from './background-helpers';
import { rid } from './test-ids';

const env = connectedSandbox();

const idleState = (state: 'active' | 'idle' | 'locked') =>
  vi.spyOn(fakeBrowser.idle, 'queryState').mockResolvedValue(state as never);
const onTime = () => onRefreshAlarm({ name: REFRESH_ALARM, scheduledTime: Date.now() });
const minutesAhead = async () => ((await fakeBrowser.alarms.get(REFRESH_ALARM))!.scheduledTime - Date.now()) / 60_000;

/** Every redemption in the sandbox finished: completed, failed or refunded. */
function finishAll(): void {
  for (const r of env.sandbox.state.redemptions)
    if (!r.refunded && !r.failed) Object.assign(r, { processed: true, partner_status: 'COMPLETE' });
}

afterEach(() => {
  vi.restoreAllMocks();
  historyWanted.length = 0;
});

describe('the refresh alarm while the panelist is away', () => {
  it.each(['idle', 'locked'] as const)('%s: sends nothing and stays armed', async (state) => {
    idleState(state);
    await onTime();
    expect(env.sandbox.requests).toHaveLength(0);
    expect(await minutesAhead()).toBeGreaterThan(20);
  });

  it('active: refreshes as usual', async () => {
    const query = idleState('active');
    await onTime();
    expect(query).toHaveBeenCalledWith(600);
    expect(apiRequests(env.sandbox, '/v1/panel/rewards')).toBe(1);
  });

  it('coming back after a skipped refresh brings it forward by a random 0.5–2 min; a fresh cache keeps its time', async () => {
    await refreshRewards(true);
    await onTime(); // re-arms about 30 min ahead
    const armedAt = async () => (await fakeBrowser.alarms.get(REFRESH_ALARM))!.scheduledTime;
    const later = await armedAt();
    await onIdleStateChanged('active');
    expect(await armedAt()).toBe(later);

    // The catalogue was read 45 minutes ago, as the popup view (written with it) says.
    const view = (await popupViewItem.getValue())!;
    await popupViewItem.setValue({ ...view, rewards: { ...view.rewards!, fetchedAt: Date.now() - 45 * 60_000 } });
    await onIdleStateChanged('idle');
    expect(await armedAt()).toBe(later);
    await onIdleStateChanged('active');
    expect(await minutesAhead()).toBeGreaterThanOrEqual(0.49);
    expect(await minutesAhead()).toBeLessThanOrEqual(2);
    expect(env.sandbox.requests.filter((r) => r.path === '/v1/panel/rewards')).toHaveLength(2);
  });
});

describe('the history on the refresh alarm', () => {
  it('is read while a redemption in it can still change (the seed has pending, approved, unclaimed, IN_REVIEW)', async () => {
    idleState('active');
    await refreshHistory(true);
    env.sandbox.requests.length = 0;
    await onTime();
    expect(apiRequests(env.sandbox, '/v1/panel/redemptions')).toBe(1);
  });

  it('is not read once every redemption is final: one request per firing', async () => {
    idleState('active');
    finishAll();
    await refreshHistory(true);
    env.sandbox.requests.length = 0;
    await onTime();
    expect(apiRequests(env.sandbox, '/v1/panel/rewards')).toBe(1);
    expect(apiRequests(env.sandbox, '/v1/panel/redemptions')).toBe(0);
  });

  it('is read when nothing is cached, while an outcome is unknown, and when another module asks', async () => {
    finishAll();
    expect(await historyNeedsRefresh()).toBe(true);
    await refreshHistory(true);
    expect(await historyNeedsRefresh()).toBe(false);
    const unknown = {
      requestId: 'r1',
      rewardId: rid(1),
      rewardName: 'x',
      points: 1,
      startedAt: Date.now(),
      state: 'unknown' as const,
    };
    await ledgerItem.setValue(unknown);
    expect(await historyNeedsRefresh()).toBe(true);
    await ledgerItem.setValue({ ...unknown, state: 'done' });
    expect(await historyNeedsRefresh()).toBe(false);
    historyWanted.push(async () => true);
    expect(await historyNeedsRefresh()).toBe(true);
  });

  it('watches a failed redemption for its refund for a month after the panel last changed it', async () => {
    const failed = { ...env.sandbox.state.redemptions.find((r) => r.failed && !r.refunded)! };
    const changedAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19);
    expect(mayStillChange({ ...failed, id: '1', updated_at: changedAgo(2) } as unknown as Redemption)).toBe(true);
    expect(mayStillChange({ ...failed, id: '1', updated_at: changedAgo(31) } as unknown as Redemption)).toBe(false);
    expect(
      mayStillChange({ ...failed, id: '1', updated_at: changedAgo(2), refunded: true } as unknown as Redemption),
    ).toBe(false);
    // The alarm reads the history while such a one is in it, and stops once it is refunded.
    finishAll();
    Object.assign(
      env.sandbox.state.redemptions.find((r) => r.failed && !r.refunded)!,
      { updated_at: changedAgo(2) },
    );
    await refreshHistory(true);
    expect(await historyNeedsRefresh()).toBe(true);
    Object.assign(
      env.sandbox.state.redemptions.find((r) => r.failed && !r.refunded)!,
      { refunded: true },
    );
    await refreshHistory(true);
    expect(await historyNeedsRefresh()).toBe(false);
  });

  it('counts pending, approved, unclaimed and unknown partner states as unfinished; complete, refunded and long-failed as final', async () => {
    await refreshHistory(true);
    const states = Object.fromEntries(
      (await historyItem.getValue())!.data.map((r: Redemption) => [r.id, mayStillChange(r)]),
    );
    const expected = Object.fromEntries(
      env.sandbox.state.redemptions.map((r) => {
        const status = (r.partner_status ?? '').toUpperCase();
        const longFailed = r.failed && Date.now() - Date.parse(`${r.updated_at}Z`) >= 30 * 86_400_000;
        const final = r.refunded || longFailed || (!r.failed && (r.processed || status === 'COMPLETE'));
        return [r.id, !final];
      }),
    );
    expect(states).toEqual(expected);
    expect(Object.values(states).filter(Boolean).length).toBe(4);
  });
});
