import { formatMoney, formatPoints } from '../../../utils/format';
import { direction, t, tp } from '../../../utils/i18n';
import { isolateFigures } from '../../../utils/qty';
import { valueChoices, type RewardGroup, type ValueChoice } from '../../../utils/reward-groups';
import { countryList } from '../../../utils/region';
import { kindLabel, quarantineText, redeemBlock, rewardImage } from '../../../utils/reward-view';
import type { Reward } from '../../../utils/types';
import { brandTile } from './brand-tile';
import { heldText } from './open-entries';
import { REDEEM_WAIT_ID } from './outcome-ids';
import type { RewardId } from '../../../utils/ids';

export interface RowInput {
  /** A brand with its rewards (utils/reward-groups.ts); a reward alone is a brand of one. */
  group: RewardGroup;
  /** The brand's reward chosen now: what Redeem and the goal toggle act on. */
  choice: Reward;
  balance: number | null;
  /** Another redemption is pending: the one banner above the list says so once, not each row. */
  blocked: boolean;
  /** The account's goal reward. */
  goal: RewardId | null;
  /**
   * Rewards with a redemption still being checked, whatever the outcome card shows now: their
   * Redeem is held back, and says why, until the history settles each, so no second Confirm is sent by mistake.
   */
  held: readonly RewardId[];
  /** Rewards the panel is to be asked about first (open-entries.ts, contactFirst): held back too. */
  contact: readonly RewardId[];
  /** Its details are shown. */
  open?: boolean;
}

/**
 * A value as the brand's choice names it: "$10.00 · 1,000 points"; the points alone when the panel's
 * currency is not an ISO 4217 code (utils/format.ts), the money alone when the cost is unknown.
 */
export const choiceText = (reward: Reward) =>
  [
    formatMoney(reward.cost, reward.cost_currency),
    reward.reward_point_cost === null ? null : tp('points', reward.reward_point_cost),
  ]
    .filter((part) => part !== null)
    .join(' · ') || reward.name;

/**
 * A value as the brand's picker names it: with its countries where the brand has the same
 * value for other countries too ("$5.00 · 500 points · United States, Canada"), so no two read alike.
 * An option holds text only: in a right-to-left language each figure is isolated there (utils/qty.ts).
 */
export const valueText = ({ reward, where }: ValueChoice) =>
  isolateFigures(
    where === null
      ? choiceText(reward)
      : `${choiceText(reward)} · ${where.length > 0 ? countryList(where) : reward.name}`,
    direction(),
  );

/**
 * Every word and flag of one row: RowView (RewardRow.tsx) renders it, in the app and in the first
 * frame. One Redeem, for the chosen value; the row itself opens the details; the goal is a toggle
 * named by the reward it sets, so a screen reader says which.
 */
export function rowModel({ group, choice, balance, blocked, goal, held, contact, open = false }: RowInput) {
  const lead = group.rewards[0]!;
  const cost = choice.reward_point_cost;
  const base = `reward-${lead.id}`;
  // The one rule for "redeemable now" (utils/reward-view.ts), its reason said beside the Redeem: a
  // cost nobody gave or that cannot be right, points short, its own redemption still being checked
  // or to be taken up with the panel; a pending one is only a wait, said once above the list.
  const block = redeemBlock(choice, balance, { held, contact, pending: blocked });
  const refused = block?.kind === 'cost-refused' ? quarantineText(block.reason) : null;
  const short = block?.kind === 'short' ? tp('needMorePoints', block.missing) : null;
  const heldWhy = block?.kind === 'held' ? heldText(block.why) : null;
  const isHeld = heldWhy !== null;
  const disabled = block !== null;
  // What the bar shows as covered: nothing while the balance is below zero.
  const covered = balance !== null && cost !== null ? Math.max(0, Math.min(balance, cost)) : 0;
  const reason = refused || short || isHeld ? `${base}-why` : block?.kind === 'pending' ? REDEEM_WAIT_ID : null;
  // The brand's values as its picker offers them: alike variants once, the goal and the chosen one standing for theirs.
  const choices = valueChoices(group.rewards, [goal, choice.id, ...held, ...contact]);
  const many = choices.length > 1;
  const name = many ? group.title : choice.name;
  return {
    base,
    image: rewardImage(lead),
    // Under the image, from the first frame on: the brand's initial on its colour.
    tile: brandTile(lead),
    name,
    kind: kindLabel(choice),
    // One reward: its value; a brand of several: its picker, which names each value, says it.
    money: many ? '' : (formatMoney(choice.cost, choice.cost_currency) ?? ''),
    points: many || cost === null ? null : tp('points', cost),
    // The brand's values in its order, the chosen one the picker's value.
    choice: many
      ? {
          label: t('chooseValue', name),
          id: `${base}-value`,
          value: String(choice.id),
          options: choices.map((c) => ({ value: String(c.reward.id), text: valueText(c) })),
        }
      : null,
    // A bar only where it says something: on affordable rows every bar would be full.
    bar:
      short && balance !== null && cost !== null
        ? { value: covered, max: Math.max(cost, 1), label: tp('progressPoints', cost, formatPoints(covered)) }
        : null,
    status: {
      id: reason === `${base}-why` ? reason : null,
      // Only what is missing or in the way: an affordable row says nothing (its Redeem says it), and takes no room.
      class: `reward-why small ${refused || isHeld ? 'warn' : short ? 'muted' : 'none'}`,
      text: refused ?? heldWhy ?? short ?? '',
    },
    details: { open },
    // Named in words beside the star: a tooltip alone is never seen on a touch screen. Once set, it says so
    // ("★ Your goal", pressed), not "Set as goal" pressed; pressing it again removes the goal.
    goal:
      goal === choice.id
        ? { pressed: true, label: t('isGoal', choice.name), text: t('isGoalShort') }
        : { pressed: false, label: t('setGoal', choice.name), text: t('setGoalShort') },
    redeem: {
      label: t('redeemReward', choice.name),
      text: t('redeemButton'),
      disabled,
      describedBy: disabled ? reason : null,
    },
  };
}

export type RowModel = ReturnType<typeof rowModel>;
