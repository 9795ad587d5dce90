import { changeOver, roughDuration } from '../../utils/balance-trend';
import { formatPoints } from '../../utils/format';
import { goalView, type GoalView } from '../../utils/goal-view';
import { t, tp } from '../../utils/i18n';

export type GoalInput = Parameters<typeof goalView>[0] & {
  /** Why no redemption can start now (another one is pending), or null. */
  blocked: string | null;
};

const DURATION = { day: 'durationDay', week: 'durationWeek', month: 'durationMonth', year: 'durationYear' } as const;

/** "+1,250" / "−300" / "0" in the browser's language. */
function signed(n: number): string {
  return n > 0 ? `+${formatPoints(n)}` : n < 0 ? `−${formatPoints(-n)}` : formatPoints(0);
}

function pace(weeks: number, perWeek: number): string {
  const { unit, count } = roughDuration(weeks);
  return t('goalPace', tp(DURATION[unit], count), formatPoints(Math.round(perWeek)));
}

/**
 * Every word and flag of the 30-day change and the goal (issue 11; components/popup/frame-fill.ts):
 * GoalPanel and the first frame render it. `view` is what it was made from (GoalPanel's Redeem needs the reward).
 */
export function goalModel(input: GoalInput): { m: GoalModel; view: GoalView } {
  const change = changeOver(input.samples, 30, input.now);
  const view = goalView(input);
  const remove = (name: string) => ({ label: t('removeGoal', name), text: t('removeGoalShort') });
  const covered = view.kind === 'saving' || view.kind === 'affordable' ? Math.max(0, Math.min(view.points, view.cost)) : 0;
  const goal =
    view.kind === 'none'
      ? null
      : view.kind === 'gone'
        ? { heading: t('goalHeading'), gone: t('goalGone', view.name), name: null, points: null, bar: null, status: null, redeem: null, pace: null, remove: remove(view.name) }
        : {
            heading: t('goalHeading'),
            gone: null,
            name: view.reward.name,
            points: tp('points', view.cost),
            bar: view.kind === 'unknown' ? null : { value: covered, max: Math.max(view.cost, 1), label: tp('progressPoints', view.cost, formatPoints(covered)) },
            status: {
              class: `small ${view.kind === 'affordable' ? 'ok' : ''}`,
              text: view.kind === 'affordable' ? t('goalAffordable') : view.kind === 'saving' ? tp('goalToGo', view.toGo) : '',
            },
            redeem:
              view.kind === 'affordable'
                ? { label: t('redeemReward', view.reward.name), text: t('redeemButton'), disabled: input.blocked !== null, title: input.blocked }
                : null,
            pace: view.kind === 'saving' && view.pace ? pace(view.pace.weeks, view.pace.pointsPerWeek) : null,
            remove: remove(view.reward.name),
          };
  return { m: { change: change ? t('change30', signed(change.change)) : null, goal }, view };
}

export interface GoalModel {
  change: string | null;
  goal: {
    heading: string;
    gone: string | null;
    name: string | null;
    points: string | null;
    bar: { value: number; max: number; label: string } | null;
    status: { class: string; text: string } | null;
    redeem: { label: string; text: string; disabled: boolean; title: string | null } | null;
    pace: string | null;
    remove: { label: string; text: string };
  } | null;
}

