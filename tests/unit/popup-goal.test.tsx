import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DAY_MS } from '../../utils/balance-trend';
import { accountOf, balanceHistoryItem, goalItem, type BalanceSample } from '../../utils/storage-items';
import { background } from './fake-background';
import { installI18n } from './i18n-setup';
import { CONNECTED, click, getByRole, giftCard, mount, queryAllByRole, seed, unmount, waitFor } from './popup-fixtures';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const amazon = giftCard(1, 'Amazon $5', 500);
const target = giftCard(2, 'Target $50', 5000);
const rewards = [amazon, target];
const ACCOUNT = accountOf(CONNECTED);
const goalOf = (rewardId: number, rewardName: string, account = ACCOUNT) => goalItem.setValue({ account, rewardId, rewardName, setAt: 1 });
const daysAgo = (days: number, points: number): BalanceSample => ({ at: Date.now() - days * DAY_MS, points });

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

const goalSection = (root: HTMLElement) => waitFor(() => getByRole(root, 'region', 'Your goal'));

describe('setting a goal', () => {
  it('every reward offers "Set as goal", its accessible name the visible text and the reward', async () => {
    await seed({ rewards, balance: 1000 });
    const root = mount();
    const set = await waitFor(() => getByRole(root, 'button', 'Set as goal: Target $50'));
    expect(set.textContent).toBe('Set as goal');
    expect(queryAllByRole(root, 'region', 'Your goal')).toHaveLength(0);
    await click(set);
    expect(background.calls).toContainEqual({ type: 'setGoal', data: { rewardId: 2 } });
  });
});

describe('the goal header', () => {
  it('while saving: the reward, its progress, the points to go; the row offers "Remove goal"', async () => {
    await seed({ rewards, balance: 1000 });
    await goalOf(2, 'Target $50');
    const root = mount();
    const goal = await goalSection(root);
    expect(goal.textContent).toContain('Target $50');
    expect(goal.textContent).toContain('4,000 points to go');
    expect(goal.querySelector('progress')?.getAttribute('aria-label')).toBe('1,000 of 5,000 points');
    expect(queryAllByRole(goal, 'button', 'Redeem Target $50')).toHaveLength(0);
    expect(goal.textContent).not.toContain('pace');
    // In the goal header and on the reward's row.
    expect(queryAllByRole(root, 'button', 'Remove goal: Target $50')).toHaveLength(2);
    await click(getByRole(goal, 'button', 'Remove goal: Target $50'));
    expect(background.calls).toContainEqual({ type: 'setGoal', data: { rewardId: null } });
  });

  it('estimates when it is reached from enough history, and shows the 30-day change', async () => {
    await seed({ rewards, balance: 3770 });
    await goalOf(2, 'Target $50');
    await balanceHistoryItem.setValue([daysAgo(28, 2130), daysAgo(21, 2540), daysAgo(14, 2950), daysAgo(7, 3360), daysAgo(0.5, 3770)]);
    const root = mount();
    const goal = await goalSection(root);
    expect(goal.textContent).toContain('About 3 weeks at your pace of 410 points a week');
    expect(root.querySelector('.goal-change')?.textContent).toBe('+1,640 in 30 days');
  });

  it('affordable: says so and offers Redeem, which asks for confirmation', async () => {
    await seed({ rewards, balance: 800 });
    await goalOf(1, 'Amazon $5');
    const root = mount();
    const goal = await goalSection(root);
    expect(goal.textContent).toContain('You can redeem it now');
    await click(getByRole(goal, 'button', 'Redeem Amazon $5'));
    await waitFor(() => getByRole(root, 'alertdialog', 'Confirm redemption'));
  });

  it('a reward no longer offered is said so and can be cleared', async () => {
    await seed({ rewards, balance: 800 });
    await goalOf(9, 'Old Voucher');
    const root = mount();
    const goal = await goalSection(root);
    expect(goal.textContent).toContain('Old Voucher is no longer offered.');
    await click(getByRole(goal, 'button', 'Remove goal: Old Voucher'));
    expect(background.calls).toContainEqual({ type: 'setGoal', data: { rewardId: null } });
  });

  it('never another account’s goal', async () => {
    await seed({ rewards, balance: 800 });
    await goalOf(2, 'Target $50', 'https://other.example|zzzz');
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Set as goal: Target $50'));
    expect(queryAllByRole(root, 'region', 'Your goal')).toHaveLength(0);
  });

  it('in German', async () => {
    installI18n('de');
    await seed({ rewards, balance: 1000 });
    await goalOf(2, 'Target $50');
    const root = mount();
    const goal = await waitFor(() => getByRole(root, 'region', 'Ihr Ziel'));
    expect(goal.textContent).toContain('Noch 4.000 Punkte');
    expect(getByRole(goal, 'button', 'Ziel entfernen: Target $50').textContent).toBe('Ziel entfernen');
  });
});
