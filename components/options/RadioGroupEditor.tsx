import { t } from '../../utils/i18n';
import type { VariableDefinition, VariableValue } from '../../utils/types';
import { heldOption, isEmptyValue, retiredLabel } from '../../utils/variable-values';
import { ChoiceList, type Choice } from './ChoiceList';

interface Props {
  def: VariableDefinition;
  /** The answer shown: an option's id, or its name as some panels store it; empty when none is chosen. */
  value: VariableValue | undefined;
  invalid: boolean;
  onChange(id: number): void;
}

/**
 * One option of a single-choice question; the surrounding fieldset names the group. The answer the
 * panel holds is always shown chosen: an option stored by its name is that option, and one the
 * panel no longer offers is listed after the others, chosen, until another is chosen or the answer
 * removed (as the checkbox editor does), never a group with nothing chosen for a question the
 * profile counts as answered.
 */
export function RadioGroupEditor({ def, value, invalid, onChange }: Props) {
  const item = isEmptyValue(value) ? null : Array.isArray(value) ? value[0] : value;
  const held = item === null || item === undefined ? null : heldOption(def, item);
  const choices = def.options.map((option): Choice => ({
    key: option.id,
    id: `var-${def.id}-opt-${option.id}`,
    value: String(option.id),
    checked: held !== null && 'offered' in held && held.offered.id === option.id,
    label: option.text,
    onChange: () => onChange(option.id),
  }));
  if (held && 'retired' in held)
    choices.push({
      key: 'retired',
      id: `var-${def.id}-opt-retired`,
      value: String(held.retired),
      checked: true,
      label: (
        <>
          {retiredLabel(held.retired)}
          <span class="hint">
            {' '}
            {t(typeof held.retired === 'number' ? 'retiredChooseAnother' : 'optionRetiredChoice')}
          </span>
        </>
      ),
      // Already chosen: choosing it again changes nothing.
      onChange: () => undefined,
    });
  return <ChoiceList type="radio" name={`var-${def.id}`} invalid={invalid} choices={choices} />;
}
