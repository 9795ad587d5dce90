// @vitest-environment node
/**
 * The history checks of unknown redemption outcomes (redemption-checks.ts) seen from outside: the
 * check alarm, what each check writes to storage and what it leaves alone, recovery at start-up,
 * and errors said to who asked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { httpTuning } from '../../../entrypoints/background/auth/api';
import { credentialsItem } from '../../../entrypoints/background/store/credentials';
import { dismissRedemption } from '../../../entrypoints/background/redemption/service';
import {
  answerRedemption,
  CHECK_AFTER_MS,
  CHECK_ALARM,
  checkOutcomes,
  checkRedemption,
  redeemsInFlight,
  onCheckAlarm,
  recoverPending,
  startRedemption,
} from '../../../entrypoints/background/redemption/service';
import {
  READ_RETRY_MS,
  settlesHere,
  withBalance,
  type Confirms,
} from '../../../entrypoints/background/redemption/machine';
import {
  DISCONNECTED,
  ledgerItem,
  sessionItem,
  settledItem,
  unsettledItem,
  type LedgerEntry,
} from '../../../utils/storage-items';
import {
  activeSessionId,
  apiRequests,
  closeSandboxes,
  connectedSandbox,
  connectTo,
  redeemNow,
} from '../background-helpers';
import { did, parsed, rid } from '../test-ids';
import type { RewardId } from '../../../utils/ids';

const REDEEM = '/v1/panel/redemption';
const HISTORY = '/v1/panel/redemptions';
const COFFEE = rid(101);
const BOOKS = rid(102);

const env = connectedSandbox();
beforeAll(() => {
  Object.assign(httpTuning, { timeoutMs: 2000, retryBaseDelayMs: 1 });
});
afterAll(() => closeSandboxes());
afterEach(() => redeemsInFlight.clear());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fault(rule: object): Promise<void> {
  await fetch(`${env.sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
}

/** Lets the requests a `held` fault keeps waiting through. */
async function release(): Promise<void> {
  await fetch(`${env.sandbox.url}/__sandbox/release`, { method: 'POST' });
}

/** The panel records a redemption of `rewardId`, as if the request whose answer was lost had arrived. */
async function commit(rewardId: RewardId): Promise<void> {
  await fetch(`${env.sandbox.url}${REDEEM}?id=${rewardId}`, {
    headers: { Authorization: `Bearer ${env.sandbox.token}` },
  });
}

/** An outcome whose answer was lost a second ago, its first check due in 30 s. */
function unknown(rewardId: RewardId, over: Partial<LedgerEntry> = {}): LedgerEntry {
  const startedAt = Date.now() - 1000;
  return {
    requestId: crypto.randomUUID(),
    rewardId,
    rewardName: `Reward ${rewardId}`,
    points: 500,
    startedAt,
    knownRedemptionIds: env.sandbox.state.redemptions.map((r) => did(r.id)),
    idempotencyKey: crypto.randomUUID(),
    state: 'unknown',
    checks: { done: 0, nextAt: startedAt + CHECK_AFTER_MS[0], lastAt: null },
    ...over,
  };
}

/**
 * Runs `work` while every `storage.local.set` is seen: returns the keys each wrote. `fail` may
 * refuse a set (a full storage, or a worker stopped right after it) by throwing.
 */
async function watchWrites(
  work: () => Promise<unknown>,
  fail?: (items: Record<string, unknown>) => Error | null,
  afterWrite = false,
): Promise<string[][]> {
  const local = fakeBrowser.storage.local;
  const set = local.set.bind(local);
  const written: string[][] = [];
  local.set = async (items: Record<string, unknown>) => {
    const refusal = fail?.(items) ?? null;
    if (refusal && !afterWrite) throw refusal;
    await set(items);
    written.push(Object.keys(items));
    if (refusal) throw refusal;
  };
  try {
    await work();
  } finally {
    local.set = set;
  }
  return written;
}
/** What `written` wrote beyond the history read's own caches: the ledger's items and anything else. */
const beyondHistory = (written: string[][]) =>
  written.flat().filter((key) => !/^(cache|view|validators):/.test(key) && key !== 'sync');

