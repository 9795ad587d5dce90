import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { accountOf, goalItem, rewardsItem, sessionItem, type Goal } from '../../utils/storage-items';
import { onGoalSet } from './notifications';
import { fail } from './result';
import { activeCredentials, put, update } from './store';

/** Sets the goal to a reward of the catalogue, for the session's account; `null` clears it. */
export async function setGoal(rewardId: number | null): Promise<Goal | null> {
  const credentials = await activeCredentials();
  if (!credentials) fail(appError('not_connected', t('errNotConnected')));
  const sid = credentials.session;
  let goal: Goal | null = null;
  let offered = rewardId === null;
  await update(sid, [sessionItem, rewardsItem], (get) => {
    if (rewardId === null) return [put(goalItem, null)];
    const reward = get(rewardsItem)?.data.rewards.find((r) => r.id === rewardId);
    if (!reward) return [];
    offered = true;
    goal = { account: accountOf(get(sessionItem)), rewardId, rewardName: reward.name, setAt: Date.now() };
    return [put(goalItem, goal)];
  });
  if (!offered) fail(appError('invalid_input', t('errGoalNotOffered')));
  if (goal) await onGoalSet(sid).catch(() => undefined);
  return goal;
}
