import { useContext, useState } from 'preact/hooks';
import { defaultChoice, type RewardGroup } from '../../utils/reward-groups';
import type { Reward } from '../../utils/types';
import { rewardIdOf, type RewardId } from '../../utils/ids';
import { GoalContext } from './goal-context';
import { LazyDetails } from './lazy/LazyDetails';
import { rowModel } from './model/row-model';
import { RowView } from './RewardRow';
import { useSetGoal } from './set-goal';

interface Props {
  group: RewardGroup;
  balance: number | null;
  /** Another redemption is pending: the one banner above the list says so once, not each row. */
  blocked: boolean;
  /** Rewards with a redemption still being checked. */
  held: readonly RewardId[];
  /** Rewards the panel is to be asked about first. */
  contact: readonly RewardId[];
  onRedeem: (reward: Reward) => void;
  /** The brand's values are only partly at hand (the popup view): asks for the whole catalogue. */
  onWantAll?: (() => void) | undefined;
}

/**
 * A row of the list with what only the app holds: whether its details are open, the value chosen
 * in its picker, and what its buttons do. Its markup is RowView's (RewardRow.tsx), the first frame's too.
 */
export function ListRow({ group, balance, blocked, held, contact, onRedeem, onWantAll }: Props) {
  const [open, setOpen] = useState(false);
  const goal = useContext(GoalContext);
  const [chosen, setChosen] = useState<RewardId | null>(null);
  const goalSetter = useSetGoal();
  const choice = group.rewards.find((r) => r.id === chosen) ?? defaultChoice(group, goal);
  return (
    <RowView
      m={rowModel({ group, choice, balance, blocked, goal, held, contact, open })}
      details={open && <LazyDetails reward={choice} />}
      onToggle={() => setOpen(!open)}
      onChoose={(id) => setChosen(rewardIdOf(id))}
      onChoiceFocus={onWantAll}
      // The background stores the choice, which the popup then shows; a refusal is said in the row.
      onGoal={() => goalSetter.set(goal === choice.id ? null : choice.id)}
      notice={goalSetter.notice}
      onRedeem={() => onRedeem(choice)}
    />
  );
}
