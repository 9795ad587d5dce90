// @vitest-environment node
/**
 * How unknown redemption outcomes settle, as the pure functions they are
 * (outcomes.ts, redemption-match.ts): the panel's ids decide, never its clock; every entry is
 * checked on time; a repeat is counted for the one Confirm it came from.
 */
import { describe, expect, it } from 'vitest';
import {
  answerOf,
  applyAnswer,
  balanceWanted,
  CHECK_AFTER_MS,
  checkTimes,
  firstCheck,
  interrupted,
  openConfirms,
  postponeChecks,
  READ_RETRY_MS,
  applyRead,
  applyReadAfterAnswer,
  SETTLED_KEPT,
  replaceCurrent,
  settlesHere,
  withBalance,
  withoutLostAnswer,
  type Confirms,
} from '../../../entrypoints/background/redemption/machine';
import { claimRedemptions } from '../../../entrypoints/background/redemption/match';
import { recordsShown } from '../../../entrypoints/background/redemption/repeats';
import type { LedgerEntry } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import { at, did, rid } from '../test-ids';
import { redemptionKey } from '../../../utils/ids';

const T0 = 1_800_000_000_000;
const COFFEE = rid(101);
const BOOKS = rid(102);

function entry(requestId: string, extra: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    requestId,
    rewardId: COFFEE,
    rewardName: 'Coffee',
    points: 500,
    startedAt: T0,
    knownRedemptionIds: [did(1), did(2)],
    idempotencyKey: requestId,
    state: 'unknown',
    ...extra,
  };
}
const unknown = (requestId: string, extra: Partial<LedgerEntry> = {}) => {
  const e = entry(requestId, extra);
  return { ...e, checks: firstCheck(e), error: { kind: 'network' as const, message: 'lost' }, ...extra };
};
function redemption(n: number, rewardId = COFFEE, createdAt = '2020-01-01T00:00:00'): Redemption {
  return {
    id: did(n),
    cost: 5,
    currency: 'USD',
    reward_point_cost: 500,
    reward: {
      id: rewardId,
      name: 'x',
      cost: 5,
      cost_currency: 'USD',
      type: 'gift_card',
      image_url: '',
      meta_data: {},
      reward_point_cost: null,
    },
    approved: false,
    processed: false,
    created_at: at(createdAt),
    updated_at: createdAt,
    failed: false,
    refunded: false,
    partner_status: null,
    failed_reason: null,
    transaction_id: null,
  };
}
const ledger = (
  current: LedgerEntry | null,
  awaitingCheck: LedgerEntry[] = [],
  recentlySettled: LedgerEntry[] = [],
): Confirms => ({ current, awaitingCheck, recentlySettled });
/** A history read asked for after every answer in these tests. */
const read = (history: readonly Redemption[]) => ({ history, requestedAt: T0 + 3_600_000 });
const BASELINE = [redemption(1), redemption(2, BOOKS)];
/** A balance read as a panel that shows none answers it, and one that could not be read. */
const NONE = { read: true as const, points: null };
const UNREAD = { read: false as const };
/** The balance read beside a check, as it stood before sending in these tests. */
const unmoved = { read: true as const, points: 2500 };