describe('the check alarm', () => {
  it('a worker stopped just after a new entry is written leaves its first check scheduled', async () => {
    const sid = await activeSessionId();
    const entry: LedgerEntry = { ...unknown(COFFEE), state: 'pending', checks: undefined };
    redeemsInFlight.add(entry.requestId);
    const stopped = new Error('worker stopped');
    await expect(
      watchWrites(
        () => startRedemption(sid, entry),
        (items) => ('ledger' in items ? stopped : null),
        true,
      ),
    ).rejects.toBe(stopped);
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'pending' });
    expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(entry.startedAt + CHECK_AFTER_MS[0]);
  });

  it('a check alarm due sooner is not pushed later by a new entry, and one due later is brought forward', async () => {
    const sid = await activeSessionId();
    const stopped = new Error('worker stopped');
    const start = (entry: LedgerEntry) =>
      watchWrites(
        () => startRedemption(sid, entry),
        (items) => ('ledger' in items ? stopped : null),
        true,
      ).catch(() => undefined);
    const sooner = Date.now() + 1000;
    await fakeBrowser.alarms.create(CHECK_ALARM, { when: sooner });
    await start({ ...unknown(COFFEE), state: 'done', checks: undefined, startedAt: Date.now() });
    expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(sooner);

    await fakeBrowser.alarms.create(CHECK_ALARM, { when: Date.now() + 3600_000 });
    const next: LedgerEntry = { ...unknown(BOOKS), state: 'done', checks: undefined };
    await dismissRedemption();
    await start(next);
    expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(next.startedAt + CHECK_AFTER_MS[0]);
  });

  it('one alarm stands for every open outcome, at the earliest check due', async () => {
    const soon = unknown(COFFEE);
    const later = unknown(BOOKS, { checks: { done: 1, nextAt: Date.now() + 600_000, lastAt: null } });
    await unsettledItem.setValue([later]);
    await ledgerItem.setValue(soon);
    await dismissRedemption();
    expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(soon.checks!.nextAt);
  });

  it('a check under way leaves an alarm standing in for it, should the worker stop before it ends', async () => {
    await ledgerItem.setValue(unknown(COFFEE));
    await fault({ path: HISTORY, delayMs: 300 });
    const firing = Date.now();
    const check = onCheckAlarm({ name: CHECK_ALARM, scheduledTime: firing });
    while (apiRequests(env.sandbox, HISTORY) === 0) await sleep(5);
    const standIn = (await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime;
    expect(standIn).toBeGreaterThanOrEqual(firing + READ_RETRY_MS);
    expect(standIn).toBeLessThanOrEqual(Date.now() + READ_RETRY_MS);
    await check;
  });

  it('an alarm of another name checks nothing', async () => {
    const entry = unknown(COFFEE);
    await ledgerItem.setValue(entry);
    await onCheckAlarm({ name: 'refresh', scheduledTime: entry.checks!.nextAt! });
    expect(apiRequests(env.sandbox, HISTORY)).toBe(0);
    expect(await ledgerItem.getValue()).toEqual(entry);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeUndefined();
  });
});

