import {
  EARN_DAYS,
  flowOver,
  lastReadBefore,
  paceTo,
  roughDuration,
  type PointsReturn,
  type BalanceSample,
} from '../../../utils/balance-trend';
import { earnedText } from '../../../utils/earned';
import { formatPoints } from '../../../utils/format';
import { goalView, type GoalView } from '../../../utils/goal-view';
import { t, tp } from '../../../utils/i18n';
import { quarantinedReward } from '../../../utils/reward-view';
import { asName } from '../../../utils/qty';
import { asSentence, sentences } from '../../../utils/sentences';

export type GoalInput = Parameters<typeof goalView>[0] & {
  samples: readonly BalanceSample[];
  /**
   * Points the panel gave back (the popup view's): not earned, so not in the figure or the pace.
   * Undefined while the history is unread: a rise may then be a refund, so neither is said.
   */
  returns?: readonly PointsReturn[] | undefined;
  /** When the catalogue read that gave the balance was made (none: no balance read). */
  readAt?: number | undefined;
  now: number;
  /** Why this reward cannot be redeemed now (another redemption is pending, or its own is being checked), or null. */
  blocked: string | null;
};

const DURATION = { day: 'durationDay', week: 'durationWeek', month: 'durationMonth', year: 'durationYear' } as const;

/**
 * Every word and flag of the earning figure and the goal: GoalPanelView renders it, in the app and
 * in the first frame. `view` is what it was made from (GoalPanel's Redeem needs the reward). The
 * card names the goal with its figures; the points still to go are the header's next step, not
 * repeated here; the pace is worked out from the earning figure it follows.
 */
export function goalModel(input: GoalInput): { model: GoalModel; view: GoalView } {
  const { returns } = input;
  // Read days ago, the figure and the pace end at that read, dated: never "earned in the last 30 days".
  const until = lastReadBefore(input.samples, input.readAt, input.now);
  const end = until ?? input.now;
  const earned = returns ? earnedText(flowOver(input.samples, EARN_DAYS, end, returns), EARN_DAYS, until) : null;
  const view = goalView(input);
  const remove = (name: string) => ({ label: t('removeGoal', name), text: t('removeGoalShort') });
  const covered =
    view.kind === 'saving' || view.kind === 'affordable' ? Math.max(0, Math.min(view.points, view.cost)) : 0;
  const pace = returns && view.kind === 'saving' ? paceTo(input.samples, view.toGo, end, returns) : null;
  const duration = pace && roughDuration(pace.weeks);
  // Without the catalogue the card waits for it: its figures, or why the goal is not offered, need it.
  const goal =
    view.kind === 'none' || view.kind === 'unread'
      ? null
      : view.kind === 'gone' || view.kind === 'quarantined'
        ? {
            heading: t('goalHeading'),
            // No longer offered only when the catalogue lacks it; listed with a cost nobody gave, it says why.
            gone:
              view.kind === 'gone'
                ? t('goalGone', asName(view.name))
                : quarantinedReward(view.reward.name, view.reason),
            name: null,
            figures: null,
            bar: null,
            status: null,
            redeem: null,
            pace: earned,
            remove: remove(view.kind === 'gone' ? view.name : view.reward.name),
          }
        : {
            heading: t('goalHeading'),
            gone: null,
            // Named where it can be read, with its figures ("2,500 of 3,300 points"), not only in the
            // bar's label; the header's next step above says only the points to go.
            name: view.reward.name,
            figures:
              view.kind === 'saving' ? tp('progressPoints', view.cost, formatPoints(covered)) : tp('points', view.cost),
            bar:
              view.kind === 'unknown'
                ? null
                : {
                    value: covered,
                    max: Math.max(view.cost, 1),
                    label: tp('progressPoints', view.cost, formatPoints(covered)),
                  },
            // Held back, the card says why where "You can redeem it now" would stand: in words a
            // touch screen and a screen reader reach, as a row does, never only in a tooltip.
            status: view.kind === 'affordable' ? (input.blocked ?? t('goalAffordable')) : null,
            held: input.blocked !== null,
            redeem:
              view.kind === 'affordable'
                ? {
                    label: t('redeemReward', view.reward.name),
                    text: t('redeemButton'),
                    disabled: input.blocked !== null,
                  }
                : null,
            pace: duration
              ? sentences(asSentence(earned ?? ''), t('goalPaceLeft', tp(DURATION[duration.unit], duration.count)))
              : earned,
            remove: remove(view.reward.name),
          };
  return { model: { earned: goal ? null : earned, goal }, view };
}

export interface GoalModel {
  /** The earning figure under the header, when there is no goal card to hold it. */
  earned: string | null;
  goal: {
    heading: string;
    gone: string | null;
    /** The goal's name and, beside it, how far the balance covers it ("2,500 of 3,300 points"), or its cost. */
    name: string | null;
    figures: string | null;
    bar: { value: number; max: number; label: string } | null;
    /** "You can redeem it now", or why its Redeem is held back (`held`). */
    status: string | null;
    held?: boolean;
    redeem: { label: string; text: string; disabled: boolean } | null;
    /** The earning figure, and when the goal is reached at that pace. */
    pace: string | null;
    remove: { label: string; text: string };
  } | null;
}
