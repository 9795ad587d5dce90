import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { t } from '../../utils/i18n';
import { send as sendMessage } from './send';
import type { Reward } from '../../utils/types';

/** The id of the account's goal reward, or null: one value for every row, without threading it through the list. */
export const GoalContext = createContext<number | null>(null);

/** "Set as goal" / "Remove goal"; the background stores the choice, which the popup then shows. */
export function GoalButton({ reward }: { reward: Reward }) {
  const isGoal = useContext(GoalContext) === reward.id;
  return (
    <button
      type="button"
      class="btn btn-quiet btn-small"
      aria-label={t(isGoal ? 'removeGoal' : 'setGoal', reward.name)}
      onClick={() => void sendMessage('setGoal', { rewardId: isGoal ? null : reward.id }).catch(() => undefined)}
    >
      {t(isGoal ? 'removeGoalShort' : 'setGoalShort')}
    </button>
  );
}