describe('recovery at start-up', () => {
  it('writes a stopped worker’s pending entry as an unknown outcome whose answer was lost, and reschedules its check', async () => {
    const entry: LedgerEntry = { ...unknown(COFFEE), state: 'pending', checks: undefined };
    await ledgerItem.setValue(entry);
    await recoverPending();
    expect(await ledgerItem.getValue()).toMatchObject({
      requestId: entry.requestId,
      state: 'unknown',
      error: { kind: 'network', message: expect.stringMatching(/stopped while redeeming.*history is being checked/) },
      checks: { done: 0, nextAt: entry.startedAt + CHECK_AFTER_MS[0] },
    });
    expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(entry.startedAt + CHECK_AFTER_MS[0]);
  });

  it('while disconnected, clears a check alarm left for nothing', async () => {
    await fakeBrowser.storage.local.set({ [credentialsItem.key]: null, [sessionItem.key]: DISCONNECTED });
    await fakeBrowser.alarms.create(CHECK_ALARM, { when: Date.now() + 1000 });
    await recoverPending();
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeUndefined();
  });

  it('a check alarm that fires while disconnected ends, and so does a scheduled check with nothing left to settle', async () => {
    await fakeBrowser.storage.local.set({ [credentialsItem.key]: null, [sessionItem.key]: DISCONNECTED });
    await onCheckAlarm({ name: CHECK_ALARM, scheduledTime: Date.now() });
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeUndefined();

    await connectTo(env.sandbox);
    await onCheckAlarm({ name: CHECK_ALARM, scheduledTime: Date.now() });
    // No stand-in is left to wake the worker every five minutes for nothing.
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeUndefined();
    expect(apiRequests(env.sandbox, HISTORY)).toBe(0);
  });

  it('a history read another part of the worker made (its time unknown) can find a redemption but never confirm a refusal', async () => {
    const sid = await activeSessionId();
    const refused = unknown(COFFEE, {
      answer: 'refused',
      answeredAt: Date.now(),
      error: { kind: 'rejected', message: 'No', status: 402 },
    });
    await ledgerItem.setValue(refused);
    const history = env.sandbox.state.redemptions.map(parsed);
    await checkOutcomes(null, { sid, history });
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: refused.requestId, state: 'unknown' });
    // A read it asks for itself, after the answer, does confirm it.
    await checkOutcomes(null);
    expect(await ledgerItem.getValue()).toMatchObject({
      requestId: refused.requestId,
      state: 'failed',
      error: { nothingCharged: true },
    });
  });

  it('a write that fails only ever brings the alarm forward, to the earliest check due, never clears it', async () => {
    const soon = unknown(COFFEE);
    const later = unknown(BOOKS, { checks: { done: 1, nextAt: Date.now() + 600_000, lastAt: null } });
    await ledgerItem.setValue(soon);
    await unsettledItem.setValue([later]);
    await fakeBrowser.alarms.create(CHECK_ALARM, { when: Date.now() + 3_600_000 });
    const full = new Error('QUOTA_BYTES quota exceeded');
    await expect(
      watchWrites(
        () => dismissRedemption(),
        () => full,
      ),
    ).rejects.toBe(full);
    expect((await fakeBrowser.alarms.get(CHECK_ALARM))?.scheduledTime).toBe(soon.checks!.nextAt);
    // Nothing open and the write refused: no alarm appears.
    await ledgerItem.setValue({ ...soon, state: 'done', checks: undefined });
    await unsettledItem.setValue([]);
    await fakeBrowser.alarms.clear(CHECK_ALARM);
    await expect(
      watchWrites(
        () => dismissRedemption(),
        () => full,
      ),
    ).rejects.toBe(full);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeUndefined();
  });

  it('closing the card while disconnected answers and writes nothing', async () => {
    await fakeBrowser.storage.local.set({ [credentialsItem.key]: null, [sessionItem.key]: DISCONNECTED });
    await expect(dismissRedemption()).resolves.toBeNull();
    expect(await fakeBrowser.storage.local.get('ledger')).toEqual({});
  });
});

