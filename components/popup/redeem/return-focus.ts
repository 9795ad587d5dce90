import type { RewardId } from '../../../utils/ids';
/**
 * Where focus goes when the outcome card is closed (Done, Close): the card and the button
 * that was pressed go, and focus would fall to the page. It returns to where the panelist works:
 * the reward's row, on its name (the button that opens its details), never on its Redeem, where
 * one more Enter would start the same redemption again. For a reward not on screen (further down
 * than "Show more", filtered out, no longer offered): the start of the list, its search field, or
 * its first row without one.
 */
export function focusRewardRow(rewardId: RewardId): void {
  const row = rowOf(rewardId);
  (row ?? document).querySelector<HTMLElement>(row ? '.reward-open' : '#reward-search, .reward-open')?.focus();
}

/**
 * The row a reward is on: a reward alone, or a brand's first value, names the row's details
 * (components/popup/model/row-model.ts `base`); a brand's other values are options of its choice.
 */
function rowOf(rewardId: RewardId): HTMLElement | null {
  const id = String(rewardId);
  const mark =
    document.querySelector(`.reward-open[aria-controls="reward-${CSS.escape(id)}-details"]`) ??
    document.querySelector(`select.reward-choice option[value="${CSS.escape(id)}"]`);
  return mark?.closest<HTMLElement>('li.reward') ?? null;
}