describe('claiming redemptions by id', () => {
  it('a new id of the entry’s reward is its redemption, whatever its timestamp; ids in its baseline and other rewards never are', () => {
    const history = [...BASELINE, redemption(3, BOOKS), redemption(9, COFFEE, '1999-01-01T00:00:00')];
    const { found, repeats } = claimRedemptions({ open: [entry('e')] }, history);
    expect(found.get('e')?.id).toBe('9');
    expect(repeats.size).toBe(0);
    expect(
      claimRedemptions({ open: [entry('e', { knownRedemptionIds: [did(1), did(2), did(9)] })] }, history).found.size,
    ).toBe(0);
    expect(claimRedemptions({ open: [entry('e', { rewardId: rid(7) })] }, history).found.size).toBe(0);
  });

  it('the answered entry chooses first; open ones then take the oldest left, oldest entry first', () => {
    const history = [...BASELINE, redemption(5), redemption(6), redemption(7)];
    const { found } = claimRedemptions(
      {
        first: entry('answered', { startedAt: T0 + 10 }),
        open: [entry('o-new', { startedAt: T0 + 5 }), entry('o-old', { startedAt: T0 - 5 })],
      },
      history,
    );
    expect(found.get('answered')?.id).toBe('5');
    expect(found.get('o-old')?.id).toBe('6');
    expect(found.get('o-new')?.id).toBe('7');
  });

  it('takes the oldest new redemption by id, whatever order the history lists them in', () => {
    const history = [...BASELINE, redemption(7), redemption(5), redemption(6)];
    const { found, repeats } = claimRedemptions({ first: entry('a'), open: [] }, history);
    expect(found.get('a')?.id).toBe('5');
    expect(repeats.get('a')).toEqual([redemptionKey(redemption(7)), redemptionKey(redemption(6))]);
  });

  it('never claims one already claimed, here or before', () => {
    const history = [...BASELINE, redemption(5), redemption(6)];
    const { found } = claimRedemptions(
      { open: [entry('a'), entry('b', { startedAt: T0 + 1 })] },
      history,
      new Set([redemptionKey(redemption(5))]),
    );
    expect(found.get('a')?.id).toBe('6');
    expect(found.has('b')).toBe(false);
  });

  it('what is left of an entry’s reward after every claim was recorded again for the first Confirm that claimed, if it sent a key', () => {
    const history = [...BASELINE, redemption(5), redemption(6), redemption(8), redemption(4, BOOKS)];
    const { found, repeats } = claimRedemptions(
      { first: entry('c'), open: [entry('o', { startedAt: T0 - 1 })] },
      history,
    );
    expect(found.get('c')?.id).toBe('5');
    expect(found.get('o')?.id).toBe('6');
    expect(repeats.get('c')).toEqual([redemptionKey(redemption(8))]);
    expect(repeats.has('o')).toBe(false);
    // An entry from before keys were sent has no baseline to trust for that.
    expect(claimRedemptions({ first: entry('c', { idempotencyKey: undefined }), open: [] }, history).repeats.size).toBe(
      0,
    );
    // Nothing left: nothing said.
    expect(claimRedemptions({ first: entry('c'), open: [] }, [...BASELINE, redemption(8)]).repeats.size).toBe(0);
  });

  it('an entry without a baseline counts nothing as known', () => {
    expect(
      claimRedemptions({ open: [entry('e', { knownRedemptionIds: undefined })] }, BASELINE).found.get('e')?.id,
    ).toBe('1');
  });
});

