// @vitest-environment node
import { expect, it } from 'vitest';
import { clickTarget } from '../../entrypoints/background/notify/notifications';
import { idPart, questionAdded, redemptionChanges } from '../../entrypoints/background/notify/notify-events';
import type { Redemption } from '../../utils/types';

/** The fixture's whole key: id, reward and created_at. */
const KEY = '7 101 2026-01-02T10:00:00';

/** Chrome refuses a notification id longer than this, and the event would be lost unseen. */
const CHROME_ID_LIMIT = 500;

const failed = (reason: string) =>
  ({
    id: '7',
    reward: { id: '101', name: 'Coffee' },
    created_at: '2026-01-02T10:00:00',
    failed: true,
    failed_reason: reason,
    refunded: false,
    processed: false,
    approved: true,
    partner_status: null,
  }) as unknown as Redemption;

it('a failed redemption with a provider reason of any length gets an id Chrome accepts, one per reason', () => {
  const long = 'Gift card provider declined: '.repeat(40);
  const { events } = redemptionChanges({ [KEY]: 'approved' }, [failed(long)]);
  expect(events).toHaveLength(1);
  expect(events[0]!.id.length).toBeLessThanOrEqual(CHROME_ID_LIMIT);
  expect(redemptionChanges({ [KEY]: 'approved' }, [failed(long)]).events[0]!.id).toBe(events[0]!.id);
  expect(redemptionChanges({ [KEY]: 'approved' }, [failed(`${long}!`)]).events[0]!.id).not.toBe(events[0]!.id);
  // The state recorded for the next comparison is the same bounded key: no change is seen twice.
  const { states } = redemptionChanges({ [KEY]: 'approved' }, [failed(long)]);
  expect(redemptionChanges(states, [failed(long)]).events).toEqual([]);
  // A short reason stays readable in the id.
  expect(redemptionChanges({ [KEY]: 'approved' }, [failed('Out of stock')]).events[0]!.id).toBe(
    `redemption:${KEY}:failed:Out of stock`,
  );
});

it('a question with a very long name gets an id Chrome accepts; its click opens the answer flow at the first open question', () => {
  const event = questionAdded({ name: 'Q'.repeat(600), text: 'Which?' });
  expect(event.id.length).toBeLessThanOrEqual(CHROME_ID_LIMIT);
  expect(clickTarget(event.id)).toBe('#answer');
  expect(clickTarget(questionAdded({ name: 'PETS', text: 'Pets?' }).id)).toBe('#answer-PETS');
  expect(idPart('x'.repeat(64))).toBe('x'.repeat(64));
});

it('a redemption is known by its whole key: a new one under a deleted one’s id is no change; unreadable flags tell nothing', () => {
  const before = { [KEY]: 'approved' };
  // The panel deleted 7 and gave its id to the next redemption, of another reward.
  const next = { ...failed('Out of stock'), reward: { id: '202', name: 'Tea' }, created_at: '2026-02-01T09:00:00' };
  expect(redemptionChanges(before, [next as Redemption]).events).toEqual([]);
  // Flags the panel sent that cannot be read: no "changed", and the last state read is kept.
  const unreadable = { ...failed('Out of stock'), stateUnreadable: true } as Redemption;
  const read = redemptionChanges(before, [unreadable]);
  expect(read.events).toEqual([]);
  expect(read.states).toEqual(before);
  expect(redemptionChanges(read.states, [failed('Out of stock')]).events.map((e) => e.id)).toEqual([
    `redemption:${KEY}:failed:Out of stock`,
  ]);
});
