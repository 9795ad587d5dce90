/**
 * One rule for "can this reward be redeemed now" (utils/reward-view.ts, redeemBlock): the outcome
 * card's Redeem again, the rows, the goal and the first frame ask it alike, so no place offers what
 * another holds back; and "no longer offered" is said only of a reward the catalogue lacks.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { accountOf, goalItem, unsettledItem } from '../../utils/storage-items';
import { background } from './fake-background';
import {
  CONNECTED,
  getByRole,
  giftCard,
  ledger,
  mount,
  queryAllByRole,
  seed,
  unmount,
  waitFor,
} from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

const amazon = giftCard(1, 'Amazon $5', 500);
const books = giftCard(2, 'Northwind Books $10', 1000);

describe('one rule for "redeemable now"', () => {
  it('the outcome card offers no Redeem again while the same reward’s row holds its Redeem back', async () => {
    // This Confirm was not found (the balance kept its points); an earlier one of the same reward is still being checked.
    const notFound = ledger('not_found', { requestId: 'late', balanceBefore: 2500, balanceAfter: 2500 });
    const earlier = ledger('unknown', {
      requestId: 'earlier',
      startedAt: Date.now() - 20 * 60_000,
      checks: { done: 2, nextAt: Date.now() + 60_000, lastAt: Date.now() - 60_000 },
    });
    await seed({ rewards: [amazon, books], balance: 2500, ledger: notFound });
    await unsettledItem.setValue([earlier]);
    const root = mount();
    const outcome = await waitFor(() => getByRole(root, 'region', 'Amazon $5 was not found in your history'));
    const row = (await waitFor(() => getByRole(root, 'button', 'Redeem Amazon $5'))) as HTMLButtonElement;
    expect(row.disabled).toBe(true);
    expect(queryAllByRole(outcome, 'button', /again/)).toHaveLength(0);
    // Another reward is not held back by it.
    expect((getByRole(root, 'button', 'Redeem Northwind Books $10') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a goal whose reward is listed with a quarantined cost says why, never "no longer offered"', async () => {
    const unpriced = { ...giftCard(3, 'Mystery Box', 200), reward_point_cost: null, costRefused: true as const };
    await seed({ rewards: [amazon, { ...unpriced, costReason: 'missing' as const }], balance: 2500 });
    await goalItem.setValue({ account: accountOf(CONNECTED), rewardId: rid(3), rewardName: 'Mystery Box', setAt: 1 });
    const root = mount();
    const goal = await waitFor(() => getByRole(root, 'region', /^Your goal\b/));
    await waitFor(() =>
      expect(goal.textContent).toContain('Cannot be redeemed here: the panel gave it no points cost'),
    );
    expect(goal.textContent).not.toContain('no longer offered');
    expect(queryAllByRole(goal, 'button', 'Redeem Mystery Box')).toHaveLength(0);
  });

  it('a goal the catalogue lacks is "no longer offered"', async () => {
    await seed({ rewards: [amazon], balance: 2500 });
    await goalItem.setValue({ account: accountOf(CONNECTED), rewardId: rid(9), rewardName: 'Gone Card', setAt: 1 });
    const root = mount();
    const goal = await waitFor(() => getByRole(root, 'region', /^Your goal\b/));
    await waitFor(() => expect(goal.textContent).toContain('Gone Card is no longer offered.'));
  });
});
