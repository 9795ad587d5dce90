import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DAY_MS, type BalanceSample } from '../../utils/balance-trend';
import { appError } from '../../utils/errors';
import { accountOf, balanceHistoryItem, goalItem } from '../../utils/storage-items';
import { background } from './fake-background';
import { installI18n } from './i18n-setup';
import {
  CONNECTED,
  click,
  getByRole,
  giftCard,
  mount,
  queryAllByRole,
  redemption,
  seed,
  unmount,
  waitFor,
} from './popup-fixtures';
import { rid } from './test-ids';

vi.mock('../../utils/messages', () => import('./fake-background').then((m) => m.fakeMessages));

const amazon = giftCard(1, 'Amazon $5', 500);
const target = giftCard(2, 'Target $50', 5000);
const rewards = [amazon, target];
const ACCOUNT = accountOf(CONNECTED);
const goalOf = (rewardId: number, rewardName: string, account = ACCOUNT) =>
  goalItem.setValue({ account, rewardId: rid(rewardId), rewardName, setAt: 1 });
const daysAgo = (days: number, points: number): BalanceSample => ({ at: Date.now() - days * DAY_MS, points });
/** The panel's timestamp (UTC, no zone) `days` ago. */
const iso = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 19);

beforeEach(() => {
  fakeBrowser.reset();
  background.calls.length = 0;
  background.answers = {};
});
afterEach(unmount);

/** The goal's card: its region is named "Your goal" and, for a screen reader, the reward the header names above it. */
const goalSection = (root: HTMLElement) => waitFor(() => getByRole(root, 'region', /^Your goal\b/));

describe('setting a goal', () => {
  it('every reward offers a goal toggle that says what it does in words, named by that and the reward', async () => {
    await seed({ rewards, balance: 1000 });
    const root = mount();
    const set = await waitFor(() => getByRole(root, 'button', 'Set as goal: Target $50'));
    // Visible words, not a star a touch screen never explains: no tooltip is needed.
    expect(set.textContent).toBe('☆ Set as goal');
    expect(set.getAttribute('title')).toBeNull();
    expect(set.getAttribute('aria-pressed')).toBe('false');
    expect(queryAllByRole(root, 'region', /^Your goal\b/)).toHaveLength(0);
    await click(set);
    expect(background.calls).toContainEqual({ type: 'setGoal', data: { rewardId: '2' } });
  });

  it('a goal the background cannot set or remove says why beside its control, in the background’s words', async () => {
    const refused =
      'This reward is no longer offered, so it cannot be your goal. Reload the rewards and choose another.';
    background.answers.setGoal = () => ({ ok: false, error: appError('invalid_input', refused) });
    await seed({ rewards, balance: 1000 });
    await goalOf(1, 'Amazon $5');
    const root = mount();
    await click(await waitFor(() => getByRole(root, 'button', 'Set as goal: Target $50')));
    const row = getByRole(root, 'button', 'Set as goal: Target $50').closest('li')!;
    await waitFor(() => expect(getByRole(row, 'alert').textContent).toBe(refused));
    // Removing the goal from its card, refused (no account connected any more): said in the card.
    background.answers.setGoal = () => ({ ok: false, error: appError('not_connected', 'Not connected.') });
    const goal = await goalSection(root);
    await click(getByRole(goal, 'button', 'Remove goal: Amazon $5'));
    await waitFor(() => expect(getByRole(goal, 'alert').textContent).toBe('Not connected.'));
  });
});

describe('removing the goal from its card', () => {
  /** The background removes it: the card goes with the button that had focus. */
  const removing = () => {
    background.answers.setGoal = async () => {
      await goalItem.removeValue();
      return { ok: true, data: null };
    };
  };
  const said = (root: HTMLElement) => [...root.querySelectorAll('[role=status]')].map((el) => el.textContent);

  it('gives focus to the reward’s own “Set as goal” and says “Goal removed” politely', async () => {
    removing();
    await seed({ rewards, balance: 1000 });
    await goalOf(2, 'Target $50');
    const root = mount();
    const remove = getByRole(await goalSection(root), 'button', 'Remove goal: Target $50');
    remove.focus();
    await click(remove);
    await waitFor(() => expect(queryAllByRole(root, 'region', /^Your goal\b/)).toHaveLength(0));
    await waitFor(() => expect(document.activeElement).toBe(getByRole(root, 'button', 'Set as goal: Target $50')));
    expect(said(root)).toContain('Goal removed');
  });

  it('a goal no longer listed: focus goes to the rewards’ heading', async () => {
    removing();
    await seed({ rewards, balance: 1000 });
    await goalOf(9, 'Gone Books');
    const root = mount();
    const remove = getByRole(await goalSection(root), 'button', 'Remove goal: Gone Books');
    remove.focus();
    await click(remove);
    await waitFor(() => expect(queryAllByRole(root, 'region', /^Your goal\b/)).toHaveLength(0));
    await waitFor(() => expect(document.activeElement).toBe(root.querySelector('#rewards-title')));
    expect(said(root)).toContain('Goal removed');
  });
});