describe('what a redemption’s steps write', () => {
  it('a second redemption is refused while the first is still pending, which stays', async () => {
    const sid = await activeSessionId();
    const first: LedgerEntry = { ...unknown(COFFEE), state: 'pending', checks: undefined };
    redeemsInFlight.add(first.requestId);
    expect(await startRedemption(sid, first)).toBe(true);
    expect(await startRedemption(sid, { ...first, requestId: 'second', rewardId: BOOKS })).toBe(false);
    expect(await ledgerItem.getValue()).toEqual(first);
  });

  it('an answer for a request the ledger no longer shows changes nothing', async () => {
    const sid = await activeSessionId();
    const done = (confirms: Confirms): Confirms => ({
      current: { ...confirms.current!, state: 'done' },
      awaitingCheck: [],
      recentlySettled: [],
    });
    expect(await answerRedemption(sid, 'gone', done)).toBeNull();
    const shown = { ...unknown(COFFEE), state: 'failed' as const, checks: undefined };
    await ledgerItem.setValue(shown);
    expect(await answerRedemption(sid, 'gone', done)).toBeNull();
    expect(await ledgerItem.getValue()).toEqual(shown);
  });

  it('closing a settled card writes the ledger and the recent outcomes, nothing else', async () => {
    await ledgerItem.setValue({ ...unknown(COFFEE), state: 'failed', checks: undefined });
    const written = await watchWrites(() => dismissRedemption());
    expect(written.map((keys) => keys.sort())).toEqual([['ledger', 'ledger:settled']]);
    expect(await ledgerItem.getValue()).toBeNull();
    expect(await settledItem.getValue()).toHaveLength(1);
  });

  it('a check that finds nothing new writes nothing to the ledger, and reads no balance', async () => {
    await unsettledItem.setValue([unknown(BOOKS)]);
    await ledgerItem.setValue(unknown(COFFEE));
    await settledItem.setValue([{ ...unknown(COFFEE), state: 'failed' }]);
    const written = await watchWrites(() => checkRedemption());
    expect(apiRequests(env.sandbox, HISTORY)).toBe(1);
    expect(beyondHistory(written)).toEqual([]);
    // The balance is read only for an outcome that settles: here it would go with none.
    expect(apiRequests(env.sandbox, '/v1/panel/rewards')).toBe(0);
  });

  it('a check with no outcome open does not read the history', async () => {
    await ledgerItem.setValue({ ...unknown(COFFEE), state: 'done', checks: undefined });
    await settledItem.setValue([{ ...unknown(BOOKS), state: 'not_found' }]);
    await checkRedemption();
    expect(apiRequests(env.sandbox, HISTORY)).toBe(0);
  });

  it('an outcome found among those the ledger no longer shows moves to the settled ones, and the others stay open', async () => {
    const found = unknown(COFFEE);
    const open = unknown(BOOKS);
    await unsettledItem.setValue([found, open]);
    await commit(COFFEE);
    await checkRedemption();
    expect(await unsettledItem.getValue()).toEqual([open]);
    expect(await settledItem.getValue()).toEqual([
      expect.objectContaining({ requestId: found.requestId, state: 'done' }),
    ]);
    await commit(BOOKS);
    await checkRedemption();
    expect(await unsettledItem.getValue()).toEqual([]);
    expect((await settledItem.getValue()).map((e) => e.requestId)).toEqual([found.requestId, open.requestId]);
  });

  it('a scheduled check counts itself for the outcome due, beside one not yet due', async () => {
    const notDue = unknown(COFFEE, { checks: { done: 1, nextAt: Date.now() + 600_000, lastAt: null } });
    const due = unknown(BOOKS);
    await unsettledItem.setValue([notDue, due]);
    await onCheckAlarm({ name: CHECK_ALARM, scheduledTime: due.checks!.nextAt! });
    expect(await unsettledItem.getValue()).toEqual([
      notDue,
      { ...due, checks: { done: 1, nextAt: due.startedAt + CHECK_AFTER_MS[1], lastAt: due.checks!.nextAt } },
    ]);
    // No refusal waits on its balance here, and nothing settled: no balance read.
    expect(apiRequests(env.sandbox, '/v1/panel/rewards')).toBe(0);
  });

  it('a success the history did not show yet stays open, and the next history read names it', async () => {
    const sid = await activeSessionId();
    const confirmed: LedgerEntry = { ...unknown(COFFEE), answer: 'success' };
    await ledgerItem.setValue(confirmed);
    await commit(COFFEE);
    const history = env.sandbox.state.redemptions.map(parsed);
    await checkOutcomes(null, { sid, history });
    const mine = history.find((r) => !confirmed.knownRedemptionIds!.includes(r.id));
    expect(await ledgerItem.getValue()).toMatchObject({ state: 'done', redemption: { id: mine!.id } });
  });

  it('a history read of an ended session settles nothing in the active one', async () => {
    const entry = unknown(COFFEE);
    await ledgerItem.setValue(entry);
    await commit(COFFEE);
    await checkOutcomes(null, {
      sid: 'ended-session',
      history: env.sandbox.state.redemptions.map(parsed),
    });
    expect(await ledgerItem.getValue()).toEqual(entry);
  });

  it('Check now while disconnected reads nothing and fails nothing', async () => {
    await ledgerItem.setValue(unknown(COFFEE));
    await fakeBrowser.storage.local.set({ [credentialsItem.key]: null, [sessionItem.key]: DISCONNECTED });
    await expect(checkRedemption()).resolves.toMatchObject({ state: 'unknown' });
    expect(env.sandbox.requests).toHaveLength(0);
  });

  it('an outcome found while the balance cannot be read settles without a balance: unknown, never "none"', async () => {
    await ledgerItem.setValue(unknown(COFFEE));
    await commit(COFFEE);
    await fault({ path: '/v1/panel/rewards', status: 500, times: 10 });
    const settled = await checkRedemption();
    expect(settled).toMatchObject({ state: 'done' });
    expect(settled).not.toHaveProperty('balanceAfter');
  });

  it('a full storage while an outcome settles is reported to the caller who asked, and the outcome stays open', async () => {
    const entry = unknown(COFFEE);
    await ledgerItem.setValue(entry);
    await commit(COFFEE);
    const full = new Error('QUOTA_BYTES quota exceeded');
    await expect(
      watchWrites(
        () => checkRedemption(),
        (items) => ('ledger' in items ? full : null),
      ),
    ).rejects.toBe(full);
    expect(await ledgerItem.getValue()).toEqual(entry);
    expect(await fakeBrowser.alarms.get(CHECK_ALARM)).toBeDefined();
  });

  it('a check whose session ended while it read the history ends quietly, writing nothing', async () => {
    const entry = unknown(COFFEE);
    await ledgerItem.setValue(entry);
    await commit(COFFEE);
    await fault({ path: HISTORY, held: true });
    const check = checkRedemption();
    while (apiRequests(env.sandbox, HISTORY) === 0) await sleep(5);
    await connectTo(env.sandbox);
    await release();
    await expect(check).resolves.toEqual(entry);
  });

  it('a check whose session ended while it read the balance ends quietly too, writing nothing', async () => {
    const entry = unknown(COFFEE);
    await ledgerItem.setValue(entry);
    await commit(COFFEE);
    await fault({ path: '/v1/panel/rewards', held: true });
    const check = checkRedemption();
    while (apiRequests(env.sandbox, '/v1/panel/rewards') === 0) await sleep(5);
    await connectTo(env.sandbox);
    await release();
    // The same account again: its Confirm stays open for the new session's own check.
    await expect(check).resolves.toEqual(entry);
    expect(await ledgerItem.getValue()).toEqual(entry);
  });
  it('Check now that cannot read, while another read settles the last open outcome, names no next check', async () => {
    const sid = await activeSessionId();
    const entry = unknown(COFFEE);
    await ledgerItem.setValue(entry);
    await commit(COFFEE);
    // Its first try held until the other read has settled the Confirm; every try fails.
    await fault({ path: HISTORY, held: true, status: 500 });
    await fault({ path: HISTORY, status: 500, times: 2 });
    const check = checkRedemption().catch((err: { error: { message: string } }) => err.error.message);
    while (apiRequests(env.sandbox, HISTORY) === 0) await sleep(5);
    await checkOutcomes(null, { sid, history: env.sandbox.state.redemptions.map(parsed) });
    expect(await ledgerItem.getValue()).toMatchObject({ requestId: entry.requestId, state: 'done' });
    await release();
    const message = await check;
    // The reason ends it: no check is left to name, and never a made-up time.
    expect(message).toMatch(/^Your history could not be read, so nothing was checked\. .+ has a problem right now\.$/);
    expect(message).not.toMatch(/next check/);
  });
  it('a redeem whose answer storage refused leaves no pending Confirm to block the next one', async () => {
    const full = new Error('QUOTA_BYTES quota exceeded');
    let ledgerWrites = 0;
    await watchWrites(
      () => redeemNow(COFFEE).catch(() => undefined),
      (items) => ('ledger' in items && ++ledgerWrites > 1 ? full : null),
    );
    // Its start was written, its answer was not: no redeem of this worker has it in flight any more.
    expect(await ledgerItem.getValue()).toMatchObject({ rewardId: COFFEE, state: 'pending' });
    await expect(redeemNow(BOOKS)).resolves.toMatchObject({ rewardId: BOOKS });
  });
});

