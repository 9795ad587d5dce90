import type { VariableDefinition } from '../../utils/types';

interface Props {
  def: VariableDefinition;
  /** The chosen option id, or null when none is. */
  value: number | null;
  invalid: boolean;
  onChange(id: number): void;
}

/** One option of a single-choice question; the surrounding fieldset names the group. */
export function RadioGroupEditor({ def, value, invalid, onChange }: Props) {
  return (
    <div class="choices">
      {def.options.map((option) => {
        const id = `var-${def.id}-opt-${option.id}`;
        return (
          <div class="choice" key={option.id}>
            <input
              id={id}
              type="radio"
              name={`var-${def.id}`}
              value={String(option.id)}
              checked={value === option.id}
              aria-invalid={invalid || undefined}
              onChange={() => onChange(option.id)}
            />
            <label for={id}>{option.text}</label>
          </div>
        );
      })}
    </div>
  );
}
