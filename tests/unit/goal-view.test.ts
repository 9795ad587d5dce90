import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../utils/balance-trend';
import { goalView, pointsToGoal } from '../../utils/goal-view';
import type { Goal } from '../../utils/storage-items';
import { giftCard } from './popup-fixtures';

const NOW = Date.UTC(2026, 10, 23);
const ACCOUNT = 'http://127.0.0.1:8787|9a7e';
const REWARDS = [
  giftCard(101, 'Bluefin Coffee $5 Gift Card', 500),
  giftCard(106, 'PixelPlay Games $50 Gift Card', 5000),
];
const reward = REWARDS[1]!;
const cost = reward.reward_point_cost!;
const goal: Goal = { account: ACCOUNT, rewardId: reward.id, rewardName: reward.name, setAt: NOW - DAY_MS };
const view = (over: Partial<Parameters<typeof goalView>[0]>) =>
  goalView({ goal, account: ACCOUNT, rewards: REWARDS, points: 0, ...over });

describe('the goal view', () => {
  it('none without a goal, or for another account', () => {
    expect(view({ goal: null }).kind).toBe('none');
    expect(view({ account: 'http://127.0.0.1:8787|ffff' }).kind).toBe('none');
  });

  it('before the catalogue is read, the goal by the name it was set with, and nothing said of it', () => {
    expect(view({ rewards: null })).toEqual({ kind: 'unread', name: reward.name });
    expect(pointsToGoal(view({ rewards: null }))).toBeNull();
  });

  it('no longer offered when the reward left the catalogue', () => {
    expect(view({ rewards: REWARDS.filter((r) => r.id !== reward.id) })).toEqual({ kind: 'gone', name: reward.name });
  });

  it('progress and points to go while saving', () => {
    const saving = view({ points: cost - 100 });
    expect(saving).toMatchObject({ kind: 'saving', toGo: 100 });
    expect(saving.kind === 'saving' && saving.progress).toBeCloseTo((cost - 100) / cost);
    expect(pointsToGoal(saving)).toBe(100);
  });

  it('affordable once the balance covers the cost; a negative balance is no progress', () => {
    expect(view({ points: cost })).toMatchObject({ kind: 'affordable', progress: 1 });
    expect(pointsToGoal(view({ points: cost + 5 }))).toBe(0);
    expect(view({ points: -40 })).toMatchObject({ kind: 'saving', progress: 0, toGo: cost + 40 });
  });

  it('an unknown balance shows the cost without progress', () => {
    expect(view({ points: null })).toMatchObject({ kind: 'unknown', cost });
    expect(pointsToGoal(view({ points: null }))).toBeNull();
  });
});
