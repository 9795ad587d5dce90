import type { Reward } from '../../utils/types';
import { goalModel, type GoalInput, type GoalModel } from './goal-model';
import { send as sendMessage } from './send';

export interface GoalPanelProps extends Omit<GoalInput, 'now'> {
  onRedeem(reward: Reward): void;
  now?: number;
}

const clear = () => void sendMessage('setGoal', { rewardId: null }).catch(() => undefined);

/** Issue 11: the 30-day change under the balance, and the goal with how far and how fast. */
export function GoalPanel({ onRedeem, now = Date.now(), ...input }: GoalPanelProps) {
  const { m, view } = goalModel({ ...input, now });
  return <GoalPanelView m={m} onRedeem={'reward' in view ? () => onRedeem(view.reward) : undefined} onRemove={clear} />;
}

/** The goal's markup, from its model alone: the first frame's template renders it too (issue 19). */
export function GoalPanelView({ m, onRedeem, onRemove }: { m: GoalModel; onRedeem?: (() => void) | undefined; onRemove?: () => void }) {
  const goal = m.goal;
  const remove = goal && (
    <button type="button" class="btn btn-quiet btn-small" aria-label={goal.remove.label} onClick={onRemove}>
      {goal.remove.text}
    </button>
  );
  return (
    <>
      {m.change !== null && <p class="goal-change muted small">{m.change}</p>}
      {goal && (
        <section class="goal" aria-labelledby="goal-heading">
          <h2 id="goal-heading" class="goal-heading small muted">
            {goal.heading}
          </h2>
          {goal.gone !== null ? (
            <p class="goal-line">
              <span>{goal.gone}</span>
              {remove}
            </p>
          ) : (
            <>
              <p class="goal-name">
                <strong>{goal.name}</strong> · {goal.points}
              </p>
              {goal.bar && <progress value={goal.bar.value} max={goal.bar.max} aria-label={goal.bar.label} />}
              <div class="goal-line">
                {goal.status && <span class={goal.status.class}>{goal.status.text}</span>}
                {goal.redeem && (
                  <button
                    type="button"
                    class="btn btn-primary btn-small"
                    aria-label={goal.redeem.label}
                    disabled={goal.redeem.disabled}
                    title={goal.redeem.title ?? undefined}
                    onClick={onRedeem}
                  >
                    {goal.redeem.text}
                  </button>
                )}
                {remove}
              </div>
              {goal.pace !== null && <p class="small muted">{goal.pace}</p>}
            </>
          )}
        </section>
      )}
    </>
  );
}
