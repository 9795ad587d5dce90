import type { ComponentChildren } from 'preact';
import { useContext, useState } from 'preact/hooks';
import { defaultChoice, valueChoices, type RewardGroup, type ValueChoice } from '../../utils/reward-groups';
import type { Reward } from '../../utils/types';
import { send as sendMessage } from './send';
import { GoalContext } from './goal-context';
import { LazyDetails } from './lazy/LazyDetails';
import { RewardImage } from './RewardImage';
import { Qty } from './Qty';
import { rowModel, valueText, type RowModel } from './model/row-model';
import { rewardIdOf, type RewardId } from '../../utils/ids';

interface Props {
  group: RewardGroup;
  balance: number | null;
  /** Another redemption is pending: the one banner above the list says so once, not each row. */
  blocked: boolean;
  /** Rewards with a redemption still being checked. */
  held: readonly RewardId[];
  onRedeem: (reward: Reward) => void;
  /** The brand's values are only partly at hand (the popup view): asks for the whole catalogue. */
  onWantAll?: (() => void) | undefined;
}

export function RewardRow({ group, balance, blocked, held, onRedeem, onWantAll }: Props) {
  const [open, setOpen] = useState(false);
  const goal = useContext(GoalContext);
  const [chosen, setChosen] = useState<RewardId | null>(null);
  const choice = group.rewards.find((r) => r.id === chosen) ?? defaultChoice(group, goal);
  // As the model has them (row-model.ts): alike variants once, those alike but for the country named by it.
  const choices = valueChoices(group.rewards, [goal, choice.id, ...held]);
  const option = (c: ValueChoice) => (
    <option key={String(c.reward.id)} value={String(c.reward.id)}>
      {valueText(c)}
    </option>
  );
  const at = choices.findIndex((c) => c.reward === choice);
  return (
    <RowView
      m={rowModel({ group, choice, balance, blocked, goal, held, open })}
      reward={choice}
      onToggle={() => setOpen(!open)}
      onChoose={(id) => setChosen(rewardIdOf(id))}
      onChoiceFocus={onWantAll}
      // The background stores the choice, which the popup then shows.
      onGoal={() =>
        void sendMessage('setGoal', { rewardId: goal === choice.id ? null : choice.id }).catch(() => undefined)
      }
      onRedeem={() => onRedeem(choice)}
      before={choices.slice(0, at).map(option)}
      after={choices.slice(at + 1).map(option)}
    />
  );
}

interface ViewProps {
  m: RowModel;
  /** Absent in the first frame's template, which has no details to show. */
  reward?: Reward;
  /** The brand's other values, before and after the chosen one, in the brand's order (the model holds only the chosen). */
  before?: ComponentChildren;
  after?: ComponentChildren;
  onToggle?: () => void;
  onChoose?: (id: string) => void;
  onChoiceFocus?: (() => void) | undefined;
  onGoal?: () => void;
  onRedeem?: () => void;
  /** In the first frame's template: where the value picker's own template goes, so it multiplies no row shape. */
  choiceSlot?: ComponentChildren;
}

/**
 * One row's markup, from its model alone: the first frame's template renders it too, so the two cannot differ.
 * The name is the button that opens the details (a disclosure named by the reward, as headings of
 * an accordion are), and its click area is the whole top of the row;
 * the details open between it and the row's one Redeem, which so stays at the end, where the panelist looks for it:
 * beside its goal toggle at the row's end edge, whatever the width and the language.
 */
export function RowView({
  m,
  reward,
  before,
  after,
  onToggle,
  onChoose,
  onChoiceFocus,
  onGoal,
  onRedeem,
  choiceSlot,
}: ViewProps) {
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
            {choiceSlot ??
              (m.choice && (
                <ValueSelect
                  m={m.choice}
                  live={reward !== undefined}
                  before={before}
                  after={after}
                  onFocus={onChoiceFocus}
                  onChoose={onChoose}
                />
              ))}
          </p>
          {m.bar && <progress value={m.bar.value} max={m.bar.max} aria-label={m.bar.label} />}
        </div>
      </div>
      <div id={`${m.base}-details`} class="reward-details" hidden={!m.details.open}>
        {m.details.open && reward && <LazyDetails reward={reward} />}
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
    </li>
  );
}

/** A brand's value picker: the chosen value, with the brand's others before and after it. */
export function ValueSelect({
  m,
  live = false,
  before,
  after,
  onFocus,
  onChoose,
}: {
  m: NonNullable<RowModel['choice']>;
  /** Preact's own, not the first frame's copy. */
  live?: boolean;
  before?: ComponentChildren;
  after?: ComponentChildren;
  onFocus?: (() => void) | undefined;
  onChoose?: ((id: string) => void) | undefined;
}) {
  return (
    <select
      id={m.id}
      class="reward-choice"
      aria-label={m.label}
      // As a property (not a `selected` attribute), so the first frame's copy, where the chosen is the first, stays as painted.
      value={live ? m.value : undefined}
      onFocus={onFocus}
      onChange={(e) => onChoose?.(e.currentTarget.value)}
    >
      {before}
      <option key={m.value} value={m.value}>
        {m.text}
      </option>
      {after}
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
