// @vitest-environment node
/**
 * The rules the ledger relies on, where a layer around it could break them: the baseline and the
 * read after the answer are the ledger's own fresh reads, whatever the sync layer has in flight.
 * Against the sandbox over real HTTP, with storage answering a few milliseconds late.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { redeem } from '../../../entrypoints/background/redemption/service';
import { refreshHistory } from '../../../entrypoints/background/sync';
import type { Sandbox } from '../../sandbox/server';
import {
  armFault,
  closeSandboxes,
  connectTo,
  fakeNotifications,
  slowReads,
  startTwoAccounts,
} from '../background-helpers';
import { parsed, rid } from '../test-ids';
import { redemptionKey, type RewardId } from '../../../utils/ids';

const REDEEM = '/v1/panel/redemption';
const HISTORY = '/v1/panel/redemptions';
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500

let a: Sandbox;
let b: Sandbox;
let restoreReads: () => void;

beforeAll(async () => {
  ({ a, b } = await startTwoAccounts({ timeoutMs: 300, retryBaseDelayMs: 1 }));
});
afterAll(() => closeSandboxes(a, b));
beforeEach(async () => {
  fakeBrowser.reset();
  a.reset();
  fakeNotifications();
  // Connected without connect()'s warm-up reads, so no read is out but the test's own.
  await connectTo(a);
  await refreshHistory(true);
  restoreReads = slowReads(3);
});
afterEach(() => {
  restoreReads();
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const historyReads = () => a.requests.filter((r) => r.path === HISTORY && r.method === 'GET').length;
const redeemElsewhere = (rewardId: RewardId) =>
  fetch(`${a.url}${REDEEM}?id=${rewardId}`, { headers: { Authorization: `Bearer ${a.token}` } });

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(5);
  expect(condition()).toBe(true);
}

describe('the baseline is the ledger’s own fresh read', () => {
  it('a history read already out when Confirm is pressed is not the baseline: a redemption made on the website just before is never taken for the Confirm', async () => {
    // A page's refresh is out; the panel computed its answer before the website's redemption.
    await armFault(a, { path: HISTORY, holdMs: 250 });
    const before = historyReads();
    const slow = refreshHistory(true).catch(() => undefined);
    await until(() => historyReads() > before);
    expect((await redeemElsewhere(COFFEE)).status).toBe(200);
    // The Confirm: the panel answers 500 and records nothing for it.
    await armFault(a, { path: REDEEM, status: 500 });
    const entry = await redeem(COFFEE);
    await slow;
    expect(entry.redemption).toBeUndefined();
    expect(entry).toMatchObject({ state: 'unknown', answer: 'unclear' });
    // Its baseline holds the website's redemption: it was read by a request that left after Confirm.
    expect(entry.baseline).toContain(redemptionKey(parsed(a.state.redemptions.at(-1)!)));
  });

  it('the read after the answer is a read that left after the answer, even while an older read is out', async () => {
    // The redeem is answered 500 though the panel recorded it; a refresh that left before is out.
    await armFault(a, { path: REDEEM, commit: true, status: 500, delayMs: 100 });
    const confirm = redeem(COFFEE);
    await until(() => a.requests.some((r) => r.path === REDEEM));
    await armFault(a, { path: HISTORY, holdMs: 250 });
    const slow = refreshHistory(true).catch(() => undefined);
    const entry = await confirm;
    await slow;
    // Only a read that left after the answer may settle it: it shows the redemption.
    expect(entry).toMatchObject({ state: 'done', answer: 'unclear' });
  });
});
