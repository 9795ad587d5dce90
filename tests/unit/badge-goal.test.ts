import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { updateBadge } from '../../entrypoints/background/badge';
import { accountOf, goalItem, popupViewItem, preferencesItem, rewardsItem, sessionItem } from '../../utils/storage-items';
import { CONNECTED, giftCard } from './popup-fixtures';

const travel = giftCard(108, 'Atlas Travel £100 Gift Card', 11_000);
const badge = async () => {
  await updateBadge();
  return fakeBrowser.action.getBadgeText({});
};

beforeEach(async () => {
  fakeBrowser.reset();
  await sessionItem.setValue(CONNECTED);
  await rewardsItem.setValue({ data: { rewards: [travel], balance: { points: 2500, source: 'rewards' } }, fetchedAt: Date.now() });
});

describe('the badge choice', () => {
  it('the balance by default', async () => {
    expect(await badge()).toBe('2.5k');
  });

  it('the points still needed for the goal, a check mark once affordable, nothing without a goal', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, badgeShows: 'goal' });
    expect(await badge()).toBe('');
    await goalItem.setValue({ account: accountOf(CONNECTED), rewardId: 108, rewardName: travel.name, setAt: 1 });
    expect(await badge()).toBe('8.5k');
    await rewardsItem.setValue({ data: { rewards: [travel], balance: { points: 12_000, source: 'rewards' } }, fetchedAt: Date.now() });
    expect(await badge()).toBe('✓');
  });

  it('the open profile questions: nothing before the profile was read, nothing when all are answered', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, badgeShows: 'questions' });
    expect(await badge()).toBe('');
    await popupViewItem.setValue({ rewards: null, latest: null, profile: null });
    expect(await badge()).toBe('');
    await popupViewItem.setValue({ rewards: null, latest: null, profile: { open: 3, total: 10, first: 'PETS', fetchedAt: 1 } });
    expect(await badge()).toBe('3');
    await popupViewItem.setValue({ rewards: null, latest: null, profile: { open: 0, total: 10, first: null, fetchedAt: 2 } });
    expect(await badge()).toBe('');
  });

  it('never another account’s goal; nothing when the badge is off', async () => {
    await preferencesItem.setValue({ badge: true, refreshMinutes: 30, badgeShows: 'goal' });
    await goalItem.setValue({ account: 'https://other.example|zzzz', rewardId: 108, rewardName: travel.name, setAt: 1 });
    expect(await badge()).toBe('');
    await preferencesItem.setValue({ badge: false, refreshMinutes: 30 });
    expect(await badge()).toBe('');
  });
});
