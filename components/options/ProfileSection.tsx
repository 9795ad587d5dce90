import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { t, tp } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { profileItem, syncItem } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { useStorageItem } from '../../utils/use-storage-item';
import { diffDraft, validateValues, valuesEqual } from '../../utils/variable-values';
import { ask } from './ask';
import { errorText } from './error-text';
import { focusLater } from './focus-later';
import { ReadOnlyField } from './ReadOnlyField';
import { SaveBar } from './SaveBar';
import { useProfileDraft } from './use-profile-draft';
import { WritableField } from './WritableField';
import { SectionFeedback } from './SectionFeedback';

/** The profile editor (issue 4): writable questions first, then those only the panel sets. */
/**
 * Questions rendered at first and per "Show more": a panel with a thousand variables took over two
 * seconds to mount them all at once (benchmark), and a panelist works through them in order.
 */
export const PROFILE_PAGE = 100;

export function ProfileSection() {
  const profile = useStorageItem(profileItem);
  const sync = useStorageItem(syncItem);
  const { draft, set, forget } = useProfileDraft();
  const fieldErrors = useSignal<Record<string, string>>({});
  const status = useSignal('');
  const alert = useSignal('');
  const saving = useSignal(false);
  const reloading = useSignal(false);
  const formRef = useRef<HTMLFormElement>(null);
  const reloadRef = useRef<HTMLButtonElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const shown = useSignal(PROFILE_PAGE);

  async function reload(force: boolean) {
    reloading.value = true;
    const result = await ask(() => sendMessage('refreshProfile', { force }));
    reloading.value = false;
    alert.value = result.ok ? '' : errorText(result.error);
    if (result.ok && force) status.value = t('profileUpdated');
    if (force) focusLater(() => (result.ok ? reloadRef.current : alertRef.current), result.ok);
  }

  useEffect(() => {
    void reload(false);
  }, []);

  const data = profile.value?.data;
  const definitions = data?.definitions ?? [];
  const stored: StoredValues = data?.values ?? {};
  const writable = definitions.filter((d) => d.writable);
  const readOnly = definitions.filter((d) => !d.writable);
  const edits = draft.value ?? {};
  // Edits to questions the panel no longer asks (or no longer lets the panelist change) are ignored.
  const changes = diffDraft(
    Object.fromEntries(Object.entries(edits).filter(([name]) => writable.some((d) => d.name === name))),
    stored,
  );
  const changeCount = Object.keys(changes).length;
  const syncError = sync.value?.profile.error;
  const loading = reloading.value || Boolean(sync.value?.profile.loading);

  /** Questions with a problem are shown even if they lie past the questions rendered so far. */
  function reveal(names: string[]) {
    const last = Math.max(-1, ...names.map((name) => writable.findIndex((d) => d.name === name)));
    if (last >= shown.value) shown.value = last + 1;
  }

  function focusFirstProblem() {
    reveal(Object.keys(fieldErrors.value));
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  function showRefusal(message: string, name: string | undefined) {
    const def = definitions.find((d) => d.name === name);
    if (def && name) {
      fieldErrors.value = { ...fieldErrors.value, [name]: message };
      alert.value = t('nothingSavedField', def.text, message);
      focusFirstProblem();
    } else {
      alert.value = message;
    }
  }

  async function save(event: Event) {
    event.preventDefault();
    if (!changeCount || saving.value) return;
    status.value = '';
    const problems = validateValues(definitions, changes);
    fieldErrors.value = problems;
    const problemCount = Object.keys(problems).length;
    if (problemCount) {
      alert.value = tp('answersNeedAttention', problemCount);
      focusFirstProblem();
      return;
    }
    alert.value = '';
    saving.value = true;
    const result = await ask(() => sendMessage('saveValues', { values: changes }));
    saving.value = false;
    if (!result.ok) {
      const { error } = result;
      showRefusal(error.kind === 'rejected' ? error.message : errorText(error), error.field);
      return;
    }
    // Only what was sent is forgotten: an edit made while saving stays in the draft.
    const current = draft.value ?? {};
    forget(Object.keys(changes).filter((name) => valuesEqual(current[name], changes[name])));
    status.value = tp('savedChanges', changeCount);
  }

  async function clear(def: VariableDefinition) {
    status.value = '';
    alert.value = '';
    const result = await ask(() => sendMessage('deleteValue', { name: def.name }));
    if (!result.ok) {
      showRefusal(result.error.kind === 'rejected' ? result.error.message : errorText(result.error), result.error.field ?? def.name);
      return;
    }
    forget([def.name]);
    const { [def.name]: _, ...rest } = fieldErrors.value;
    fieldErrors.value = rest;
    status.value = t('removedAnswer', def.text);
    // The Clear control disappears with the value; keep keyboard focus on the same question.
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>(`#var-${def.id}, [id^="var-${def.id}-opt-"]`)?.focus(),
    );
  }

  function discard() {
    forget();
    fieldErrors.value = {};
    alert.value = '';
    status.value = t('changesDiscarded');
  }

  function edit(def: VariableDefinition, value: StoredValues[string]) {
    set(def.name, value, stored[def.name]);
    if (fieldErrors.value[def.name]) {
      const { [def.name]: _, ...rest } = fieldErrors.value;
      fieldErrors.value = rest;
    }
  }

  const hidden = definitions.length - shown.value;
  let body;
  if (!data || draft.value === undefined) {
    body = <p class="muted">{t(loading || profile.value === undefined ? 'profileLoading' : 'profileNotLoaded')}</p>;
  } else if (!definitions.length) {
    body = <p class="muted">{t('profileNoQuestions')}</p>;
  } else {
    body = (
      <>
        {writable.length > 0 && (
          <form ref={formRef} onSubmit={save} noValidate aria-labelledby="profile-writable-heading">
            <h3 id="profile-writable-heading">{t('writableHeading')}</h3>
            {writable.slice(0, shown.value).map((def) => (
              <WritableField
                key={def.name}
                def={def}
                value={def.name in edits ? edits[def.name] : stored[def.name]}
                stored={stored[def.name]}
                edited={def.name in changes}
                error={fieldErrors.value[def.name]}
                onChange={(value) => edit(def, value)}
                onClear={() => clear(def)}
              />
            ))}
            <SaveBar changes={changeCount} saving={saving.value} canDiscard={Object.keys(edits).length > 0} onDiscard={discard} />
          </form>
        )}
        {readOnly.length > 0 && (
          <>
            <h3>{t('readOnlyHeading')}</h3>
            <dl class="read-only-list">
              {readOnly.slice(0, Math.max(0, shown.value - writable.length)).map((def) => (
                <ReadOnlyField key={def.name} def={def} value={stored[def.name]} />
              ))}
            </dl>
          </>
        )}
        {hidden > 0 && (
          <button type="button" class="more" onClick={() => (shown.value += PROFILE_PAGE)}>
            {tp('showMoreQuestions', Math.min(hidden, PROFILE_PAGE))}
          </button>
        )}
      </>
    );
  }

  const shownAlert = alert.value || (syncError && !loading ? errorText(syncError) : '');
  return (
    <section class="card" aria-labelledby="profile-heading">
      <div class="section-head">
        <h2 id="profile-heading">{t('profileHeading')}</h2>
        <button type="button" ref={reloadRef} disabled={loading} onClick={() => reload(true)}>
          {t(loading ? 'loading' : 'reloadProfile')}
        </button>
      </div>
      <p class="muted">{t('profileIntro')}</p>
      <SectionFeedback status={status.value} alert={shownAlert} alertRef={alertRef} />
      {body}
    </section>
  );
}
