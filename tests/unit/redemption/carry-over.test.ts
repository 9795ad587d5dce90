// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { carriesOver } from '../../../entrypoints/background/redemption/carry-over';
import type { Get } from '../../../entrypoints/background/store';
import { ledgerItem, unsettledItem, type LedgerEntry } from '../../../utils/storage-items';

const entry = (state: LedgerEntry['state'], known: number[] | undefined): LedgerEntry => ({
  requestId: crypto.randomUUID(),
  rewardId: 101,
  rewardName: 'Coffee',
  points: 500,
  startedAt: 1,
  state,
  ...(known ? { knownRedemptionIds: known } : {}),
});

/** The items as a switch's turn reads them. */
function turn(current: LedgerEntry | null, awaiting: LedgerEntry[] = []): Get {
  return <T>(item: { key: string }) =>
    (item.key === ledgerItem.key ? current : item.key === unsettledItem.key ? awaiting : undefined) as T;
}

describe('whether a new key takes over the Confirms still being settled', () => {
  const ids = new Set([1, 2, 3]);

  it('only when every open one has a baseline that the new key’s own history holds whole', () => {
    expect(carriesOver(turn(entry('unknown', [1, 2])), ids)).toBe(true);
    expect(carriesOver(turn(entry('pending', [1]), [entry('unknown', [2, 3])]), ids)).toBe(true);
    // One redemption the new key's history lacks: another person's history.
    expect(carriesOver(turn(entry('unknown', [1, 4])), ids)).toBe(false);
    expect(carriesOver(turn(entry('unknown', [1]), [entry('unknown', [9])]), ids)).toBe(false);
    // No baseline to judge by: no evidence.
    expect(carriesOver(turn(entry('unknown', [])), ids)).toBe(false);
    expect(carriesOver(turn(entry('unknown', undefined)), ids)).toBe(false);
  });

  it('never without the new key’s history, nor when nothing is open', () => {
    expect(carriesOver(turn(entry('unknown', [1])), null)).toBe(false);
    expect(carriesOver(turn(entry('done', [1])), ids)).toBe(false);
    expect(carriesOver(turn(null), ids)).toBe(false);
    // A settled current one is not counted, but one awaiting a check is.
    expect(carriesOver(turn(entry('failed', [9]), [entry('unknown', [1])]), ids)).toBe(true);
  });
});
