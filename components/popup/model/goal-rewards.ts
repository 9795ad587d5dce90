import type { Goal, PopupView } from '../../../utils/storage-items';
import type { Reward } from '../../../utils/types';

/**
 * The goal's reward from the popup view, as a catalogue of it alone (empty: no longer offered); null
 * when the view does not say. Apart from the goal's model, which loads with the goal header.
 */
export function goalRewards(view: PopupView | null | undefined, goal: Goal | null | undefined): Reward[] | null {
  const known = view?.goal;
  if (!goal || !known || known.rewardId !== goal.rewardId) return null;
  return known.reward ? [known.reward] : [];
}
