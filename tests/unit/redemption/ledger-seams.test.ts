// @vitest-environment node
/**
 * The rules the ledger relies on, where a layer around it could break them: the baseline and the
 * read after the answer are the ledger's own fresh reads, whatever the sync layer has in flight.
 * Against the sandbox over real HTTP, with storage answering a few milliseconds late.
 */
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CHECK_ALARM, dismissRedemption } from '../../../entrypoints/background/redemption/service';
import { deleteValue, saveValues } from '../../../entrypoints/background/profile/profile';
import { connect } from '../../../entrypoints/background/session/session';
import { ledgerItem } from '../../../utils/storage-items';
import { refreshHistory } from '../../../entrypoints/background/sync/sync';
import type { Sandbox } from '../../sandbox/server';
import {
  activeSessionId,
  armFault,
  connectTo,
  redeemNow,
  runEveryCheck,
  slowReads,
  twoAccountHooks,
  until,
} from '../background-helpers';
import { parsed, rid } from '../test-ids';
import { redemptionKey, type RewardId } from '../../../utils/ids';

const REDEEM = '/v1/panel/redemption';
const HISTORY = '/v1/panel/redemptions';
const COFFEE = rid(101); // 500 points; the seeded balance is 2,500

let a: Sandbox;
twoAccountHooks(
  (accounts) => ({ a } = accounts),
  async () => {
    // Connected without connect()'s warm-up reads, so no read is out but the test's own.
    await connectTo(a);
    await refreshHistory(true);
    return slowReads(3);
  },
);

const historyReads = () => a.requests.filter((r) => r.path === HISTORY && r.method === 'GET').length;
const redeemElsewhere = (rewardId: RewardId) =>
  fetch(`${a.url}${REDEEM}?id=${rewardId}`, { headers: { Authorization: `Bearer ${a.token}` } });

describe('the baseline is the ledger’s own fresh read', () => {
  it('a history read already out when Confirm is pressed is not the baseline: a redemption made on the website just before is never taken for the Confirm', async () => {
    // A page's refresh is out; the panel computed its answer before the website's redemption.
    await armFault(a, { path: HISTORY, holdMs: 600 });
    const before = historyReads();
    const slow = refreshHistory(true).catch(() => undefined);
    await until(() => historyReads() > before);
    expect((await redeemElsewhere(COFFEE)).status).toBe(200);
    // The Confirm: the panel answers 500 and records nothing for it.
    await armFault(a, { path: REDEEM, status: 500 });
    const entry = await redeemNow(COFFEE);
    await slow;
    expect(entry.redemption).toBeUndefined();
    expect(entry).toMatchObject({ state: 'unknown', answer: 'unclear' });
    // Its baseline holds the website's redemption: it was read by a request that left after Confirm.
    expect(entry.baseline).toContain(redemptionKey(parsed(a.state.redemptions.at(-1)!)));
  });

  it('the read after the answer is a read that left after the answer, even while an older read is out', async () => {
    // The redeem is answered 500 though the panel recorded it; a refresh that left before is out.
    await armFault(a, { path: REDEEM, commit: true, status: 500, delayMs: 100 });
    const confirm = redeemNow(COFFEE);
    await until(() => a.requests.some((r) => r.path === REDEEM));
    await armFault(a, { path: HISTORY, holdMs: 600 });
    const slow = refreshHistory(true).catch(() => undefined);
    const entry = await confirm;
    await slow;
    // Only a read that left after the answer may settle it: it shows the redemption.
    expect(entry).toMatchObject({ state: 'done', answer: 'unclear' });
  });
});

const BIG = '1152921504606846977'; // 2^60 + 1: a 64-bit panel's id
const BIGGER = '1152921504606846978'; // 2^60 + 2: as a JSON number, both read as 2^60

/** A history body with these redemptions of Coffee, the ids written as the panel writes them (raw JSON). */
function historyBody(ids: string[], quote: boolean): string {
  const seeded = a.state.redemptions.map((r) => JSON.stringify(r));
  const coffee = a.state.rewards.find((r) => r.id === 101)!;
  const own = ids.map((id, i) =>
    JSON.stringify({
      ...a.state.redemptions[0]!,
      id: 0,
      reward: { ...coffee, reward_point_cost: null },
      created_at: `2026-11-2${i}T10:00:00`,
    }).replace('"id":0', `"id":${quote ? `"${id}"` : id}`),
  );
  return `{"message":"success","redemptions":[${[...seeded, ...own].join(',')}]}`;
}

describe('ids are compared exactly', () => {
  it.each([
    ['as JSON numbers beyond 2^53', false],
    ['as strings of digits', true],
  ])(
    'a 64-bit panel’s redemption ids, %s: the Confirm’s own is told apart from one in its baseline that differs by one',
    async (_, quote) => {
      await armFault(a, { path: HISTORY, body: historyBody([BIG], quote) });
      await armFault(a, { path: REDEEM, status: 500 });
      await armFault(a, { path: HISTORY, body: historyBody([BIG, BIGGER], quote), times: 5 });
      const entry = await redeemNow(COFFEE);
      expect(entry).toMatchObject({ state: 'done', redemption: { id: BIGGER } });
    },
  );
});