describe('settling outcomes', () => {
  it('finds an unknown outcome, drops its lost answer, and names what the panel recorded again', () => {
    const lost = unknown('e');
    const settled = applyRead(ledger(lost), read([...BASELINE, redemption(5), redemption(6)]), null, T0 + 9);
    expect(settled.current).toEqual({
      ...withoutLostAnswer(lost),
      // A settled Confirm keeps no baseline: it matches nothing any more.
      knownRedemptionIds: undefined,
      state: 'done',
      finishedAt: T0 + 9,
      redemption: redemption(5),
      duplicates: [redemptionKey(redemption(6))],
    });
    expect(settled.current).not.toHaveProperty('error');
    expect(settled.current).not.toHaveProperty('checks');
  });

  it('an answer is a hint: success, a refusal (a 4xx about the request), or unclear (408, 409, 423, 425, 429, time-out, network, 5xx, odd body)', () => {
    expect(answerOf(null)).toBe('success');
    for (const status of [400, 401, 402, 403, 404, 410, 422, 499])
      expect(answerOf({ kind: 'rejected', message: 'no', status })).toBe('refused');
    // Each of these speaks of the copy it answers: the first copy may still commit.
    for (const status of [408, 409, 423, 425, 429])
      expect(answerOf({ kind: 'rejected', message: 'not this copy', status })).toBe('unclear');
    expect(answerOf({ kind: 'server', message: 'down', status: 500 })).toBe('unclear');
    expect(answerOf({ kind: 'timeout', message: 'slow' })).toBe('unclear');
    expect(answerOf({ kind: 'network', message: 'lost' })).toBe('unclear');
    expect(answerOf({ kind: 'unexpected', message: 'odd', status: 200 })).toBe('unclear');
  });

  it('a success the history does not show yet stays open with its checks; the next read that shows it names it', () => {
    const answered = entry('s', { state: 'pending', answer: 'success' });
    const open = applyReadAfterAnswer(ledger(answered), 's', read(BASELINE), T0 + 5, NONE)!;
    expect(open.current).toEqual({ ...answered, state: 'unknown', balanceUnread: true, checks: firstCheck(answered) });
    const named = applyRead(open, read([...BASELINE, redemption(5)]), null, T0 + 9);
    expect(named.current).toMatchObject({
      state: 'done',
      answer: 'success',
      redemption: redemption(5),
      finishedAt: T0 + 9,
    });
    expect(named.current).not.toHaveProperty('duplicates');
  });

  it('a refusal is "nothing charged" only once a read after it shows no new redemption of the reward', () => {
    const refusal = { kind: 'rejected' as const, message: 'Insufficient points', status: 402 };
    // The balance before sending and after the answer the same: the history decides.
    const answered = entry('r', { state: 'pending', answer: 'refused', error: refusal, balanceBefore: 2500 });
    const failed = applyReadAfterAnswer(
      ledger(answered),
      'r',
      read([...BASELINE, redemption(4, BOOKS)]),
      T0 + 5,
      unmoved,
    )!.current;
    expect(failed).toEqual({
      ...answered,
      knownRedemptionIds: undefined,
      state: 'failed',
      error: { ...refusal, nothingCharged: true },
      finishedAt: T0 + 5,
    });
    // The browser's first copy committed; the refusal was the re-sent copy's (402): the history decides.
    const charged = applyReadAfterAnswer(
      ledger(answered),
      'r',
      read([...BASELINE, redemption(5)]),
      T0 + 5,
      unmoved,
    )!.current;
    expect(charged).toMatchObject({ state: 'done', answer: 'refused', redemption: redemption(5) });
    expect(charged).not.toHaveProperty('error');
    // No read after it: nothing is said about the points; the checks decide.
    const unread = applyReadAfterAnswer(ledger(answered), 'r', null, T0 + 5, unmoved)!.current;
    expect(unread).toMatchObject({ state: 'unknown', answer: 'refused', error: refusal, checks: firstCheck(answered) });
    expect(unread?.error).not.toHaveProperty('nothingCharged');
    // A later read that shows nothing new settles it then.
    expect(applyRead(ledger(unread), read(BASELINE), null, T0 + 50).current).toMatchObject({
      state: 'failed',
      error: { nothingCharged: true },
    });
  });

  it('a refusal on a panel that shows no balance is "nothing charged" only at its due check: its history may lag', () => {
    const refusal = { kind: 'rejected' as const, message: 'Insufficient points', status: 402 };
    const answered = entry('r', { state: 'pending', answer: 'refused', error: refusal, balanceBefore: null });
    const open = applyReadAfterAnswer(ledger(answered), 'r', read(BASELINE), T0 + 5, NONE)!;
    expect(open.current).toMatchObject({ state: 'unknown', balanceUnread: true, checks: { done: 0 } });
    expect(open.current?.error).not.toHaveProperty('nothingCharged');
    // A refresh's read meanwhile rules nothing either.
    expect(applyRead(open, read(BASELINE), null, T0 + 9).current).toMatchObject({ state: 'unknown' });
    // Its due check, with the balance read for it (none shown): the history alone decides.
    const at = answered.startedAt + 30_000;
    expect(applyRead(open, { ...read(BASELINE), requestedAt: at, balance: NONE }, at, at).current).toMatchObject({
      state: 'failed',
      error: { nothingCharged: true },
    });
  });

  it('a refusal whose balance could not be read is "nothing charged" only at its due check, by a balance read for it', () => {
    // The panel committed a first copy and refused the re-sent one; its history lags its balance,
    // and the balance beside the read after the answer could not be read.
    const refusal = { kind: 'rejected' as const, message: 'Insufficient points', status: 402 };
    const answered = entry('r', { state: 'pending', answer: 'refused', error: refusal, balanceBefore: 2500 });
    const open = applyReadAfterAnswer(ledger(answered), 'r', read(BASELINE), T0 + 5, UNREAD)!;
    expect(open.current).toMatchObject({ state: 'unknown', balanceUnread: true, checks: firstCheck(answered) });
    // A refresh or Check now moments later rules nothing out either.
    expect(applyRead(open, read(BASELINE), null, T0 + 50).current).toMatchObject({ state: 'unknown' });
    // The first scheduled check, once a lagging history has caught up, decides with a balance read
    // taken for it: unmoved is "nothing charged"; moved is recorded, and the checks go on.
    const at = T0 + CHECK_AFTER_MS[0];
    expect(applyRead(open, { ...read(BASELINE), requestedAt: at, balance: unmoved }, at, at).current).toMatchObject({
      state: 'failed',
      error: { nothingCharged: true },
    });
    const fell = applyRead(open, { ...read(BASELINE), requestedAt: at, balance: { read: true, points: 2000 } }, at, at);
    expect(fell.current).toMatchObject({ state: 'unknown', balanceMoved: -500, checks: { done: 1 } });
    expect(fell.current).not.toHaveProperty('balanceUnread');
    // Without a balance read, or with one that failed, the check counts and nothing is ruled.
    for (const balance of [undefined, { read: false as const }])
      expect(
        applyRead(open, { ...read(BASELINE), requestedAt: at, ...(balance ? { balance } : {}) }, at, at).current,
      ).toMatchObject({ state: 'unknown', balanceUnread: true, checks: { done: 1 } });
    // A panel that shows no balance: the history alone decides at that check.
    const noBalance = applyReadAfterAnswer(
      ledger({ ...answered, balanceBefore: null }),
      'r',
      read(BASELINE),
      T0 + 5,
      UNREAD,
    )!;
    const none = { read: true as const, points: null };
    expect(applyRead(noBalance, { ...read(BASELINE), requestedAt: at, balance: none }, at, at).current).toMatchObject({
      state: 'failed',
      error: { nothingCharged: true },
    });
    // One before and none now cannot be compared: nothing is ruled.
    expect(applyRead(open, { ...read(BASELINE), requestedAt: at, balance: none }, at, at).current).toMatchObject({
      state: 'unknown',
      balanceUnread: true,
    });
    const charged = applyRead(open, { ...read([...BASELINE, redemption(5)]), requestedAt: at }, at, at).current;
    expect(charged).toMatchObject({ state: 'done', redemption: redemption(5) });
    // The balance before sending unread counts the same way.
    const before = entry('b', { state: 'pending', answer: 'refused', error: refusal, balanceUnread: true });
    expect(
      applyReadAfterAnswer(ledger(before), 'b', read(BASELINE), T0 + 5, { read: true, points: 2000 })!.current,
    ).toMatchObject({
      state: 'unknown',
    });
  });

  it('a refusal whose balance could not be read is ruled by its own due check only, never by another Confirm’s', () => {
    // One alarm serves every Confirm: another one's check fires seconds after this refusal's answer.
    const refusal = { kind: 'rejected' as const, message: 'Insufficient points', status: 402 };
    const startedAt = T0 + 20_000;
    const answered = entry('r', {
      state: 'pending',
      answer: 'refused',
      error: refusal,
      balanceBefore: 2500,
      startedAt,
    });
    const open = applyReadAfterAnswer(ledger(answered), 'r', read(BASELINE), startedAt + 5, UNREAD)!;
    const other = unknown('o', { rewardId: BOOKS });
    const both = { ...open, awaitingCheck: [other] };
    const theirs = T0 + CHECK_AFTER_MS[0];
    const atTheirs = applyRead(both, { ...read(BASELINE), requestedAt: theirs, balance: unmoved }, theirs, theirs);
    expect(atTheirs.current).toMatchObject({ state: 'unknown', balanceUnread: true, checks: firstCheck(answered) });
    expect(atTheirs.awaitingCheck[0]!.checks).toMatchObject({ done: 1 });
    // Its own due check, with a balance read taken for it, rules.
    const own = startedAt + CHECK_AFTER_MS[0];
    expect(
      applyRead(atTheirs, { ...read(BASELINE), requestedAt: own, balance: unmoved }, own, own).current,
    ).toMatchObject({ state: 'failed', error: { nothingCharged: true } });
  });

  it('the answered entry chooses first: an older open entry of the reward never takes the redemption its request made', () => {
    const older = unknown('old', { startedAt: T0 - 10 });
    const answered = entry('new', { state: 'pending', answer: 'success', knownRedemptionIds: [did(1), did(2)] });
    const settled = applyReadAfterAnswer(
      ledger(answered, [older]),
      'new',
      read([...BASELINE, redemption(5)]),
      T0 + 5,
      NONE,
    )!;
    expect(settled.current).toMatchObject({ requestId: 'new', state: 'done', redemption: { id: '5' } });
    expect(settled.awaitingCheck).toEqual([older]);
  });

  it('only the read that first shows a Confirm names its repeats; a later redemption of the reward is one more in the history', () => {
    const answered = entry('s', { state: 'pending', answer: 'success' });
    const done = applyReadAfterAnswer(
      ledger(answered),
      's',
      read([...BASELINE, redemption(5), redemption(6)]),
      T0 + 5,
      NONE,
    )!;
    expect(done.current).toMatchObject({
      state: 'done',
      redemption: { id: '5' },
      duplicates: [redemptionKey(redemption(6))],
    });
    const alone = applyReadAfterAnswer(ledger(answered), 's', read([...BASELINE, redemption(5)]), T0 + 5, NONE)!;
    const later = applyRead(alone, read([...BASELINE, redemption(5), redemption(6)]), null, T0 + 60_000);
    expect(later).toEqual(alone);
    expect(later.current).not.toHaveProperty('duplicates');
  });

  it('an answer for another Confirm than the card shows changes nothing', () => {
    const shown = ledger(entry('a', { state: 'pending', answer: 'success' }));
    expect(applyReadAfterAnswer(shown, 'b', read(BASELINE), T0, NONE)).toBeNull();
  });

  it('without a check time it can only find; at each due check it counts one, and after the last it concludes', () => {
    const lost = unknown('e');
    expect(applyRead(ledger(lost), read(BASELINE), null, T0).current).toBe(lost);
    let now = ledger(lost);
    for (let i = 0; i < CHECK_AFTER_MS.length - 1; i++) {
      const at = T0 + CHECK_AFTER_MS[i]!;
      now = applyRead(now, read(BASELINE), at, at);
      expect(now.current).toMatchObject({
        state: 'unknown',
        checks: { done: i + 1, nextAt: T0 + CHECK_AFTER_MS[i + 1]!, lastAt: at },
      });
    }
    const last = T0 + CHECK_AFTER_MS[3];
    now = applyRead(now, read(BASELINE), last, last + 1);
    expect(now.current).toMatchObject({
      state: 'not_found',
      checks: { done: 4, nextAt: null, lastAt: last },
      finishedAt: last + 1,
    });
  });

  it('a check counts only for entries due by then (an alarm a few seconds early still counts)', () => {
    const lost = unknown('e');
    const due = lost.checks.nextAt!;
    expect(applyRead(ledger(lost), read(BASELINE), due - 5_000, due).current).toMatchObject({ checks: { done: 1 } });
    expect(applyRead(ledger(lost), read(BASELINE), due - 5_001, due).current).toBe(lost);
    const concluded = { ...lost, checks: { done: 4, nextAt: null, lastAt: T0 } };
    expect(applyRead(ledger(concluded), read(BASELINE), T0 + 99_999_999, T0).current).toBe(concluded);
  });

  it('an entry without checks yet counts from its first', () => {
    const lost = entry('e');
    expect(applyRead(ledger(lost), read(BASELINE), T0 + CHECK_AFTER_MS[0], T0).current).toMatchObject({
      checks: { done: 1, nextAt: T0 + CHECK_AFTER_MS[1] },
    });
  });

  it('while a redeem of the same reward is out, its entries wait: found nothing, their check put off', () => {
    const inFlight = entry('p', { state: 'pending', startedAt: T0 + 1000 });
    const waiting = unknown('w');
    const other = unknown('o', { rewardId: BOOKS });
    const history = [...BASELINE, redemption(5), redemption(6, BOOKS)];
    const at = T0 + CHECK_AFTER_MS[0];
    const settled = applyRead(ledger(inFlight, [waiting, other]), read(history), at, at);
    expect(settled.current).toBe(inFlight);
    expect(settled.awaitingCheck).toEqual([
      { ...waiting, checks: { ...waiting.checks, nextAt: at + CHECK_AFTER_MS[0] } },
    ]);
    expect(settled.recentlySettled).toEqual([
      expect.objectContaining({ requestId: 'o', state: 'done', redemption: redemption(6, BOOKS) }),
    ]);
    // Without a check time nothing is put off.
    expect(applyRead(ledger(inFlight, [waiting]), read(history), null, at).awaitingCheck[0]).toBe(waiting);
    // A later check time stays.
    const later = { ...waiting, checks: { ...waiting.checks, nextAt: at + 10 * CHECK_AFTER_MS[0] } };
    expect(applyRead(ledger(inFlight, [later]), read(history), at, at).awaitingCheck[0]!.checks!.nextAt).toBe(
      at + 10 * CHECK_AFTER_MS[0],
    );
    const unchecked = entry('u');
    expect(applyRead(ledger(inFlight, [unchecked]), read(history), at, at).awaitingCheck[0]!.checks).toEqual({
      ...firstCheck(unchecked),
      nextAt: at + CHECK_AFTER_MS[0],
    });
  });

  it('settled entries leave the open list for the recent ones, which keep the last few', () => {
    const old = Array.from({ length: SETTLED_KEPT }, (_, i) =>
      entry(`s${i}`, { state: 'done', redemption: redemption(100 + i) }),
    );
    const lost = unknown('e');
    const settled = applyRead(ledger(null, [lost], old), read([...BASELINE, redemption(5)]), null, T0);
    expect(settled.awaitingCheck).toEqual([]);
    expect(settled.recentlySettled).toHaveLength(SETTLED_KEPT);
    expect(settled.recentlySettled.at(-1)).toMatchObject({ requestId: 'e', state: 'done' });
    expect(settled.recentlySettled[0]!.requestId).toBe('s1');
    // Redemptions the recent ones and the ledger claimed are never claimed again.
    const claimedByLatest = entry('l', { state: 'done', redemption: redemption(5) });
    expect(
      applyRead(ledger(claimedByLatest, [lost]), read([...BASELINE, redemption(5)]), null, T0).awaitingCheck,
    ).toEqual([lost]);
    expect(
      applyRead(ledger(null, [lost], [claimedByLatest]), read([...BASELINE, redemption(5)]), null, T0).awaitingCheck,
    ).toEqual([lost]);
  });
});