describe('when the current Confirm settles (settlesHere, withBalance)', () => {
  const entry = (state: LedgerEntry['state'], requestId = 'r'): LedgerEntry => ({
    ...unknown(COFFEE),
    requestId,
    state,
  });

  it('only an open entry that closes, the same request, takes the balance read after it', () => {
    expect(settlesHere(entry('pending'), entry('done'))).toBe(true);
    expect(settlesHere(entry('unknown'), entry('not_found'))).toBe(true);
    expect(settlesHere(null, entry('done'))).toBe(false);
    expect(settlesHere(entry('pending'), null)).toBe(false);
    expect(settlesHere(entry('unknown'), entry('unknown'))).toBe(false);
    expect(settlesHere(entry('done'), entry('done'))).toBe(false);
    expect(settlesHere(entry('pending', 'a'), entry('done', 'b'))).toBe(false);
  });

  it('the balance goes with every entry that settled here, on the card or off it, and only when it was read', () => {
    const confirms = (
      current: LedgerEntry | null,
      awaitingCheck: LedgerEntry[] = [],
      recentlySettled: LedgerEntry[] = [],
    ): Confirms => ({
      current,
      awaitingCheck,
      recentlySettled,
    });
    const after = confirms(entry('done'), [], [entry('not_found', 'off')]);
    const before = confirms(entry('pending'), [entry('unknown', 'off')]);
    const weighed = withBalance(before, after, 1500);
    expect(weighed.current).toMatchObject({ balanceAfter: 1500 });
    expect(weighed.recentlySettled[0]).toMatchObject({ requestId: 'off', balanceAfter: 1500 });
    expect(withBalance(before, after, null).current).toHaveProperty('balanceAfter', null);
    // Unread: written nowhere, unknown as it is.
    expect(withBalance(before, after, undefined)).toStrictEqual(after);
    // Settled before this change: its balance was the one read then.
    const earlier = confirms(entry('done'), [], [entry('not_found', 'off')]);
    expect(withBalance(earlier, after, 1500).current).not.toHaveProperty('balanceAfter');
    expect(withBalance(earlier, after, 1500).recentlySettled[0]).not.toHaveProperty('balanceAfter');
  });
});
