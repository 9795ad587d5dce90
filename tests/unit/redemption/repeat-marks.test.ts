// @vitest-environment node
/**
 * The records the history marks repeats by, as a change to the Confirms leaves them
 * (repeats.ts, recordsClaimed): a redemption a Confirm took as its own is no other Confirm's copy;
 * and what such a change has to tell (toTell).
 * How the whole flow gets there against the sandbox is in ledger-truth.test.ts (case 4b).
 */
import { describe, expect, it } from 'vitest';
import type { Confirms } from '../../../entrypoints/background/redemption/machine';
import { recordsClaimed, toTell } from '../../../entrypoints/background/redemption/repeats';
import { redemptionKey } from '../../../utils/ids';
import type { DuplicateRecord, LedgerEntry } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import { at, did, rid } from '../test-ids';

const COFFEE = rid(101);
/** Only what a whole redemption is told apart by: its id, reward and instant. */
const made = (id: number, second = '08:00:00') =>
  ({ id: did(id), reward: { id: COFFEE }, created_at: at(`2026-11-29T${second}`) }) as Redemption;
const key = (id: number, second?: string) => redemptionKey(made(id, second));

const done = (requestId: string, redemption: Redemption) =>
  ({ requestId, rewardId: COFFEE, state: 'done', redemption }) as LedgerEntry;
const record = (requestId: string, ...redemptions: ReturnType<typeof key>[]): DuplicateRecord => ({
  requestId,
  rewardName: 'Coffee',
  points: 500,
  redemptions,
});
const confirms = (current: LedgerEntry | null, recentlySettled: LedgerEntry[] = []): Confirms => ({
  current,
  awaitingCheck: [],
  recentlySettled,
});

describe('a Confirm’s own redemption ends another’s mark (recordsClaimed)', () => {
  const first = done('first', made(10));
  const marked = record('first', key(10), key(11));

  it('changes nothing when nothing is added and no claim meets a record', () => {
    expect(recordsClaimed([marked], [], confirms(first))).toBeNull();
    // Another second is another redemption: the mark stays.
    expect(recordsClaimed([marked], [], confirms(done('next', made(11, '08:00:01')), [first]))).toBeNull();
  });

  it('adds the records a change names', () => {
    const named = record('next', key(20), key(21));
    expect(recordsClaimed([marked], [named], confirms(first))).toEqual([marked, named]);
  });

  it('takes a copy another Confirm claimed out of the record, which goes once fewer than two are left', () => {
    const next = done('next', made(11));
    expect(recordsClaimed([marked], [], confirms(next, [first]))).toEqual([]);
    // Claimed by a Confirm the card no longer shows, the same.
    expect(recordsClaimed([marked], [], confirms(null, [first, next]))).toEqual([]);
    const three = record('first', key(10), key(11), key(12));
    expect(recordsClaimed([three], [], confirms(next, [first]))).toEqual([record('first', key(10), key(12))]);
  });

  it('a record’s own Confirm claiming its first redemption is no reason to change it', () => {
    expect(recordsClaimed([marked], [], confirms(null, [first]))).toBeNull();
  });

  it('a record an earlier version kept by ids is left for the next history read', () => {
    const legacy: DuplicateRecord = { requestId: 'first', rewardName: 'Coffee', points: 500, redemptionIds: [did(11)] };
    expect(recordsClaimed([legacy], [], confirms(done('next', made(11))))).toBeNull();
  });
});

describe('what a change to the Confirms tells (toTell)', () => {
  const coffee = (requestId: string, redemption: Redemption) =>
    ({ ...done(requestId, redemption), rewardName: 'Coffee', points: 500 }) as LedgerEntry;

  it('a change that settles nothing and names no repeats tells nothing', () => {
    const first = coffee('first', made(10));
    expect(toTell(confirms(first), confirms(first))).toEqual({ events: [], records: [] });
  });

  it('a Confirm first seen already named with repeats is told once, with the record that marks them', () => {
    const next = { ...coffee('next', made(20)), duplicates: [key(21)] };
    const { events, records } = toTell(confirms(null), confirms(next));
    expect(events).toEqual([{ id: 'duplicate:next', kind: 'duplicate', rewardName: 'Coffee', copies: 2, points: 500 }]);
    expect(records).toEqual([record('next', key(20), key(21))]);
    // Named so before the change too: nothing new to tell.
    expect(toTell(confirms(next), confirms(next))).toEqual({ events: [], records: [] });
  });
});