describe('scheduling and the rest', () => {
  it('an unreadable history at a check puts the due entries off, marked unread, not the others, nor settled ones', () => {
    const at = T0 + CHECK_AFTER_MS[0];
    const due = unknown('due');
    const later = unknown('later', { checks: { done: 1, nextAt: T0 + CHECK_AFTER_MS[1], lastAt: at } });
    const noChecks = entry('none');
    const put = postponeChecks(ledger(due, [later, noChecks]), at, at + 7);
    expect(put.current!.checks).toEqual({ ...due.checks, nextAt: at + 7 + READ_RETRY_MS, unreadAt: at });
    expect(put.awaitingCheck).toEqual([later, noChecks]);
    expect(postponeChecks(ledger(due), at, at - 100).current!.checks!.nextAt).toBe(at + READ_RETRY_MS);
    // A panel that asked to wait longer (its Retry-After) is checked once that wait is over, not before.
    expect(postponeChecks(ledger(due), at, at, 600_000).current!.checks!.nextAt).toBe(at + 600_000);
    expect(postponeChecks(ledger(due), at, at, 1_000).current!.checks!.nextAt).toBe(at + READ_RETRY_MS);
    expect(postponeChecks(ledger(due), due.checks.nextAt! - 5_001, at).current).toBe(due);
    expect(postponeChecks(ledger(due), due.checks.nextAt! - 5_000, at).current).not.toBe(due);
    const done = entry('d', { state: 'done', checks: due.checks });
    expect(postponeChecks(ledger(done), at, at).current).toBe(done);
    const concluded = { ...due, checks: { ...due.checks, nextAt: null } };
    expect(postponeChecks(ledger(concluded), at, at).current).toBe(concluded);
    expect(postponeChecks(ledger(null), at, at).current).toBeNull();
  });

  it('every open entry and a pending one has a check time', () => {
    const pending = entry('p', { state: 'pending' });
    const lost = unknown('e', { checks: { done: 1, nextAt: T0 + 5, lastAt: null } });
    expect(checkTimes(ledger(pending, [lost]))).toEqual([T0 + 5, T0 + CHECK_AFTER_MS[0]]);
    expect(checkTimes(ledger(entry('x'), []))).toEqual([T0 + CHECK_AFTER_MS[0]]);
    expect(checkTimes(ledger(entry('d', { state: 'done' })))).toEqual([]);
    expect(openConfirms(ledger(entry('d', { state: 'done' }), [lost]))).toEqual([lost]);
    expect(openConfirms(ledger(pending))).toEqual([]);
  });

  it('a pending entry no redeem has in flight is a lost answer; one in flight stays pending', () => {
    const pending = entry('p', { state: 'pending' });
    const error = { kind: 'network' as const, message: 'stopped' };
    const lost = interrupted(ledger(pending), new Set(), error, T0 + 7);
    expect(lost.current).toEqual({
      ...pending,
      state: 'unknown',
      error,
      balanceUnread: true,
      answeredAt: T0 + 7,
      checks: firstCheck(pending),
    });
    expect(interrupted(ledger(pending), new Set(['p']), error, T0).current).toBe(pending);
    expect(interrupted(ledger(pending), new Set(), undefined, T0).current).not.toHaveProperty('error');
    const done = ledger(entry('d', { state: 'done' }));
    expect(interrupted(done, new Set(), error, T0)).toBe(done);
    // Its answer had come (the worker stopped during the read after it): that answer's words stay.
    const refusal = { kind: 'rejected' as const, message: 'Out of stock', status: 422 };
    const answered = entry('a', { state: 'pending', answer: 'refused', error: refusal, answeredAt: T0 + 3 });
    expect(interrupted(ledger(answered), new Set(), error, T0 + 9).current).toEqual({
      ...answered,
      state: 'unknown',
      balanceUnread: true,
      checks: firstCheck(answered),
    });
  });

  it('a refusal a stopped worker had written keeps its balance unread: no read at restart rules it, only its own check', () => {
    const refusal = { kind: 'rejected' as const, message: 'Insufficient points', status: 402 };
    const answered = entry('a', {
      state: 'pending',
      answer: 'refused',
      error: refusal,
      answeredAt: T0 + 3,
      balanceBefore: 2500,
    });
    const restarted = interrupted(ledger(answered), new Set(), refusal, T0 + 9);
    expect(restarted.current).toMatchObject({ state: 'unknown', balanceUnread: true });
    // The first look at the history after the restart, asked for after the answer: nothing ruled.
    expect(applyRead(restarted, read(BASELINE), null, T0 + 20).current).toMatchObject({ state: 'unknown' });
    const at = T0 + CHECK_AFTER_MS[0];
    expect(applyRead(restarted, { ...read(BASELINE), balance: unmoved }, at, at).current).toMatchObject({
      state: 'failed',
      error: { nothingCharged: true },
    });
  });

  it('showing another entry keeps the one it replaces: unknown among the open, settled among the recent; never a pending one', () => {
    const next = entry('n', { state: 'pending' });
    const lost = unknown('e');
    expect(replaceCurrent(ledger(lost), next)).toEqual({ current: next, awaitingCheck: [lost], recentlySettled: [] });
    const done = entry('d', { state: 'done' });
    expect(replaceCurrent(ledger(done), null)).toEqual({ current: null, awaitingCheck: [], recentlySettled: [done] });
    expect(replaceCurrent(ledger(null), next)).toEqual({ current: next, awaitingCheck: [], recentlySettled: [] });
    expect(replaceCurrent(ledger(next), null)).toBeNull();
    const full = Array.from({ length: SETTLED_KEPT }, (_, i) => entry(`s${i}`, { state: 'done' }));
    expect(replaceCurrent(ledger(done, [], full), null)!.recentlySettled).toEqual([...full.slice(1), done]);
  });
});

