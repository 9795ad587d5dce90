// @vitest-environment node
/**
 * The ledger's own reads of the balance (redemption/fresh-reads.ts): the balance weighed against a
 * refusal is one a read shows that left after the moment the ledger names, never what a read
 * already out when it asked was computed from; a balance that cannot be read is none, and another
 * session's is refused. Against the sandbox over real HTTP, with storage answering late.
 */
import { describe, expect, it } from 'vitest';
import { balanceAfter, historyAfter, readMoment } from '../../../entrypoints/background/redemption/fresh-reads';
import { StaleSession } from '../../../entrypoints/background/store/store';
import { refreshHistory, refreshRewards } from '../../../entrypoints/background/sync/sync';
import type { Sandbox } from '../../sandbox/server';
import { activeSessionId, armFault, connectTo, slowReads, twoAccountHooks, until } from '../background-helpers';

const REWARDS = '/v1/panel/rewards';
const HISTORY = '/v1/panel/redemptions';

let a: Sandbox;
let b: Sandbox;
twoAccountHooks(
  (accounts) => ({ a, b } = accounts),
  async () => {
    await connectTo(a);
    return slowReads(3);
  },
);

const reads = (path: string) => a.requests.filter((r) => r.path === path && r.method === 'GET').length;

describe('the balance the ledger weighs', () => {
  it('is never the one a read already out computed: a rewards read that left before the moment is read again', async () => {
    // A page's refresh is out, its answer computed on arrival with the seeded 2,500 points.
    await armFault(a, { path: REWARDS, holdMs: 400 });
    const before = reads(REWARDS);
    const slow = refreshRewards(true).catch(() => undefined);
    await until(() => reads(REWARDS) > before);
    const moment = readMoment();
    // The points move after that read left (a redemption on the website).
    a.state.balance = 1_900;
    const points = await balanceAfter(await activeSessionId(), moment);
    await slow;
    expect(points).toBe(1_900);
    expect(reads(REWARDS)).toBe(before + 2);
  });

  it('is the first read that left after the moment, when none was out', async () => {
    const moment = readMoment();
    a.state.balance = 2_000;
    const before = reads(REWARDS);
    expect(await balanceAfter(await activeSessionId(), moment)).toBe(2_000);
    expect(reads(REWARDS)).toBe(before + 1);
  });

  it('is unread (undefined, not none) when the panel cannot answer: no evidence either way', async () => {
    await armFault(a, { path: REWARDS, status: 500, times: 10 });
    expect(await balanceAfter(await activeSessionId(), readMoment())).toBeUndefined();
  });

  it('is refused for a session no longer active: another account’s balance is no evidence', async () => {
    const old = await activeSessionId();
    await connectTo(b);
    await expect(balanceAfter(old, readMoment())).rejects.toBeInstanceOf(StaleSession);
  });
});

describe('the history the ledger weighs', () => {
  it('is read again when the read handed back left before the moment', async () => {
    await refreshHistory(true);
    await armFault(a, { path: HISTORY, holdMs: 400 });
    const before = reads(HISTORY);
    const slow = refreshHistory(true).catch(() => undefined);
    await until(() => reads(HISTORY) > before);
    const moment = readMoment();
    const { history } = await historyAfter(await activeSessionId(), moment);
    await slow;
    expect(reads(HISTORY)).toBe(before + 2);
    expect(history).toHaveLength(a.state.redemptions.length);
  });
});
