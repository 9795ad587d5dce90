import { t } from '../../utils/i18n';
import type { VariableDefinition, VariableValue } from '../../utils/types';
import { editKind, isEmptyValue, optionId, optionIds, textValue } from '../../utils/variable-values';
import { CheckboxGroupEditor } from './CheckboxGroupEditor';
import { ClearValue } from './ClearValue';
import { RadioGroupEditor } from './RadioGroupEditor';
import { TextEditor } from './TextEditor';

interface Props {
  def: VariableDefinition;
  /** What the editor shows: the draft when edited, else the stored value. */
  value: VariableValue | undefined;
  stored: VariableValue | undefined;
  edited: boolean;
  error: string | undefined;
  onChange(value: VariableValue): void;
  onClear(): Promise<void>;
}

/** One question the panelist may answer, edited as design §4 says for its type. */
export function WritableField({ def, value, stored, edited, error, onChange, onClear }: Props) {
  const kind = editKind(def);
  const base = `var-${def.id}`;
  const showName = def.text.trim() !== def.name;
  const describedBy = [showName ? `${base}-name` : '', error ? `${base}-error` : ''].filter(Boolean).join(' ') || undefined;
  const invalid = Boolean(error);

  const details = (
    <>
      {showName && (
        <span id={`${base}-name`} class="var-name">
          {def.name}
        </span>
      )}
      {edited && <span class="tag">{t('unsavedTag')}</span>}
    </>
  );
  const footer = (
    <>
      {error && (
        <p id={`${base}-error`} class="field-error">
          {error}
        </p>
      )}
      {!isEmptyValue(stored) && <ClearValue question={def.text} onConfirm={onClear} />}
    </>
  );

  if (kind === 'text' || kind === 'date') {
    return (
      <div class={`field${edited ? ' edited' : ''}`}>
        <div class="field-head">
          <label for={base}>{def.text}</label>
          {details}
        </div>
        <TextEditor id={base} type={kind} value={textValue(value)} describedBy={describedBy} invalid={invalid} onChange={onChange} />
        {footer}
      </div>
    );
  }

  return (
    <fieldset class={`field${edited ? ' edited' : ''}`} aria-describedby={describedBy}>
      <legend>{def.text}</legend>
      <div class="field-head">{details}</div>
      {kind === 'single' ? (
        <RadioGroupEditor def={def} value={optionId(value)} invalid={invalid} onChange={onChange} />
      ) : (
        <CheckboxGroupEditor def={def} value={optionIds(value)} invalid={invalid} onChange={onChange} />
      )}
      {footer}
    </fieldset>
  );
}