describe('claims', () => {
  it('a settled Confirm’s claim stands as long as an open Confirm could take its redemption, not only for the last 20', () => {
    const claimant = { ...entry('a', { state: 'done' }), knownRedemptionIds: undefined, redemption: redemption(2) };
    const others = Array.from({ length: SETTLED_KEPT - 1 }, (_, i) => ({
      ...entry(`o${i}`, { rewardId: BOOKS, state: 'done' }),
      redemption: redemption(100 + i, BOOKS),
    }));
    // Coffee's Confirm is still open, its baseline without redemption 2 (the claimant's); a Books one settles.
    const open = unknown('x', { knownRedemptionIds: [did(1)] });
    const books = unknown('y', { rewardId: BOOKS, knownRedemptionIds: [did(1)] });
    const history = [redemption(1), redemption(2), redemption(300, BOOKS)];
    let confirms: Confirms = { current: null, awaitingCheck: [open, books], recentlySettled: [claimant, ...others] };
    confirms = applyRead(confirms, read(history), null, T0 + 5);
    expect(confirms.recentlySettled).toHaveLength(SETTLED_KEPT + 1);
    confirms = applyRead(confirms, read(history), null, T0 + 6);
    // Redemption 2 is the claimant's: the open Confirm never takes it for its own.
    expect(confirms.awaitingCheck.map((e) => e.requestId)).toEqual(['x']);
    // Once no open Confirm could take it, the claimant goes like any older settled one.
    const later = applyRead(confirms, read([...history, redemption(9)]), null, T0 + 7);
    expect(later.awaitingCheck).toEqual([]);
    expect(later.recentlySettled.map((e) => e.requestId)).not.toContain('a');
  });
});

