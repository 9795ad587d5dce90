import type { VariableDefinition } from '../../utils/types';
import { ChoiceList } from './ChoiceList';

interface Props {
  def: VariableDefinition;
  /** The chosen option id, or null when none is. */
  value: number | null;
  invalid: boolean;
  onChange(id: number): void;
}

/** One option of a single-choice question; the surrounding fieldset names the group. */
export function RadioGroupEditor({ def, value, invalid, onChange }: Props) {
  const choices = def.options.map((option) => ({
    key: option.id,
    id: `var-${def.id}-opt-${option.id}`,
    value: String(option.id),
    checked: value === option.id,
    label: option.text,
    onChange: () => onChange(option.id),
  }));
  return <ChoiceList type="radio" name={`var-${def.id}`} invalid={invalid} choices={choices} />;
}
