import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { restoreBadge, updateBadge } from '../../entrypoints/background/notify/badge';
import { goalPart, rewardsPart } from '../../entrypoints/background/popup-view';
import { accountOf, goalItem, popupViewItem, preferencesItem, sessionItem, type Goal } from '../../utils/storage-items';
import { CONNECTED, giftCard } from './popup-fixtures';
import { rid } from './test-ids';

const travel = giftCard(108, 'Atlas Travel £100 Gift Card', 11_000);
const badge = async () => {
  await updateBadge();
  return fakeBrowser.action.getBadgeText({});
};

/** The catalogue read as the background stores it: the goal and the popup view in one write. */
const stored = (points: number, goal: Goal | null = null) =>
  fakeBrowser.storage.local.set({
    [goalItem.key]: goal,
    [popupViewItem.key]: {
      rewards: rewardsPart({
        data: { rewards: [travel], balance: { points, source: 'rewards' } },
        fetchedAt: Date.now(),
      }),
      latest: null,
      goal: goalPart(goal, travel),
    },
  });

beforeEach(async () => {
  fakeBrowser.reset();
  await sessionItem.setValue(CONNECTED);
  await stored(2500);
});

describe('the badge choice', () => {
  it('the balance by default', async () => {
    expect(await badge()).toBe('2.5k');
  });

  it('the points still needed for the goal, a check mark once affordable, nothing without a goal', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, badgeShows: 'goal' });
    expect(await badge()).toBe('');
    const goal = { account: accountOf(CONNECTED), rewardId: rid(108), rewardName: travel.name, setAt: 1 };
    await stored(2500, goal);
    expect(await badge()).toBe('8.5k');
    await stored(12_000, goal);
    expect(await badge()).toBe('✓');
  });

  it('the open profile questions: nothing before the profile was read, nothing when all are answered', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, badgeShows: 'questions' });
    expect(await badge()).toBe('');
    await popupViewItem.setValue({ rewards: null, latest: null, profile: null });
    expect(await badge()).toBe('');
    await popupViewItem.setValue({
      rewards: null,
      latest: null,
      profile: { open: 3, total: 10, first: 'PETS', fetchedAt: 1 },
    });
    expect(await badge()).toBe('3');
    await popupViewItem.setValue({
      rewards: null,
      latest: null,
      profile: { open: 0, total: 10, first: null, fetchedAt: 2 },
    });
    expect(await badge()).toBe('');
  });

  it('never another account’s goal; nothing when the badge is off', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, badgeShows: 'goal' });
    await stored(2500, {
      account: 'https://other.example|zzzz',
      rewardId: rid(108),
      rewardName: travel.name,
      setAt: 1,
    });
    expect(await badge()).toBe('');
    await preferencesItem.setValue({ badge: false, refreshMinutes: 30 });
    expect(await badge()).toBe('');
  });
});

describe('the badge at a worker start', () => {
  it('a blank badge (the browser just started) is worked out from storage', async () => {
    await fakeBrowser.action.setBadgeText({ text: '' });
    await restoreBadge();
    expect(await fakeBrowser.action.getBadgeText({})).toBe('2.5k');
  });

  it('a badge the browser kept is left as it is, storage unread', async () => {
    await fakeBrowser.action.setBadgeText({ text: '2.5k' });
    const read: unknown[] = [];
    const get = fakeBrowser.storage.local.get;
    fakeBrowser.storage.local.get = (keys: unknown) => {
      read.push(keys);
      return Promise.resolve({});
    };
    try {
      await restoreBadge();
    } finally {
      fakeBrowser.storage.local.get = get;
    }
    expect(read).toEqual([]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('2.5k');
  });
});