describe('the goal header', () => {
  it('while saving: the header says the points to the goal, the card names it with its figures; the row’s toggle says it is the goal', async () => {
    await seed({ rewards: [...rewards, giftCard(3, 'Close Cafe', 1200)], balance: 1000 });
    await goalOf(2, 'Target $50');
    const root = mount();
    const goal = await goalSection(root);
    // The header says the goal's points to go, not the closest reward's (Close Cafe, 200 to go), and leaves its name to the card.
    expect(root.querySelector('.hdr-next')?.textContent).toBe('4,000 points to your goal');
    // The card names the goal and says its figures in words a panelist reads, not only in the bar's label.
    expect(goal.getAttribute('aria-labelledby')).toBe('goal-heading');
    expect(goal.querySelector('#goal-heading')?.textContent).toBe('Your goal');
    expect(goal.querySelector('.goal-name strong')?.textContent).toBe('Target $50');
    expect(goal.querySelector('.goal-name .goal-figures')?.textContent).toBe('1,000 of 5,000 points');
    expect(goal.querySelector('progress')?.getAttribute('aria-label')).toBe('1,000 of 5,000 points');
    expect(queryAllByRole(goal, 'button', 'Redeem Target $50')).toHaveLength(0);
    expect(goal.textContent).not.toContain('pace');
    // Once set, the row's toggle says so: pressed, and in words.
    const toggle = getByRole(root, 'button', 'Your goal: Target $50');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(toggle.textContent).toBe('★ Your goal');
    await click(getByRole(goal, 'button', 'Remove goal: Target $50'));
    expect(background.calls).toContainEqual({ type: 'setGoal', data: { rewardId: null } });
  });

  it('one earning figure, and the pace worked out from it', async () => {
    await seed({ rewards, balance: 3770, history: [] });
    await goalOf(2, 'Target $50');
    await balanceHistoryItem.setValue([
      daysAgo(35, 2130),
      daysAgo(21, 2540),
      daysAgo(14, 2950),
      daysAgo(7, 3360),
      daysAgo(0.5, 3770),
    ]);
    const root = mount();
    const goal = await goalSection(root);
    // 1,640 earned in 30 days is 383 a week: the 1,230 to go take about 3 weeks (once the samples' read is in).
    await waitFor(() =>
      expect(goal.querySelector('.goal-pace')?.textContent).toBe(
        '1,640 points earned in the last 30 days. About 3 weeks to go at this pace.',
      ),
    );
    expect(root.querySelector('.hdr-next')?.textContent).toBe('1,230 points to your goal');
  });

  it('read days ago, the figure and the pace end at that read, dated: the days since are not days without points', async () => {
    // The last read that gave a balance was 4 days ago (a panel down since): 1,230 earned in the 30 days before it.
    await seed({ rewards, balance: 3770, history: [], fetchedAt: Date.now() - 4 * DAY_MS });
    await goalOf(2, 'Target $50');
    await balanceHistoryItem.setValue([daysAgo(40, 2130), daysAgo(25, 2540), daysAgo(18, 2950), daysAgo(4.5, 3770)]);
    const root = mount();
    const goal = await goalSection(root);
    const day = (days: number) =>
      new Date(Date.now() - days * DAY_MS).toLocaleDateString('en-US', { dateStyle: 'medium' });
    // From 34 days ago to the read 4 days ago: 2,130 → 3,770, all of it seen rising (1,640 in 30 days, 383 a week).
    await waitFor(() =>
      expect(goal.querySelector('.goal-pace')?.textContent).toBe(
        `1,640 points earned between ${day(34)} and ${day(4)}. About 3 weeks to go at this pace.`,
      ),
    );
  });

  it('with the history unread, neither an earning figure nor a pace: a rise may be a refund', async () => {
    await seed({ rewards, balance: 3770 });
    await goalOf(2, 'Target $50');
    await balanceHistoryItem.setValue([daysAgo(35, 2130), daysAgo(14, 2950), daysAgo(0.5, 3770)]);
    const root = mount();
    const goal = await goalSection(root);
    await waitFor(() => expect(root.querySelector('.hdr-next')?.textContent).toBe('1,230 points to your goal'));
    expect(goal.textContent).not.toMatch(/earned|at this pace/);
  });

  it('right after redeeming, spending does not read as a loss: the same figure earned', async () => {
    await seed({ rewards, balance: 3270, history: [] });
    await balanceHistoryItem.setValue([
      daysAgo(35, 2130),
      daysAgo(21, 2540),
      daysAgo(14, 2950),
      daysAgo(7, 3360),
      daysAgo(0.5, 3770),
      daysAgo(0.01, 3270),
    ]);
    const root = mount();
    const line = await waitFor(() => {
      const el = root.querySelector('.goal-change');
      if (!el) throw new Error('no earning line');
      return el;
    });
    expect(line.textContent).toBe('1,640 points earned in the last 30 days');
    expect(root.textContent).not.toMatch(/−|-500/);
  });

  it('points the panel gave back are not earned: neither the figure nor the pace counts a refund', async () => {
    // 410 a week from surveys; 500 spent on a redemption that failed and came back 3 days ago.
    const refunded = redemption(5, amazon, iso(4), { failed: true, refunded: true, updated_at: iso(3.01) });
    await seed({ rewards, balance: 3360, history: [refunded] });
    await goalOf(2, 'Target $50');
    await balanceHistoryItem.setValue([
      daysAgo(35, 2130),
      daysAgo(21, 2540),
      daysAgo(14, 2950),
      daysAgo(4, 2450),
      daysAgo(3, 2950),
      daysAgo(0.5, 3360),
    ]);
    const root = mount();
    const goal = await goalSection(root);
    // 1,230 earned, not 1,730: the 1,640 to go take about 6 weeks at 287 a week, not 4 at 404.
    await waitFor(() =>
      expect(goal.querySelector('.goal-pace')?.textContent).toBe(
        '1,230 points earned in the last 30 days. About 6 weeks to go at this pace.',
      ),
    );
  });

  it('points given back are not earned, in German', async () => {
    installI18n('de');
    const refunded = redemption(5, amazon, iso(4), { failed: true, refunded: true, updated_at: iso(3.01) });
    await seed({ rewards, balance: 1000, history: [refunded] });
    await balanceHistoryItem.setValue([
      daysAgo(35, 100),
      daysAgo(21, 400),
      daysAgo(4, 0),
      daysAgo(3, 500),
      daysAgo(0.5, 1000),
    ]);
    const root = mount();
    await waitFor(() =>
      expect(root.querySelector('.goal-change')?.textContent).toBe('800 Punkte in den letzten 30 Tagen verdient'),
    );
  });

  it('affordable: says so and offers Redeem, which asks for confirmation', async () => {
    await seed({ rewards, balance: 800 });
    await goalOf(1, 'Amazon $5');
    const root = mount();
    const goal = await goalSection(root);
    expect(goal.textContent).toContain('You can redeem it now');
    expect(goal.querySelector('.goal-name')?.textContent).toBe('Amazon $5 500 points');
    expect(root.querySelector('.hdr-next')?.textContent).toBe('Enough points for your goal');
    await click(getByRole(goal, 'button', 'Redeem Amazon $5'));
    await waitFor(() => getByRole(root, 'alertdialog', 'Confirm redemption'));
  });

  it('a reward no longer offered is said so and can be cleared', async () => {
    await seed({ rewards, balance: 800 });
    await goalOf(9, 'Old Voucher');
    const root = mount();
    const goal = await goalSection(root);
    expect(goal.textContent).toContain('Old Voucher is no longer offered.');
    // The name one unit in its own direction, in the first frame as in the app.
    expect(goal.querySelector('bdi')?.textContent).toBe('Old Voucher');
    await click(getByRole(goal, 'button', 'Remove goal: Old Voucher'));
    expect(background.calls).toContainEqual({ type: 'setGoal', data: { rewardId: null } });
  });

  it('never another account’s goal', async () => {
    await seed({ rewards, balance: 800 });
    await goalOf(2, 'Target $50', 'https://other.example|zzzz');
    const root = mount();
    await waitFor(() => getByRole(root, 'button', 'Set as goal: Target $50'));
    expect(queryAllByRole(root, 'region', /^Your goal\b/)).toHaveLength(0);
  });

  it('in German', async () => {
    installI18n('de');
    await seed({ rewards, balance: 1000, history: [] });
    await goalOf(2, 'Target $50');
    const root = mount();
    await balanceHistoryItem.setValue([daysAgo(35, 100), daysAgo(21, 400), daysAgo(14, 700), daysAgo(0.5, 1000)]);
    const goal = await waitFor(() => getByRole(root, 'region', /^Ihr Ziel\b/));
    expect(root.querySelector('.hdr-next')?.textContent).toBe('Noch 4.000 Punkte bis zu Ihrem Ziel');
    expect(goal.querySelector('.goal-name')?.textContent).toBe('Target $50 1.000 von 5.000 Punkten');
    expect(getByRole(goal, 'button', 'Ziel entfernen: Target $50').textContent).toBe('Ziel entfernen');
    await waitFor(() =>
      expect(goal.querySelector('.goal-pace')?.textContent).toBe(
        '900 Punkte in den letzten 30 Tagen verdient. Bei diesem Tempo noch etwa 4 Monate.',
      ),
    );
  });
});
