import { t } from '../../utils/i18n';
import type { VariableDefinition, VariableValue } from '../../utils/types';
import { describeValue } from '../../utils/variable-values';
import { questionText } from '../../utils/question-text';

interface Props {
  def: VariableDefinition;
  value: VariableValue | undefined;
  /** The panel holds an answer here in a shape this page cannot show: never "no answer stored". */
  unreadable?: boolean;
}

/**
 * A variable only the panel sets, or one it described in a shape the extension cannot mean
 * (`unreadable`, utils/api/records.ts): its stored value, shown as the panelist reads it, and why.
 */
export function ReadOnlyField({ def, value, unreadable = false }: Props) {
  const shown = describeValue(def, value);
  return (
    <div class="field read-only">
      <dt>{questionText(def)}</dt>
      <dd>
        <span class={shown ? 'value' : 'value empty'}>
          {shown || t(unreadable ? 'answerUnreadable' : 'noAnswerStored')}
        </span>
        <span class="hint">{t(def.unreadable ? 'questionUnreadable' : 'setByPanel')}</span>
      </dd>
    </div>
  );
}