describe('records of a Confirm recorded more than once (recordsShown)', () => {
  const record = (redemptions: Redemption[]) => ({
    requestId: 'r',
    rewardName: 'Coffee',
    points: 500,
    redemptions: redemptions.map(redemptionKey),
  });
  const copies = [
    redemption(5),
    redemption(6, COFFEE, '2020-01-01T00:00:01'),
    redemption(7, COFFEE, '2020-01-01T00:00:02'),
  ];

  it('stays as it is while the history shows every copy', () => {
    expect(recordsShown([record(copies)], [...BASELINE, ...copies])).toBeNull();
    // Also beside another record that changes: each record is judged on its own copies.
    const other = { ...record([redemption(8, BOOKS), redemption(9, BOOKS)]), requestId: 'o' };
    expect(recordsShown([record(copies), other], [...BASELINE, ...copies])).toEqual([record(copies)]);
  });

  it('keeps the copies still shown, and goes once fewer than two are left', () => {
    expect(recordsShown([record(copies)], [...BASELINE, copies[0]!, copies[2]!])).toEqual([
      record([copies[0]!, copies[2]!]),
    ]);
    expect(recordsShown([record(copies)], [...BASELINE, copies[0]!])).toEqual([]);
    expect(recordsShown([record(copies)], [])).toEqual([]);
  });

  it('an id the panel gave again to a later redemption is not one of the copies', () => {
    const reused = redemption(6, COFFEE, '2020-03-01T09:00:00');
    expect(recordsShown([record(copies.slice(0, 2))], [...BASELINE, copies[0]!, reused])).toEqual([]);
  });

  it('a record an earlier version kept by ids is read as the redemptions holding them, where each id names one', () => {
    const legacy = { requestId: 'r', rewardName: 'Coffee', points: 500, redemptionIds: [did(5), did(6), did(9)] };
    expect(recordsShown([legacy], [...BASELINE, ...copies])).toEqual([record(copies.slice(0, 2))]);
    // An id two redemptions hold names neither.
    const twice = [copies[0]!, redemption(6, BOOKS), copies[1]!];
    expect(recordsShown([legacy], twice)).toEqual([]);
  });
});

