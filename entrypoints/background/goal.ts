import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { accountOf, goalItem, rewardsItem, sessionItem, type Goal, type SessionInfo } from '../../utils/storage-items';
import { staleSession } from './api';
import { currentGeneration, isCurrent } from './generation';
import { onGoalSet } from './notifications';
import { writeGoal } from './popup-view';
import { fail } from './result';

/** Sets the goal to a reward of the catalogue, for the session's account; `null` clears it. */
export async function setGoal(rewardId: number | null): Promise<Goal | null> {
  const gen = currentGeneration();
  const session = await sessionItem.getValue();
  if (!session.connected) fail(appError('not_connected', t('errNotConnected')));
  if (rewardId === null) {
    await goalItem.removeValue();
    return null;
  }
  const reward = (await rewardsItem.getValue())?.data.rewards.find((r) => r.id === rewardId);
  if (!reward) fail(appError('invalid_input', t('errGoalNotOffered')));
  const goal: Goal = { account: accountOf(session), rewardId, rewardName: reward.name, setAt: Date.now() };
  if (!isCurrent(gen)) throw staleSession();
  await writeGoal(goal, reward);
  await onGoalSet(gen).catch(() => undefined);
  return goal;
}

/** Reconnecting the same account (a new token after a 401) keeps its goal under the new session. */
export async function keepGoalFor(gen: number, session: SessionInfo): Promise<void> {
  const goal = await goalItem.getValue();
  if (goal && isCurrent(gen) && goal.account !== accountOf(session)) await goalItem.setValue({ ...goal, account: accountOf(session) });
}
