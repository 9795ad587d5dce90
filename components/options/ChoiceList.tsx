import type { ComponentChildren } from 'preact';

export interface Choice {
  key: string | number;
  /** The input's id, which its label names. */
  id: string;
  value: string;
  checked: boolean;
  label: ComponentChildren;
  onChange(checked: boolean): void;
}

interface Props {
  type: 'checkbox' | 'radio';
  /** The radio group's name; a checkbox has none. */
  name?: string | undefined;
  invalid: boolean;
  choices: readonly Choice[];
}

/** A question's options, one input and its label each: the list the checkbox and radio editors share. */
export function ChoiceList({ type, name, invalid, choices }: Props) {
  return (
    <div class="choices">
      {choices.map((choice) => (
        <div class="choice" key={choice.key}>
          <input
            id={choice.id}
            type={type}
            name={name}
            value={choice.value}
            checked={choice.checked}
            aria-invalid={invalid || undefined}
            onChange={(e) => choice.onChange(e.currentTarget.checked)}
          />
          <label for={choice.id}>{choice.label}</label>
        </div>
      ))}
    </div>
  );
}
