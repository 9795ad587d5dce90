import { t, tp } from '../../utils/i18n';

interface Props {
  changes: number;
  saving: boolean;
  canDiscard: boolean;
  onDiscard(): void;
}

/** The dirty indicator with Save and Discard; it stays in view while a long profile scrolls. */
export function SaveBar({ changes, saving, canDiscard, onDiscard }: Props) {
  return (
    <div class="save-bar">
      <span class={changes ? 'dirty' : 'clean'}>
        {changes ? tp('unsavedChanges', changes) : t('noUnsavedChanges')}
      </span>
      <span class="actions">
        <button type="button" disabled={!canDiscard || saving} onClick={onDiscard}>
          {t('discardChanges')}
        </button>
        <button type="submit" class="primary" disabled={!changes || saving}>
          {t(saving ? 'saving' : 'saveChanges')}
        </button>
      </span>
    </div>
  );
}
