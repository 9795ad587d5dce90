import type { ComponentChildren } from 'preact';
import { RewardImage } from './RewardImage';
import { Qty } from './Qty';
import type { RowModel } from './model/row-model';

interface ViewProps {
  m: RowModel;
  /** The open details (ListRow.tsx); the first frame has none to show. */
  details?: ComponentChildren;
  onToggle?: () => void;
  onChoose?: (id: string) => void;
  onChoiceFocus?: (() => void) | undefined;
  onGoal?: () => void;
  onRedeem?: () => void;
  /** Why the goal toggle's last press did not take (ListRow.tsx); the first frame has none. */
  notice?: string | null;
}

/**
 * One row's markup, from its model alone: the first frame renders it too (first-frame/render-dom.ts),
 * so the two cannot differ. No state here: that is ListRow's.
 * The name is the button that opens the details (a disclosure named by the reward, as headings of
 * an accordion are), and its click area is the whole top of the row;
 * the details open between it and the row's one Redeem, which so stays at the end, where the panelist looks for it:
 * beside its goal toggle at the row's end edge, whatever the width and the language.
 */
export function RowView({ m, details, onToggle, onChoose, onChoiceFocus, onGoal, onRedeem, notice }: ViewProps) {
  return (
    <li class="reward">
      <div class="reward-main">
        <RewardImage image={m.image} tile={m.tile} />
        <div class="reward-body">
          <h3 class="reward-name">
            <button
              type="button"
              class="reward-open"
              aria-expanded={m.details.open}
              aria-controls={`${m.base}-details`}
              onClick={onToggle}
            >
              {m.name}
            </button>
          </h3>
          {/* The value: a reward's money and points, or a brand's picker of its values, beside the kind. */}
          <p class="reward-meta">
            <span class="tag">{m.kind}</span>{' '}
            {/* The money and the points, one unit: where they do not fit beside the kind, both go to the next line. */}
            <span class="reward-value">
              <Qty text={m.money} />
              {m.points !== null && (
                <>
                  {' · '}
                  <strong class="qty">{m.points}</strong>
                </>
              )}
            </span>
            {m.choice && <ValueSelect m={m.choice} onFocus={onChoiceFocus} onChoose={onChoose} />}
          </p>
          {m.bar && <progress value={m.bar.value} max={m.bar.max} aria-label={m.bar.label} />}
        </div>
      </div>
      <div id={`${m.base}-details`} class="reward-details" hidden={!m.details.open}>
        {details}
      </div>
      {/* What is in the way, then the row's one action: the goal toggle and Redeem kept together at the row's end. */}
      <div class="reward-foot">
        <span id={m.status.id ?? undefined} class={m.status.class}>
          <Qty text={m.status.text} />
        </span>
        <span class="reward-actions">
          <button
            type="button"
            class="goal-toggle"
            aria-pressed={m.goal.pressed}
            aria-label={m.goal.label}
            onClick={onGoal}
          >
            <span class="goal-star" aria-hidden="true">
              {m.goal.pressed ? '★' : '☆'}
            </span>{' '}
            {m.goal.text}
          </button>
          <RedeemButton {...m.redeem} onClick={onRedeem} />
        </span>
      </div>
      {notice && (
        <p class="error small" role="alert">
          {notice}
        </p>
      )}
    </li>
  );
}

/** A brand's value picker: its values in the brand's order, the chosen one selected. */
function ValueSelect({
  m,
  onFocus,
  onChoose,
}: {
  m: NonNullable<RowModel['choice']>;
  onFocus?: (() => void) | undefined;
  onChoose?: ((id: string) => void) | undefined;
}) {
  return (
    <select
      id={m.id}
      class="reward-choice"
      aria-label={m.label}
      value={m.value}
      onFocus={onFocus}
      onChange={(e) => onChoose?.(e.currentTarget.value)}
    >
      {m.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.text}
        </option>
      ))}
    </select>
  );
}

function RedeemButton({
  label,
  text,
  disabled,
  describedBy,
  onClick,
}: RowModel['redeem'] & { onClick?: (() => void) | undefined }) {
  return (
    <button
      type="button"
      class="btn btn-primary btn-small btn-redeem"
      aria-label={label}
      aria-describedby={describedBy ?? undefined}
      disabled={disabled}
      onClick={onClick}
    >
      {text}
    </button>
  );
}
