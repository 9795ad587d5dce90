/**
 * What the balance says of a Confirm (redemption/balance.ts), rule by rule: a move needs two reads
 * that each gave a balance; a refusal whose move was recorded is not ruled again; a balance unread
 * before sending is never "unmoved" beside one read after, and one not read beside the catalogue is
 * no balance at all.
 */
import { describe, expect, it } from 'vitest';
import { movedBalance, refusalBalance } from '../../../entrypoints/background/redemption/balance';
import { pointsSeen } from '../../../entrypoints/background/redemption/fresh-reads';
import { UNREAD_BALANCE } from '../../../utils/balance';
import type { LedgerEntry } from '../../../utils/storage-items';
import { rid } from '../test-ids';

const refused: LedgerEntry = {
  requestId: 'r',
  rewardId: rid(101),
  rewardName: 'Coffee',
  points: 500,
  startedAt: 1_800_000_000_000,
  state: 'unknown',
  answer: 'refused',
};

describe('movedBalance', () => {
  it('records a fall or a rise between two balances read', () => {
    expect(movedBalance(2500, 2000)).toEqual({ balanceMoved: -500 });
    expect(movedBalance(2500, 2600)).toEqual({ balanceMoved: 100 });
  });

  it('records nothing when the balance did not move', () => {
    expect(movedBalance(2500, 2500)).toEqual({});
  });

  it('is unread, never unmoved, when a read gave no balance: nothing shows it stayed', () => {
    for (const [before, after] of [
      [null, 2000],
      [2500, null],
      [undefined, 2000],
      // A panel that shows no balance: no evidence either, so a refusal waits for its due check.
      [null, null],
      [undefined, null],
    ] as const)
      expect(movedBalance(before, after), `${before} → ${after}`).toEqual({ balanceUnread: true });
  });

  it('a refusal on a panel that shows no balance is not "nothing charged" at once: the history may lag', () => {
    const entry = { ...refused, balanceBefore: null, ...movedBalance(null, null) };
    expect(refusalBalance(entry, undefined, false)).toBeNull();
    expect(refusalBalance(entry, { read: true, points: null }, false)).toBeNull();
    // At its own due check, well after any lag, the history alone decides.
    expect(refusalBalance(entry, { read: true, points: null }, true)).toBe('unmoved');
  });

  it('a refusal whose two reads were one balance and none is not "nothing charged" at once', () => {
    const entry = { ...refused, balanceBefore: 2500, ...movedBalance(2500, null) };
    expect(refusalBalance(entry, undefined, false)).toBeNull();
    // Its own due check cannot compare a balance with none either: the history decides.
    expect(refusalBalance(entry, { read: true, points: null }, true)).toBeNull();
  });
});

describe('a balance not read beside the catalogue', () => {
  it('is no evidence: its null is never "none", so two of them never back "nothing charged"', () => {
    expect(pointsSeen(UNREAD_BALANCE)).toBeUndefined();
    expect(pointsSeen({ points: null, source: 'unknown' })).toBeNull();
    // Before sending and after the answer both not read: open, and its due check cannot rule either.
    const before = pointsSeen(UNREAD_BALANCE);
    const entry = {
      ...refused,
      ...(before === undefined ? {} : { balanceBefore: before }),
      ...movedBalance(before, undefined),
    };
    expect(entry).toMatchObject({ balanceUnread: true });
    expect(entry).not.toHaveProperty('balanceBefore');
    expect(refusalBalance(entry, { read: false }, true)).toBeNull();
  });
});

describe('refusalBalance', () => {
  it('does not rule again on a refusal whose move was recorded', () => {
    expect(refusalBalance({ ...refused, balanceMoved: -500 }, { read: true, points: 2000 }, true)).toBeNull();
  });

  it('a balance unread before sending and read at the due check rules nothing: no move can be told', () => {
    const entry = { ...refused, balanceUnread: true as const, balanceBefore: null };
    expect(refusalBalance(entry, { read: true, points: 2000 }, true)).toBeNull();
    // Both none (a panel that shows no balance): the history alone decides, so the balance is "unmoved".
    expect(refusalBalance(entry, { read: true, points: null }, true)).toBe('unmoved');
  });
});
