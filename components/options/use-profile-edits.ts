import { useSignal } from '@preact/signals';
import type { RefObject } from 'preact';
import { useRef } from 'preact/hooks';
import { byName, entriesOf, named } from '../../utils/by-name';
import { t, tp } from '../../utils/i18n';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { diffDraft } from '../../utils/variable-values';
import type { Alert } from './error-text';
import type { ProfileDraft } from './use-profile-draft';
import { useProfileFocus } from './use-profile-focus';
import type { ProfileSave } from './use-profile-save';

interface Inputs {
  writable: VariableDefinition[];
  stored: StoredValues;
  draft: ProfileDraft;
  saver: ProfileSave;
  heading: RefObject<HTMLHeadingElement | null>;
  /** Shows the questions up to `index` (a question with a problem may lie past those rendered). */
  reveal(index: number): void;
  filtered: VariableDefinition[];
}

/**
 * The list's edits and its one Save: what changed, saving it, discarding it, and where focus and
 * the words go after each. Nothing typed is lost on an error: the draft keeps it until saved.
 */
export function useProfileEdits({ writable, stored, draft, saver, heading, reveal, filtered }: Inputs) {
  const status = useSignal('');
  const alert = useSignal<Alert | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const focus = useProfileFocus({ form: formRef, heading, saveStatus: statusRef, saveAlert: alertRef });
  const edits = draft.draft.value ?? byName();
  // Edits to questions the panel no longer asks (or no longer lets the panelist change) are ignored.
  const changes = diffDraft(byName(entriesOf(edits).filter(([name]) => writable.some((d) => d.name === name))), stored);

  async function save(event: Event) {
    event.preventDefault();
    if (!Object.keys(changes).length || saver.saving.value) return;
    status.value = '';
    alert.value = null;
    const outcome = await saver.save(changes);
    if (outcome.ok) {
      status.value = tp('savedChanges', outcome.saved);
      return focus('status');
    }
    alert.value = outcome.alert;
    const names = outcome.fields ? Object.keys(saver.fieldErrors.value) : [];
    reveal(Math.max(-1, ...names.map((name) => filtered.findIndex((d) => d.name === name))));
    focus(outcome.fields ? 'problem' : 'alert');
  }

  function discard() {
    draft.forget();
    saver.fieldErrors.value = byName();
    alert.value = null;
    status.value = t('changesDiscarded');
    focus('status');
  }

  function edit(def: VariableDefinition, value: StoredValues[string]) {
    draft.set(def.name, value, named(stored, def.name));
    status.value = '';
    saver.clearError(def.name);
  }

  return {
    edits,
    changes,
    save,
    discard,
    edit,
    focus,
    questions: {
      formRef,
      saveStatus: status.value,
      saveAlert: alert.value,
      saveStatusRef: statusRef,
      saveAlertRef: alertRef,
      onSave: (event: Event) => void save(event),
      onDiscard: discard,
      onEdit: edit,
    },
  };
}
