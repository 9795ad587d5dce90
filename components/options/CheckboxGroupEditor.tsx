import { t } from '../../utils/i18n';
import type { VariableDefinition } from '../../utils/types';
import { toggleOption } from '../../utils/variable-values';

interface Props {
  def: VariableDefinition;
  value: number[];
  invalid: boolean;
  onChange(ids: number[]): void;
}

/** A multiple-choice question; an exclusive option clears the others, and another clears it, on every change. */
export function CheckboxGroupEditor({ def, value, invalid, onChange }: Props) {
  return (
    <div class="choices">
      {def.options.map((option) => {
        const id = `var-${def.id}-opt-${option.id}`;
        return (
          <div class="choice" key={option.id}>
            <input
              id={id}
              type="checkbox"
              value={String(option.id)}
              checked={value.includes(option.id)}
              aria-invalid={invalid || undefined}
              onChange={(e) => onChange(toggleOption(def, value, option.id, e.currentTarget.checked))}
            />
            <label for={id}>
              {option.text}
              {option.exclusive && <span class="hint"> {t('clearsOthers')}</span>}
            </label>
          </div>
        );
      })}
      {/* An answer the panel no longer offers stays visible, so the panelist can untick it: the
          panel refuses to save a value that holds it. */}
      {value
        .filter((stored) => !def.options.some((option) => option.id === stored))
        .map((stored) => {
          const id = `var-${def.id}-opt-${stored}`;
          return (
            <div class="choice" key={`retired-${stored}`}>
              <input
                id={id}
                type="checkbox"
                value={String(stored)}
                checked
                aria-invalid={invalid || undefined}
                onChange={() => onChange(value.filter((other) => other !== stored))}
              />
              <label for={id}>
                {t('optionNumber', stored)}
                <span class="hint"> {t('optionRetired')}</span>
              </label>
            </div>
          );
        })}
    </div>
  );
}
