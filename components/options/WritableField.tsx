import { useRef } from 'preact/hooks';
import { t } from '../../utils/i18n';
import type { VariableDefinition, VariableValue } from '../../utils/types';
import { dateValue, editKind, heldChoices, isEmptyValue, textValue } from '../../utils/variable-values';
import { CheckboxGroupEditor } from './CheckboxGroupEditor';
import { questionText } from '../../utils/question-text';
import { RadioGroupEditor } from './RadioGroupEditor';
import { RemoveAnswer } from './RemoveAnswer';
import { TextEditor } from './TextEditor';
import { useSeen } from './use-new-questions';

interface Props {
  def: VariableDefinition;
  /** What the editor shows: the draft when edited, else the stored value. */
  value: VariableValue | undefined;
  stored: VariableValue | undefined;
  /** The panel holds an answer here in a shape this page cannot show: said, with what saving does. */
  unreadable?: boolean;
  edited: boolean;
  error: string | undefined;
  onChange(value: VariableValue): void;
  /** Added by the panel since the panelist last looked: tagged "New". */
  isNew?: boolean | undefined;
  /** Called once the question has been on screen while tagged "New". */
  onSeen?: (() => void) | undefined;
}

/** The empty answer that Save turns into a removal of the stored one. */
function emptyAnswer(def: VariableDefinition): VariableValue {
  return editKind(def) === 'multi' ? [] : '';
}

/**
 * One question the panelist may answer, edited as its type calls for (utils/variable-values.ts). Emptying it (or
 * "Remove answer") drafts the removal of the stored answer; Save sends it.
 */
export function WritableField({
  def,
  value,
  stored,
  unreadable = false,
  edited,
  error,
  onChange,
  isNew = false,
  onSeen,
}: Props) {
  const kind = editKind(def);
  const base = `var-${def.id}`;
  const question = questionText(def);
  const describedBy =
    [isNew && `${base}-new`, unreadable && `${base}-held`, error && `${base}-error`].filter(Boolean).join(' ') ||
    undefined;
  const invalid = Boolean(error);
  const removing = edited && isEmptyValue(value) && !isEmptyValue(stored);
  const root = useRef<HTMLDivElement & HTMLFieldSetElement>(null);
  useSeen(root, isNew, onSeen);

  const details = (isNew || edited) && (
    <>
      {isNew && (
        <span id={`${base}-new`} class="tag tag-new">
          {t('newTag')}
        </span>
      )}
      {edited && <span class="tag">{t(removing ? 'willBeRemoved' : 'unsavedTag')}</span>}
    </>
  );
  const footer = (
    <>
      {unreadable && (
        <p id={`${base}-held`} class="hint">
          {t('answerUnreadableEdit')}
        </p>
      )}
      {error && (
        <p id={`${base}-error`} class="field-error">
          {error}
        </p>
      )}
      {!isEmptyValue(value) && !isEmptyValue(stored) && (
        <RemoveAnswer
          question={question}
          onRemove={() => {
            onChange(emptyAnswer(def));
            // The button goes with the answer; keyboard focus stays on the same question.
            requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${base}, [id^="${base}-opt-"]`)?.focus());
          }}
        />
      )}
    </>
  );

  if (kind === 'text' || kind === 'date') {
    return (
      <div class={`field${edited ? ' edited' : ''}`} ref={root}>
        <div class="field-head">
          <label for={base}>{question}</label>
          {details}
        </div>
        <TextEditor
          id={base}
          type={kind}
          value={kind === 'date' ? dateValue(value) : textValue(value)}
          describedBy={describedBy}
          invalid={invalid}
          onChange={onChange}
        />
        {footer}
      </div>
    );
  }

  return (
    <fieldset class={`field${edited ? ' edited' : ''}`} aria-describedby={describedBy} ref={root}>
      <legend>{question}</legend>
      {details && <div class="field-head">{details}</div>}
      {kind === 'single' ? (
        <RadioGroupEditor def={def} value={value} invalid={invalid} onChange={onChange} />
      ) : (
        <CheckboxGroupEditor def={def} value={heldChoices(def, value)} invalid={invalid} onChange={onChange} />
      )}
      {footer}
    </fieldset>
  );
}
