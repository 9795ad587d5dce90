import type { Reward } from '../../utils/types';
import { goalModel, type GoalInput, type GoalModel } from './model/goal-model';
import { Qty } from './Qty';

export interface GoalPanelProps extends Omit<GoalInput, 'now'> {
  onRedeem(reward: Reward): void;
  /** Removes the goal (App sends it: this file is the first frame's too, which sends nothing). */
  onRemove(): void;
  /** Why the last Remove did not take (App holds it). */
  notice?: string | null;
  now?: number;
}

/** The points earned lately, and the goal with how far and how soon. */
export function GoalPanel({ onRedeem, onRemove, notice, now = Date.now(), ...input }: GoalPanelProps) {
  const { model, view } = goalModel({ ...input, now });
  return (
    <GoalPanelView
      m={model}
      onRedeem={'reward' in view ? () => onRedeem(view.reward) : undefined}
      onRemove={onRemove}
      notice={notice}
    />
  );
}

/**
 * The goal's markup, from its model alone: the first frame renders it too (first-frame/render-dom.ts),
 * so the two cannot differ.
 */
export function GoalPanelView({
  m,
  onRedeem,
  onRemove,
  notice,
}: {
  m: GoalModel;
  onRedeem?: (() => void) | undefined;
  onRemove?: () => void;
  /** Why the last Remove did not take; the first frame has none. */
  notice?: string | null;
}) {
  const goal = m.goal;
  return (
    <>
      {m.earned !== null && (
        <p class="goal-change muted small">
          <Qty text={m.earned} />
        </p>
      )}
      {goal && (
        <section class="goal" aria-labelledby="goal-heading">
          <div class="goal-top">
            <h2 id="goal-heading" class="goal-heading small muted">
              {goal.heading}
            </h2>
            {goal.bar && <progress value={goal.bar.value} max={goal.bar.max} aria-label={goal.bar.label} />}
            <button type="button" class="btn-link small" aria-label={goal.remove.label} onClick={onRemove}>
              {goal.remove.text}
            </button>
          </div>
          {goal.gone !== null ? (
            <p>
              <Qty text={goal.gone} />
            </p>
          ) : (
            <>
              {/* The name, and under it its figures: two lines, so no "·" is left at the end of one. */}
              {goal.name !== null && (
                <p class="goal-name small">
                  <strong>{goal.name}</strong> <span class="qty goal-figures">{goal.figures}</span>
                </p>
              )}
              {goal.status !== null && (
                <div class="goal-line">
                  <span id="goal-status" class={goal.held ? 'small muted' : 'small ok'}>
                    {goal.status}
                  </span>
                  {goal.redeem && (
                    <button
                      type="button"
                      class="btn btn-primary btn-small btn-redeem"
                      aria-label={goal.redeem.label}
                      aria-describedby={goal.held ? 'goal-status' : undefined}
                      disabled={goal.redeem.disabled}
                      onClick={onRedeem}
                    >
                      {goal.redeem.text}
                    </button>
                  )}
                </div>
              )}
            </>
          )}
          {goal.pace !== null && (
            <p class="goal-pace small muted">
              <Qty text={goal.pace} />
            </p>
          )}
          {notice && (
            <p class="error small" role="alert">
              {notice}
            </p>
          )}
        </section>
      )}
    </>
  );
}
