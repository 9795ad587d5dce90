// @vitest-environment node
/**
 * How a Confirm the history never showed is told (utils/points-taken.ts): "you can redeem it again"
 * only with evidence the points stayed, i.e. a balance read both before sending and at the last
 * check, or a panel that shows none. Every pair of the two reads is checked against that table.
 */
import { describe, expect, it } from 'vitest';
import { notFoundWords } from '../../utils/points-taken';

/** The two reads as the ledger keeps them: a number, null (the panel showed none) or undefined (unread). */
const READS = [500, null, undefined] as const;
const what = (p: number | null | undefined) => (typeof p === 'number' ? 'a balance' : p === null ? 'none' : 'unread');

/** The table: the points stayed only when both reads gave a balance, or the panel showed none. */
function expected(before: number | null | undefined, after: number | null | undefined) {
  if (typeof before === 'number' && typeof after === 'number') return 'not-made';
  if (before === null && typeof after !== 'number') return 'not-made';
  if (before === undefined && after === null) return 'not-made';
  return 'balance-unread';
}

describe('a Confirm the history never showed, refused or unanswered', () => {
  for (const before of READS)
    for (const after of READS)
      it(`before sending ${what(before)}, at the last check ${what(after)}: ${expected(before, after)}`, () => {
        expect(notFoundWords({ points: 200, answer: 'unclear', balanceBefore: before, balanceAfter: after })).toBe(
          expected(before, after),
        );
      });

  it('a balance lower by the cost or more is the points taken; the panel’s yes is said as that', () => {
    expect(notFoundWords({ points: 200, balanceBefore: 500, balanceAfter: 300 })).toBe('points-taken');
    expect(notFoundWords({ points: 200, balanceBefore: 500, balanceAfter: null, answer: 'success' })).toBe('said-yes');
  });
});
