import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { accountOf, goalItem, popupViewItem, rewardsItem, sessionItem, type Goal } from '../../utils/storage-items';
import { onGoalSet } from './notify/notifications';
import { goalPart, viewPut } from './popup-view';
import { fail } from './result';
import { activeCredentials, put, update } from './store/store';
import type { RewardId } from '../../utils/ids';

/**
 * Sets the goal to a reward of the catalogue, for the session's account; `null` clears it. The
 * goal and its part of the popup view are one write, so the popup's first frame shows it as set.
 */
export async function setGoal(rewardId: RewardId | null): Promise<Goal | null> {
  const credentials = await activeCredentials();
  if (!credentials) fail(appError('not_connected', t('errNotConnected')));
  const sid = credentials.session;
  let goal: Goal | null = null;
  let offered = rewardId === null;
  await update(sid, [sessionItem, rewardsItem, popupViewItem], (get) => {
    if (rewardId === null) return [put(goalItem, null), viewPut(get, { goal: null })];
    const reward = get(rewardsItem)?.data.rewards.find((r) => r.id === rewardId);
    if (!reward) return [];
    offered = true;
    goal = { account: accountOf(get(sessionItem)), rewardId, rewardName: reward.name, setAt: Date.now() };
    return [put(goalItem, goal), viewPut(get, { goal: goalPart(goal, reward) })];
  });
  if (!offered) fail(appError('invalid_input', t('errGoalNotOffered')));
  if (goal) await onGoalSet(sid).catch(() => undefined);
  return goal;
}
