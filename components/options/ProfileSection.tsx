import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { t, tp } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { profileItem, syncItem } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { useStorageItem } from '../../utils/use-storage-item';
import type { AppError } from '../../utils/errors';
import { diffDraft, isEmptyValue, validateValues, valuesEqual } from '../../utils/variable-values';
import { ask } from './ask';
import { DraftDiscardedNotice } from './DraftDiscardedNotice';
import { errorText, plainMessage } from './error-text';
import { focusLater } from './focus-later';
import { ReadOnlyField } from './ReadOnlyField';
import { SaveBar } from './SaveBar';
import { useProfileDraft } from './use-profile-draft';
import { questionText } from '../../utils/question-text';
import { WritableField } from './WritableField';
import { SectionFeedback } from './SectionFeedback';

/** The profile editor (issue 4): writable questions first, then those only the panel sets. */
/**
 * Questions rendered at first and per "Show more": a panel with a thousand variables took over two
 * seconds to mount them all at once (benchmark), and a panelist works through them in order.
 */
export const PROFILE_PAGE = 100;

/** A text that ends as a sentence, so another can follow it. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

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
  const headingRef = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const saveStatus = useSignal('');
  const saveAlert = useSignal('');
  const saveStatusRef = useRef<HTMLParagraphElement>(null);
  const saveAlertRef = useRef<HTMLParagraphElement>(null);
  const focusTo = useSignal<{ target: 'problem' | 'alert' | 'status' } | null>(null);
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

  /**
   * Focus on the first question with a problem, with the whole question (its label above the
   * control) in view rather than just the control under the sticky save bar.
   */
  function focusFirstProblem() {
    reveal(Object.keys(fieldErrors.value));
    focusTo.value = { target: 'problem' };
  }

  // Focus moves once the outcome is rendered (the effect runs after that render), not on a timer.
  useEffect(() => {
    const request = focusTo.value;
    if (!request) return;
    if (request.target === 'problem') {
      const control = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      control?.focus({ preventScroll: true });
      control?.closest('.field')?.scrollIntoView?.({ block: 'center' });
    } else if (request.target === 'alert') {
      saveAlertRef.current?.focus();
    } else {
      // Save and Discard leave the bar with the changes: focus stays there, on the confirmation,
      // unless the panelist has already moved on.
      const active = document.activeElement;
      if (!active || active === document.body || (active as HTMLButtonElement).disabled) saveStatusRef.current?.focus();
    }
  }, [focusTo.value]);

  /**
   * A failed save. Per-question texts (a Laravel-style 422, or a refusal naming one question) go
   * next to their questions, with the panel's own message for the section; anything else is said
   * in the save bar, where Save was pressed. Every edit stays in the draft.
   */
  function showFailure(error: AppError, done: number, removalOf?: string) {
    const byName = error.fields && Object.keys(error.fields).length ? error.fields : error.field ? { [error.field]: error.message } : removalOf ? { [removalOf]: plainMessage(error) } : {};
    const known = Object.entries(byName).filter(([name]) => writable.some((d) => d.name === name));
    const unknown = Object.entries(byName).filter(([name]) => !writable.some((d) => d.name === name));
    const savedBefore = done ? `${tp('savedChanges', done)} ` : '';
    if (!known.length) {
      saveAlert.value = savedBefore + errorText(error);
      focusTo.value = { target: 'alert' };
      return;
    }
    fieldErrors.value = { ...fieldErrors.value, ...Object.fromEntries(known) };
    const def = definitions.find((d) => d.name === known[0]![0])!;
    let text: string;
    if (removalOf) text = t('notRemovedField', questionText(def), known[0]![1]);
    else if (error.fields && (known.length > 1 || unknown.length || error.message.trim() !== known[0]![1].trim()))
      text = t('nothingSavedMarked', sentence([error.message, ...unknown.map(([, text]) => text)].join(' ')));
    else text = t('nothingSavedField', questionText(def), known[0]![1]);
    saveAlert.value = savedBefore + text;
    focusFirstProblem();
  }

  /**
   * Save: the changed answers in one update, then each emptied answer as a removal (design §4
   * keeps an empty value out of an update). A refused update sends nothing more.
   */
  async function save(event: Event) {
    event.preventDefault();
    if (!changeCount || saving.value) return;
    saveStatus.value = '';
    saveAlert.value = '';
    const removals = Object.keys(changes).filter((name) => isEmptyValue(changes[name]));
    const writes = Object.fromEntries(Object.entries(changes).filter(([name]) => !removals.includes(name)));
    const problems = validateValues(definitions, writes);
    fieldErrors.value = problems;
    const problemCount = Object.keys(problems).length;
    if (problemCount) {
      saveAlert.value = tp('answersNeedAttention', problemCount);
      focusFirstProblem();
      return;
    }
    saving.value = true;
    const sent: string[] = [];
    // Only what was sent is forgotten: an edit made while saving stays in the draft.
    const forgetSent = () => {
      const current = draft.value ?? {};
      forget(sent.filter((name) => valuesEqual(current[name], changes[name])));
    };
    if (Object.keys(writes).length) {
      const result = await ask(() => sendMessage('saveValues', { values: writes }));
      if (!result.ok) {
        saving.value = false;
        showFailure(result.error, 0);
        return;
      }
      sent.push(...Object.keys(writes));
    }
    for (const name of removals) {
      const result = await ask(() => sendMessage('deleteValue', { name }));
      if (!result.ok) {
        saving.value = false;
        forgetSent();
        showFailure(result.error, sent.length, name);
        return;
      }
      sent.push(name);
    }
    saving.value = false;
    forgetSent();
    saveStatus.value = tp('savedChanges', sent.length);
    focusTo.value = { target: 'status' };
  }

  function discard() {
    forget();
    fieldErrors.value = {};
    saveAlert.value = '';
    saveStatus.value = t('changesDiscarded');
    focusTo.value = { target: 'status' };
  }

  function edit(def: VariableDefinition, value: StoredValues[string]) {
    set(def.name, value, stored[def.name]);
    saveStatus.value = '';
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
              />
            ))}
            <SaveBar
              changes={changeCount}
              saving={saving.value}
              canDiscard={Object.keys(edits).length > 0}
              onDiscard={discard}
              status={saveStatus.value}
              alert={saveAlert.value}
              statusRef={saveStatusRef}
              alertRef={saveAlertRef}
            />
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
        <h2 id="profile-heading" ref={headingRef} tabIndex={-1}>
          {t('profileHeading')}
        </h2>
        <button type="button" ref={reloadRef} disabled={loading} onClick={() => reload(true)}>
          {t(loading ? 'loading' : 'reloadProfile')}
        </button>
      </div>
      <p class="muted">{t('profileIntro')}</p>
      <DraftDiscardedNotice onDismissed={() => headingRef.current?.focus()} />
      <SectionFeedback status={status.value} alert={shownAlert} alertRef={alertRef} />
      {body}
    </section>
  );
}
