// @vitest-environment node
import { expect, it } from 'vitest';
import { clickTarget } from '../../entrypoints/background/notify/notifications';
import { idPart, questionAdded, redemptionChanges } from '../../entrypoints/background/notify/notify-events';
import type { Redemption } from '../../utils/types';

/** Chrome refuses a notification id longer than this, and the event would be lost unseen. */
const CHROME_ID_LIMIT = 500;

const failed = (reason: string) =>
  ({
    id: 7,
    reward: { id: 101, name: 'Coffee' },
    failed: true,
    failed_reason: reason,
    refunded: false,
    processed: false,
    approved: true,
    partner_status: null,
  }) as unknown as Redemption;

it('a failed redemption with a provider reason of any length gets an id Chrome accepts, one per reason', () => {
  const long = 'Gift card provider declined: '.repeat(40);
  const { events } = redemptionChanges({ 7: 'approved' }, [failed(long)]);
  expect(events).toHaveLength(1);
  expect(events[0]!.id.length).toBeLessThanOrEqual(CHROME_ID_LIMIT);
  expect(redemptionChanges({ 7: 'approved' }, [failed(long)]).events[0]!.id).toBe(events[0]!.id);
  expect(redemptionChanges({ 7: 'approved' }, [failed(`${long}!`)]).events[0]!.id).not.toBe(events[0]!.id);
  // The state recorded for the next comparison is the same bounded key: no change is seen twice.
  const { states } = redemptionChanges({ 7: 'approved' }, [failed(long)]);
  expect(redemptionChanges(states, [failed(long)]).events).toEqual([]);
  // A short reason stays readable in the id.
  expect(redemptionChanges({ 7: 'approved' }, [failed('Out of stock')]).events[0]!.id).toBe(
    'redemption:7:failed:Out of stock',
  );
});

it('a question with a very long name gets an id Chrome accepts; its click opens the answer flow at the first open question', () => {
  const event = questionAdded({ name: 'Q'.repeat(600), text: 'Which?' });
  expect(event.id.length).toBeLessThanOrEqual(CHROME_ID_LIMIT);
  expect(clickTarget(event.id)).toBe('#answer');
  expect(clickTarget(questionAdded({ name: 'PETS', text: 'Pets?' }).id)).toBe('#answer-PETS');
  expect(idPart('x'.repeat(64))).toBe('x'.repeat(64));
});
