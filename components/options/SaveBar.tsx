import type { Ref } from 'preact';
import { t, tp } from '../../utils/i18n';
import type { Alert } from './error-text';
import { AlertView } from './SectionFeedback';

interface Props {
  changes: number;
  saving: boolean;
  canDiscard: boolean;
  onDiscard(): void;
  /** The outcome of the last Save or Discard, announced politely where the panelist pressed it. */
  status: string;
  /** A Save failure that no single question explains (no connection, not allowed…). */
  alert: Alert | null;
  statusRef: Ref<HTMLParagraphElement>;
  alertRef: Ref<HTMLParagraphElement>;
}

/**
 * The dirty indicator with Save and Discard, and what became of the last Save: it stays in view
 * while a long profile scrolls, so the confirmation is seen where the button was. It
 * shows only once something changed, or to tell what became of a change, so an untouched page is quiet; until then only
 * its live regions are there, empty, so what they say later is announced.
 */
export function SaveBar({ changes, saving, canDiscard, onDiscard, status, alert, statusRef, alertRef }: Props) {
  const dirty = changes > 0 || canDiscard;
  const shown = dirty || status !== '' || Boolean(alert?.text);
  return (
    <div class={shown ? `save-bar ${dirty ? 'dirty' : 'clean'}` : 'save-bar-idle'}>
      <div class="save-state">
        {dirty && <span class="count">{changes ? tp('unsavedChanges', changes) : t('noUnsavedChanges')}</span>}
        <p role="status" class="save-status" ref={statusRef} tabIndex={-1}>
          {status}
        </p>
        <AlertView alert={alert} alertRef={alertRef} />
      </div>
      {dirty && (
        <span class="actions">
          <button type="button" disabled={!canDiscard || saving} onClick={onDiscard}>
            {t('discardChanges')}
          </button>
          <button type="submit" class="primary" disabled={!changes || saving}>
            {t(saving ? 'saving' : 'saveChanges')}
          </button>
        </span>
      )}
    </div>
  );
}
