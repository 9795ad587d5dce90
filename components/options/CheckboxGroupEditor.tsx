import { t } from '../../utils/i18n';
import type { VariableDefinition } from '../../utils/types';
import { retiredLabel, toggleOption } from '../../utils/variable-values';
import { ChoiceList, type Choice } from './ChoiceList';

interface Props {
  def: VariableDefinition;
  /** The answer as heldChoices gives it: offered options by id, one no longer offered as the panel holds it. */
  value: Array<number | string>;
  invalid: boolean;
  onChange(ids: Array<number | string>): void;
}

/** A multiple-choice question; an exclusive option clears the others, and another clears it, on every change. */
export function CheckboxGroupEditor({ def, value, invalid, onChange }: Props) {
  const offered = def.options.map((option): Choice => ({
    key: option.id,
    id: `var-${def.id}-opt-${option.id}`,
    value: String(option.id),
    checked: value.includes(option.id),
    label: (
      <>
        {option.text}
        {option.exclusive && <span class="hint"> {t('clearsOthers')}</span>}
      </>
    ),
    onChange: (checked) => onChange(toggleOption(def, value, option.id, checked)),
  }));
  // An answer the panel no longer offers stays visible, so the panelist can untick it: the panel
  // refuses to save a value that holds it.
  const retired = value
    .filter((stored) => !def.options.some((option) => option.id === stored))
    .map((stored): Choice => ({
      key: `retired-${stored}`,
      id: `var-${def.id}-opt-${stored}`,
      value: String(stored),
      checked: true,
      label: (
        <>
          {retiredLabel(stored)}
          {/* "A choice no longer offered" says it already; the panel's own word needs saying. */}
          <span class="hint"> {t(typeof stored === 'number' ? 'retiredUntick' : 'optionRetired')}</span>
        </>
      ),
      onChange: () => onChange(value.filter((other) => other !== stored)),
    }));
  return <ChoiceList type="checkbox" invalid={invalid} choices={[...offered, ...retired]} />;
}