describe('the answer, the balance a check reads, and the balance a settling Confirm keeps', () => {
  const refusal = { kind: 'rejected' as const, message: 'Insufficient points', status: 402 };
  const at = T0 + CHECK_AFTER_MS[0];
  const unreadRefusal = (id: string, extra: Partial<LedgerEntry> = {}) =>
    unknown(id, { answer: 'refused', error: refusal, balanceUnread: true, ...extra });

  it('the answer goes to the Confirm it answers, and to no other the card shows', () => {
    const pending = entry('p', { state: 'pending' });
    const answered = { ...pending, answer: 'refused' as const, error: refusal, answeredAt: T0 + 9 };
    const lost = unknown('e');
    expect(applyAnswer(ledger(pending, [lost]), answered)).toEqual(ledger(answered, [lost]));
    expect(applyAnswer(ledger(entry('other', { state: 'pending' }), [lost]), answered)).toBeNull();
    expect(applyAnswer(ledger(null, [lost]), answered)).toBeNull();
    // Nor the read after it: with no Confirm on the card (closed meanwhile), nothing is written.
    expect(applyReadAfterAnswer(ledger(null, [lost]), 'p', read(BASELINE), T0, UNREAD)).toBeNull();
    // A stopped worker with no Confirm on the card leaves nothing to turn unknown.
    expect(interrupted(ledger(null, [lost]), new Set(), refusal, T0)).toEqual(ledger(null, [lost]));
  });

  it('a read asked for before the answer came rules nothing out, not even at a due check with the balance unmoved', () => {
    const answered = unknown('r', { answer: 'refused', error: refusal, answeredAt: T0 + 100, balanceBefore: 2500 });
    const early = { history: BASELINE, requestedAt: T0 + 50, balance: unmoved };
    expect(applyRead(ledger(answered), early, at, at).current).toBe(answered);
    // Asked for after the answer, the same read rules it out.
    expect(applyRead(ledger(answered), { ...early, requestedAt: T0 + 150 }, at, at).current).toMatchObject({
      state: 'failed',
    });
  });

  it('a scheduled check reads the balance only for an open refusal whose balance is unread and that is due by then', () => {
    const due = unreadRefusal('r');
    expect(balanceWanted(ledger(null, [due]), at)).toBe(true);
    expect(balanceWanted(ledger(due), at)).toBe(true);
    // An alarm a few seconds early still counts as this Confirm's check; one far ahead of it does not.
    expect(balanceWanted(ledger(null, [due]), at - 3_000)).toBe(true);
    expect(balanceWanted(ledger(null, [due]), at - 60_000)).toBe(false);
    // Any one that wants it is enough, whatever the others are.
    expect(balanceWanted(ledger(unknown('u'), [due]), at)).toBe(true);
    // A refusal whose balance was read, an unclear answer, a concluded one, one settled: nothing to read for.
    const { balanceUnread: _unread, ...read } = due;
    expect(balanceWanted(ledger(null, [read]), at)).toBe(false);
    expect(balanceWanted(ledger(null, [unreadRefusal('x', { answer: 'unclear' })]), at)).toBe(false);
    const concluded = unreadRefusal('c', { checks: { done: 3, nextAt: null, lastAt: at } });
    expect(balanceWanted(ledger(null, [concluded]), at)).toBe(false);
    expect(balanceWanted(ledger(unreadRefusal('f', { state: 'failed' })), at)).toBe(false);
    expect(balanceWanted(ledger(null), at)).toBe(false);
  });

  it('a Confirm settles here only when it was open before and is settled after, the same Confirm', () => {
    const pending = entry('a', { state: 'pending' });
    const open = unknown('a');
    const done = entry('a', { state: 'done' });
    expect(settlesHere(pending, done)).toBe(true);
    expect(settlesHere(open, entry('a', { state: 'not_found' }))).toBe(true);
    expect(settlesHere(open, open)).toBe(false);
    expect(settlesHere(done, done)).toBe(false);
    expect(settlesHere(open, entry('b', { state: 'done' }))).toBe(false);
    expect(settlesHere(null, done)).toBe(false);
    expect(settlesHere(open, null)).toBe(false);
  });

  it('the balance read as Confirms settle goes with each that settles, and with no other; an unread one goes nowhere', () => {
    const current = unknown('c');
    const waiting = unknown('w');
    const still = unknown('s');
    const earlier = entry('old', { state: 'done' });
    const before = ledger(current, [waiting, still], [earlier]);
    const after = ledger(entry('c', { state: 'done' }), [still], [earlier, entry('w', { state: 'not_found' })]);
    expect(withBalance(before, after, undefined)).toBe(after);
    expect(withBalance(before, after, 1_800)).toEqual({
      current: { ...after.current, balanceAfter: 1_800 },
      awaitingCheck: [still],
      recentlySettled: [earlier, { ...after.recentlySettled[1], balanceAfter: 1_800 }],
    });
    // A panel that shows no balance: read, and said to be none.
    expect(withBalance(before, after, null).current).toEqual({ ...after.current, balanceAfter: null });
    // The card closed as they settled: nothing current to weigh.
    expect(withBalance(before, { ...after, current: null }, 1_800).current).toBeNull();
  });
});
