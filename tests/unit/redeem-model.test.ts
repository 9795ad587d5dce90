// @vitest-environment node
/**
 * The popup's half of one Confirm (components/popup/redeem/redeem-model.ts), as the pure functions
 * it is: what the dialog asks and for whom, what it sends, and what it becomes on a refusal.
 */
import { describe, expect, it } from 'vitest';
import {
  afterRefusal,
  confirmingFor,
  orderOf,
  startedBy,
  stillShown,
  unsettledFor,
} from '../../components/popup/redeem/redeem-model';
import { appError } from '../../utils/errors';
import type { LedgerEntry } from '../../utils/storage-items';
import { giftCard } from './popup-fixtures';
import { rid } from './test-ids';

const amazon = giftCard(1, 'Amazon $5', 500);
const books = giftCard(2, 'Books', 1000);
const entry = (requestId: string, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  requestId,
  rewardId: rid(1),
  rewardName: 'Amazon $5',
  points: 500,
  startedAt: 1000,
  state: 'unknown',
  ...extra,
});

describe('the Confirm dialog', () => {
  it('opens for a reward at the cost its catalogue gives, in the session shown, naming one still being checked', () => {
    const older = entry('old', { startedAt: 10 });
    const newer = entry('new', { startedAt: 20 });
    const settled = entry('done', { state: 'done', startedAt: 30 });
    const other = entry('other', { rewardId: rid(2), startedAt: 40 });
    expect(confirmingFor(amazon, 's', [older, null, newer, settled, other, undefined])).toEqual({
      reward: amazon,
      cost: 500,
      session: 's',
      unsettled: newer,
    });
    expect(confirmingFor(books, 's', [older])).toEqual({ reward: books, cost: 1000, session: 's', unsettled: null });
  });

  it('never opens without a session, nor for a cost nobody gave or one that cannot be right', () => {
    expect(confirmingFor(amazon, undefined, [])).toBeNull();
    expect(confirmingFor({ ...amazon, reward_point_cost: null }, 's', [])).toBeNull();
    expect(confirmingFor({ ...amazon, costRefused: true }, 's', [])).toBeNull();
    expect(confirmingFor({ ...amazon, reward_point_cost: 0 }, 's', [])?.cost).toBe(0);
  });

  it('sends the reward at the cost stated, the session shown, and "again" only knowingly', () => {
    const dialog = confirmingFor(amazon, 's', [])!;
    expect(orderOf(dialog)).toEqual({ session: 's', rewardId: '1', points: 500 });
    expect(orderOf({ ...dialog, unsettled: entry('old') })).toEqual({
      session: 's',
      rewardId: '1',
      points: 500,
      confirmUnsettled: true,
    });
  });

  it('stays on screen only for the session it was shown in', () => {
    const dialog = confirmingFor(amazon, 's', [])!;
    expect(stillShown(dialog, 's')).toBe(true);
    expect(stillShown(dialog, 't')).toBe(false);
    expect(stillShown(dialog, undefined)).toBe(false);
  });
});

describe('when the background refuses a Confirm', () => {
  const dialog = confirmingFor(amazon, 's', [])!;

  it('asks again at the cost the panel gives now, saying so', () => {
    const changed = appError('price_changed', 'Nothing was sent: Amazon $5 now costs 800 points.', { points: 800 });
    expect(afterRefusal(dialog, changed, [])).toEqual({ confirming: { ...dialog, cost: 800 }, error: changed });
    // Without the cost now, nothing is asked at a guessed one: the refusal is said.
    const bare = appError('price_changed', 'Nothing was sent.');
    expect(afterRefusal(dialog, bare, [])).toEqual({ error: bare });
  });

  it('asks again naming the same reward’s one still being checked, by its reward alone when never seen here', () => {
    const unsettled = appError('unsettled', 'Still being checked.');
    const seen = entry('seen', { startedAt: 50 });
    expect(afterRefusal(dialog, unsettled, [seen])).toEqual({
      confirming: { ...dialog, unsettled: seen },
      error: null,
    });
    expect(afterRefusal(dialog, unsettled, [null])).toEqual({
      confirming: {
        ...dialog,
        unsettled: {
          requestId: '',
          rewardId: rid(1),
          rewardName: 'Amazon $5',
          points: 500,
          startedAt: 0,
          state: 'unknown',
        },
      },
      error: null,
    });
  });

  it('says any other refusal in the dialog', () => {
    const busy = appError('busy', 'A redemption is already in progress.');
    expect(afterRefusal(dialog, busy, [])).toEqual({ error: busy });
  });
});

describe('the ledger entry this Confirm started', () => {
  it('is of its reward, not the one the ledger held when it was sent, and started since (5 s of slack)', () => {
    const sent = { before: 'was', at: 100_000 };
    expect(startedBy(entry('new', { startedAt: 100_000 }), amazon, sent)).toBe(true);
    expect(startedBy(entry('new', { startedAt: 95_000 }), amazon, sent)).toBe(true);
    expect(startedBy(entry('new', { startedAt: 94_999 }), amazon, sent)).toBe(false);
    expect(startedBy(entry('was', { startedAt: 100_000 }), amazon, sent)).toBe(false);
    expect(startedBy(entry('new', { startedAt: 100_000, rewardId: rid(2) }), amazon, sent)).toBe(false);
    expect(startedBy(null, amazon, sent)).toBe(false);
    expect(startedBy(undefined, amazon, sent)).toBe(false);
  });

  it('the newest of a reward still being checked is the one named', () => {
    expect(
      unsettledFor([entry('a', { startedAt: 1 }), entry('b', { startedAt: 3 }), entry('c', { startedAt: 2 })], amazon)
        ?.requestId,
    ).toBe('b');
    expect(unsettledFor([entry('p', { state: 'pending' })], amazon)).toBeNull();
  });
});
