import type { Signal } from '@preact/signals';
import type { Ref } from 'preact';
import { hasName, named } from '../../utils/by-name';
import { t, tp } from '../../utils/i18n';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import type { Alert } from './error-text';
import { ReadOnlyField } from './ReadOnlyField';
import { SaveBar } from './SaveBar';
import type { NewQuestions } from './use-new-questions';
import type { ProfileSave } from './use-profile-save';
import { WritableField } from './WritableField';
import { useShowMoreFocus } from '../popup/use-show-more';

/**
 * Questions rendered at first and per "Show more": a panel with a thousand variables took over two
 * seconds to mount them all at once (benchmark), and a panelist works through them in order.
 */
export const PROFILE_PAGE = 100;

interface Props {
  formRef: Ref<HTMLFormElement>;
  /** The writable questions the filter lets through, in the panel's order. */
  filtered: VariableDefinition[];
  /** Questions only the panel sets, shown after the writable ones (none while filtering). */
  readOnly: VariableDefinition[];
  /** How many questions are rendered so far; "Show more" adds a page. */
  shown: Signal<number>;
  stored: StoredValues;
  /** Names whose stored answer the panel holds in a shape this page cannot show (ProfileData). */
  unreadable: readonly string[];
  edits: StoredValues;
  /** The answers that differ from the stored ones: what Save sends. */
  changes: StoredValues;
  /** Questions still unanswered: only those can be tagged *New*. */
  open: Set<string>;
  saver: ProfileSave;
  fresh: NewQuestions;
  onEdit(def: VariableDefinition, value: StoredValues[string]): void;
  onSave(event: Event): void;
  onDiscard(): void;
  saveStatus: string;
  saveAlert: Alert | null;
  saveStatusRef: Ref<HTMLParagraphElement>;
  saveAlertRef: Ref<HTMLParagraphElement>;
}

/** The profile as a list: every writable question with one Save, then those only the panel sets. */
export function ProfileQuestions({
  formRef,
  filtered,
  readOnly,
  shown,
  stored,
  unreadable,
  edits,
  changes,
  open,
  saver,
  fresh,
  onEdit,
  onSave,
  onDiscard,
  saveStatus,
  saveAlert,
  saveStatusRef,
  saveAlertRef,
}: Props) {
  const hidden = filtered.length + readOnly.length - shown.value;
  const held = new Set(unreadable);
  // Each question, writable or not, is a `.field` of the profile's section, in the order shown.
  const showingMore = useShowMoreFocus(
    () => document.getElementById('profile')?.querySelectorAll('.field'),
    Math.min(shown.value, filtered.length + readOnly.length),
  );

  const field = (def: VariableDefinition) => (
    <WritableField
      key={def.name}
      def={def}
      value={hasName(edits, def.name) ? named(edits, def.name) : named(stored, def.name)}
      stored={named(stored, def.name)}
      unreadable={held.has(def.name)}
      edited={hasName(changes, def.name)}
      error={named(saver.fieldErrors.value, def.name)}
      onChange={(value) => onEdit(def, value)}
      isNew={open.has(def.name) && fresh.isNew(def.name)}
      onSeen={() => fresh.seen(def.name)}
    />
  );

  return (
    <>
      {filtered.length > 0 && (
        <form ref={formRef} onSubmit={onSave} noValidate aria-labelledby="profile-writable-heading">
          <h3 id="profile-writable-heading">{t('writableHeading')}</h3>
          {filtered.slice(0, shown.value).map(field)}
          <SaveBar
            changes={Object.keys(changes).length}
            saving={saver.saving.value}
            canDiscard={Object.keys(edits).length > 0}
            onDiscard={onDiscard}
            status={saveStatus}
            alert={saveAlert}
            statusRef={saveStatusRef}
            alertRef={saveAlertRef}
          />
        </form>
      )}
      {readOnly.length > 0 && (
        <>
          <h3>{t('readOnlyHeading')}</h3>
          <dl class="read-only-list">
            {readOnly.slice(0, Math.max(0, shown.value - filtered.length)).map((def) => (
              <ReadOnlyField key={def.name} def={def} value={named(stored, def.name)} unreadable={held.has(def.name)} />
            ))}
          </dl>
        </>
      )}
      {hidden > 0 && (
        <button
          type="button"
          class="more"
          onClick={() => {
            showingMore();
            shown.value += PROFILE_PAGE;
          }}
        >
          {tp('showMoreQuestions', Math.min(hidden, PROFILE_PAGE))}
        </button>
      )}
    </>
  );
}
