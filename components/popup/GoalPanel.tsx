import { changeOver, roughDuration } from '../../utils/balance-trend';
import { formatPoints } from '../../utils/format';
import { goalView } from '../../utils/goal-view';
import { t, tp } from '../../utils/i18n';
import { send as sendMessage } from './send';
import type { BalanceSample, Goal } from '../../utils/storage-items';
import type { Reward } from '../../utils/types';
import './goal.css';

export interface GoalPanelProps {
  goal: Goal | null;
  account: string;
  rewards: Reward[] | null;
  points: number | null;
  samples: readonly BalanceSample[];
  /** Why no redemption can start now (another one is pending), or null. */
  blocked: string | null;
  onRedeem(reward: Reward): void;
  now?: number;
}

const DURATION = { day: 'durationDay', week: 'durationWeek', month: 'durationMonth', year: 'durationYear' } as const;

/** "+1,250" / "−300" / "0" in the browser's language. */
function signed(n: number): string {
  return n > 0 ? `+${formatPoints(n)}` : n < 0 ? `−${formatPoints(-n)}` : formatPoints(0);
}

const clear = () => void sendMessage('setGoal', { rewardId: null }).catch(() => undefined);

/** Issue 11: the 30-day change under the balance, and the goal with how far and how fast. */
export function GoalPanel({ goal, account, rewards, points, samples, blocked, onRedeem, now = Date.now() }: GoalPanelProps) {
  const change = changeOver(samples, 30, now);
  const view = goalView({ goal, account, rewards, points, samples, now });
  return (
    <>
      {change && <p class="goal-change muted small">{t('change30', signed(change.change))}</p>}
      {view.kind !== 'none' && (
        <section class="goal" aria-labelledby="goal-heading">
          <h2 id="goal-heading" class="goal-heading small muted">
            {t('goalHeading')}
          </h2>
          {view.kind === 'gone' ? (
            <p class="goal-line">
              <span>{t('goalGone', view.name)}</span>
              <RemoveGoal name={view.name} />
            </p>
          ) : (
            <>
              <p class="goal-name">
                <strong>{view.reward.name}</strong> · {tp('points', view.cost)}
              </p>
              {view.kind !== 'unknown' && (
                <progress
                  value={Math.max(0, Math.min(view.points, view.cost))}
                  max={Math.max(view.cost, 1)}
                  aria-label={tp('progressPoints', view.cost, formatPoints(Math.max(0, Math.min(view.points, view.cost))))}
                />
              )}
              <div class="goal-line">
                <span class={`small ${view.kind === 'affordable' ? 'ok' : ''}`}>
                  {view.kind === 'affordable' ? t('goalAffordable') : view.kind === 'saving' ? tp('goalToGo', view.toGo) : ''}
                </span>
                {view.kind === 'affordable' && (
                  <button
                    type="button"
                    class="btn btn-primary btn-small"
                    aria-label={t('redeemReward', view.reward.name)}
                    disabled={blocked !== null}
                    title={blocked ?? undefined}
                    onClick={() => onRedeem(view.reward)}
                  >
                    {t('redeemButton')}
                  </button>
                )}
                <RemoveGoal name={view.reward.name} />
              </div>
              {view.kind === 'saving' && view.pace && <p class="small muted">{pace(view.pace.weeks, view.pace.pointsPerWeek)}</p>}
            </>
          )}
        </section>
      )}
    </>
  );
}

function pace(weeks: number, perWeek: number): string {
  const { unit, count } = roughDuration(weeks);
  return t('goalPace', tp(DURATION[unit], count), formatPoints(Math.round(perWeek)));
}

function RemoveGoal({ name }: { name: string }) {
  return (
    <button type="button" class="btn btn-quiet btn-small" aria-label={t('removeGoal', name)} onClick={clear}>
      {t('removeGoalShort')}
    </button>
  );
}