describe('a redemption is its id, reward and date together', () => {
  it('a redemption id the panel gives again after deleting the first (max + 1) is a new redemption: the charged Confirm is found, not "not found"', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const first = await redeemNow(COFFEE);
      expect(first.state).toBe('done');
      const reused = first.redemption!.id;
      await dismissRedemption();
      // The panel cancels and deletes it; its next redemption, a minute later, gets the same id.
      a.state.redemptions = a.state.redemptions.filter((r) => String(r.id) !== reused);
      vi.setSystemTime(Date.now() + 60_000);
      await armFault(a, { path: REDEEM, commit: true, status: 500 });
      const second = await redeemNow(COFFEE);
      expect(String(a.state.redemptions.at(-1)!.id)).toBe(reused);
      expect(second).toMatchObject({ state: 'done', redemption: { id: reused } });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a switch to the same account keeps every Confirm still being settled', () => {
  it('the same key again, on an account whose first redemption it is (an empty baseline): the Confirm, its check and its hold stay', async () => {
    a.state.redemptions = [];
    await refreshHistory(true);
    await armFault(a, { path: REDEEM, drop: true });
    const open = await redeemNow(COFFEE);
    expect(open.state).toBe('unknown');
    await connect(a.url, a.token);
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: open.requestId, state: 'unknown' });
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
    await expect(redeemNow(COFFEE)).rejects.toMatchObject({ error: { kind: 'unsettled' } });
  });

  it('the same key again while the history answers 500: the Confirm still being checked stays', async () => {
    await armFault(a, { path: REDEEM, drop: true });
    const open = await redeemNow(COFFEE);
    expect(open.state).toBe('unknown');
    await armFault(a, { path: HISTORY, status: 500, times: 5 });
    await connect(a.url, a.token);
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: open.requestId, state: 'unknown' });
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
  });
});

describe('the balance is evidence', () => {
  it('a refusal while the balance already shows the points gone (the history written a moment later) is never "nothing charged": unknown, then found', async () => {
    // The first copy spends the points; its history entry comes later. The re-sent copy gets 402.
    await armFault(a, { path: REDEEM, status: 402, body: '{"message":"Insufficient points."}', delayMs: 100 });
    const confirming = redeemNow(COFFEE);
    await until(() => a.requests.some((r) => r.path === REDEEM));
    a.state.balance -= 500;
    const entry = await confirming;
    expect(entry).toMatchObject({ state: 'unknown', answer: 'refused', balanceBefore: 2500, balanceMoved: -500 });
    expect(entry.error?.nothingCharged).toBeUndefined();
    // The ledger catches up: the next check finds it.
    await fetch(`${a.url}${REDEEM}?id=${COFFEE}`, { headers: { Authorization: `Bearer ${a.token}` } });
    a.state.balance += 500;
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'done' });
  });

  it('a refusal with the balance unmoved and nothing new in the history is "nothing charged"', async () => {
    a.state.balance = 400;
    const entry = await redeemNow(COFFEE);
    expect(entry).toMatchObject({ state: 'failed', balanceBefore: 400, error: { status: 402, nothingCharged: true } });
    expect(entry.balanceMoved).toBeUndefined();
  });
});

describe('a balance that cannot be read is no evidence', () => {
  it('a refusal whose balance read after the answer fails is not "nothing charged" at once: a scheduled check decides', async () => {
    // The first copy spends the points, its history entry written later; the re-sent copy gets 402,
    // and the balance beside the read after that answer cannot be read.
    await armFault(a, { path: REDEEM, status: 402, body: '{"message":"Insufficient points."}', delayMs: 100 });
    const confirming = redeemNow(COFFEE);
    await until(() => a.requests.some((r) => r.path === REDEEM));
    a.state.balance -= 500;
    await armFault(a, { path: '/v1/panel/rewards', status: 500, times: 10 });
    const entry = await confirming;
    expect(entry).toMatchObject({ state: 'unknown', answer: 'refused', balanceUnread: true });
    expect(entry.error?.nothingCharged).toBeUndefined();
    // The history catches up before the first scheduled check, which finds the redemption.
    await fetch(`${a.url}${REDEEM}?id=${COFFEE}`, { headers: { Authorization: `Bearer ${a.token}` } });
    a.state.balance += 500;
    await runEveryCheck();
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'done' });
  });

  it('a balance that cannot be read before sending sends nothing: there is no "before" to weigh an answer against', async () => {
    a.state.balance = 400;
    await armFault(a, { path: '/v1/panel/rewards', status: 500, times: 10 });
    await expect(redeemNow(COFFEE)).rejects.toMatchObject({
      error: {
        kind: 'rejected',
        message: expect.stringMatching(/^The redemption was not sent, so nothing was charged/),
      },
    });
    expect(a.requests.filter((r) => r.path === REDEEM)).toHaveLength(0);
    expect(await ledgerItem.getValue()).toBeNull();
  });
});

describe('a redeem not sent says why once, in plain words', () => {
  it('a history that cannot be read first: "not sent, so nothing was charged", the reason, when to try, no code nested in brackets', async () => {
    await armFault(a, { path: HISTORY, status: 503, times: 10 });
    const refused = await redeemNow(COFFEE).catch((err: { error: { message: string } }) => err.error.message);
    expect(refused).toBe(
      'The redemption was not sent, so nothing was charged: your redemption history has to be read first, and that failed. Panel Rewards has a problem right now. Try again in a moment.',
    );
    expect(a.requests.filter((r) => r.path === REDEEM)).toHaveLength(0);
  });
});

describe('every write carries its session', () => {
  it('a profile save made under a session that has since ended is refused, and nothing reaches the panel', async () => {
    const typedIn = await activeSessionId();
    await connect(a.url, a.token);
    const before = a.requests.filter((r) => r.method === 'POST').length;
    await expect(saveValues(typedIn, { FIRST_NAME: 'Sam' })).rejects.toMatchObject({
      error: { kind: 'invalid_input', message: expect.stringMatching(/another account was connected/) },
    });
    await expect(deleteValue(typedIn, 'FIRST_NAME')).rejects.toMatchObject({ error: { kind: 'invalid_input' } });
    expect(a.requests.filter((r) => r.method === 'POST' || r.method === 'DELETE').length).toBe(before);
  });
});
