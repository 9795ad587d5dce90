import { t } from '../../utils/i18n';

interface Props {
  question: string;
  /** Empties the answer in the draft: the removal is sent with the other changes on Save. */
  onRemove(): void;
}

/**
 * "Remove answer": the stored answer is removed through Save, like every other change, so it is
 * counted in the save bar, can be discarded, and ends with the same confirmation: one way to change it.
 */
export function RemoveAnswer({ question, onRemove }: Props) {
  return (
    <button type="button" class="link-button" onClick={onRemove}>
      {t('clearAnswer')}
      <span class="visually-hidden"> {question}</span>
    </button>
  );
}
