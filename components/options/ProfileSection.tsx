import { useSignal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { byName, entriesOf, hasName, named } from '../../utils/by-name';
import { t, tp } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { completeness } from '../../utils/profile-completeness';
import { answerTarget } from '../../utils/profile-link';
import { profileItem, syncItem } from '../../utils/storage-items';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { useStorageItem } from '../../utils/use-storage-item';
import { diffDraft } from '../../utils/variable-values';
import { AnswerFlow } from './AnswerFlow';
import { ask } from './ask';
import { DraftDiscardedNotice } from './DraftDiscardedNotice';
import { alertOf, type Alert } from './error-text';
import { focusLater } from './focus-later';
import { ProfileProgress } from './ProfileProgress';
import { ReadOnlyField } from './ReadOnlyField';
import { SaveBar } from './SaveBar';
import { SectionFeedback } from './SectionFeedback';
import { useNewQuestions } from './use-new-questions';
import { useProfileDraft } from './use-profile-draft';
import { useProfileSave } from './use-profile-save';
import { WritableField } from './WritableField';

/**
 * Questions rendered at first and per "Show more": a panel with a thousand variables took over two
 * seconds to mount them all at once (benchmark), and a panelist works through them in order.
 */
export const PROFILE_PAGE = 100;

/**
 * The profile editor: how complete it is and the next step, writable questions
 * first, then those only the panel sets. `account` tells which account's new questions to mark.
 */
export function ProfileSection({ account = '' }: { account?: string }) {
  const profile = useStorageItem(profileItem);
  const sync = useStorageItem(syncItem);
  const { draft, set, forget, session } = useProfileDraft();
  const fresh = useNewQuestions(account);
  const status = useSignal('');
  const alert = useSignal<Alert | null>(null);
  const reloading = useSignal(false);
  const formRef = useRef<HTMLFormElement>(null);
  const reloadRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const saveStatus = useSignal('');
  const saveAlert = useSignal<Alert | null>(null);
  const saveStatusRef = useRef<HTMLParagraphElement>(null);
  const saveAlertRef = useRef<HTMLParagraphElement>(null);
  const focusTo = useSignal<{ target: 'problem' | 'alert' | 'status' | 'progress' } | null>(null);
  const shown = useSignal(PROFILE_PAGE);
  const openOnly = useSignal(false);
  /** Answering one at a time: the questions to ask, and a new key per start. */
  const answering = useSignal<{ queue: string[]; key: number } | null>(null);
  // `#answer-NAME` (the popup's "Answer now", a new question's notification): answered once the profile is there.
  const asked = useRef(answerTarget(location.hash));
  const [askedAt, setAskedAt] = useState(0);

  async function reload(force: boolean) {
    reloading.value = true;
    const result = await ask(() => sendMessage('refreshProfile', { force }));
    reloading.value = false;
    alert.value = result.ok ? null : alertOf(result.error);
    if (result.ok && force) status.value = t('profileUpdated');
    if (force) focusLater(() => (result.ok ? reloadRef.current : alertRef.current), result.ok);
  }

  useEffect(() => {
    void reload(false);
  }, []);

  const data = profile.value?.data;
  const definitions = data?.definitions ?? [];
  const stored: StoredValues = data?.values ?? byName();
  const writable = definitions.filter((d) => d.writable);
  const readOnly = definitions.filter((d) => !d.writable);
  const edits = draft.value ?? byName();
  const saver = useProfileSave(definitions, { draft, forget, session });
  const count = completeness(definitions, stored);
  const open = new Set(count.open);
  // Answered questions step aside while the filter is on, except one being edited; with none open, all show.
  const listed =
    openOnly.value && open.size > 0 ? writable.filter((d) => open.has(d.name) || hasName(edits, d.name)) : writable;
  // Edits to questions the panel no longer asks (or no longer lets the panelist change) are ignored.
  const changes = diffDraft(byName(entriesOf(edits).filter(([name]) => writable.some((d) => d.name === name))), stored);
  const changeCount = Object.keys(changes).length;
  const syncError = sync.value?.profile.error;
  const loading = reloading.value || Boolean(sync.value?.profile.loading);
  const ready = Boolean(data) && draft.value !== undefined;

  /** Starts answering one at a time at `name` (or the first open question), then the rest in order. */
  function answer(name: string | null) {
    if (!count.open.length) {
      focusTo.value = { target: 'progress' };
      return;
    }
    const from = Math.max(0, name === null ? 0 : count.open.indexOf(name));
    answering.value = {
      queue: [...count.open.slice(from), ...count.open.slice(0, from)],
      key: (answering.value?.key ?? 0) + 1,
    };
  }

  function stopAnswering() {
    answering.value = null;
    focusTo.value = { target: 'progress' };
  }

  // The summary's "Answer now" is a link to #answer-NAME on this same page.
  useEffect(() => {
    const follow = () => {
      asked.current = answerTarget(location.hash);
      if (asked.current !== undefined) setAskedAt(Date.now());
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    if (!ready || asked.current === undefined) return;
    const name = asked.current;
    asked.current = undefined;
    // Answered once: a reload, or the section remounting for another account, does not start it again.
    history.replaceState(null, '', location.pathname + location.search);
    answer(name);
    headingRef.current?.closest('section')?.scrollIntoView?.({ block: 'start' });
  }, [ready, askedAt]);

  /** Questions with a problem are shown even if they lie past the questions rendered so far. */
  function reveal(names: string[]) {
    const last = Math.max(-1, ...names.map((name) => listed.findIndex((d) => d.name === name)));
    if (last >= shown.value) shown.value = last + 1;
  }

  // Focus moves once the outcome is rendered (the effect runs after that render), not on a timer.
  useEffect(() => {
    const request = focusTo.value;
    if (!request) return;
    if (request.target === 'problem') {
      // Focus on the first question with a problem, with the whole question (its label above the
      // control) in view rather than just the control under the sticky save bar.
      const control = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
      control?.focus({ preventScroll: true });
      control?.closest('.field')?.scrollIntoView?.({ block: 'center' });
    } else if (request.target === 'alert') {
      saveAlertRef.current?.focus();
    } else if (request.target === 'progress') {
      const next = document.querySelector<HTMLElement>('.progress-actions button') ?? headingRef.current;
      next?.focus();
    } else {
      // Save and Discard leave the bar with the changes: focus stays there, on the confirmation,
      // unless the panelist has already moved on.
      const active = document.activeElement;
      if (!active || active === document.body || (active as HTMLButtonElement).disabled) saveStatusRef.current?.focus();
    }
  }, [focusTo.value]);

  /** Save: every changed answer, through the profile's one Save path. */
  async function save(event: Event) {
    event.preventDefault();
    if (!changeCount || saver.saving.value) return;
    saveStatus.value = '';
    saveAlert.value = null;
    const outcome = await saver.save(changes);
    if (outcome.ok) {
      saveStatus.value = tp('savedChanges', outcome.saved);
      focusTo.value = { target: 'status' };
      return;
    }
    saveAlert.value = outcome.alert;
    if (outcome.fields) reveal(Object.keys(saver.fieldErrors.value));
    focusTo.value = { target: outcome.fields ? 'problem' : 'alert' };
  }

  function discard() {
    forget();
    saver.fieldErrors.value = byName();
    saveAlert.value = null;
    saveStatus.value = t('changesDiscarded');
    focusTo.value = { target: 'status' };
  }

  function edit(def: VariableDefinition, value: StoredValues[string]) {
    set(def.name, value, named(stored, def.name));
    saveStatus.value = '';
    saver.clearError(def.name);
  }

  const field = (def: VariableDefinition) => (
    <WritableField
      key={def.name}
      def={def}
      value={hasName(edits, def.name) ? named(edits, def.name) : named(stored, def.name)}
      stored={named(stored, def.name)}
      edited={hasName(changes, def.name)}
      error={named(saver.fieldErrors.value, def.name)}
      onChange={(value) => edit(def, value)}
      isNew={open.has(def.name) && fresh.isNew(def.name)}
      onSeen={() => fresh.seen(def.name)}
    />
  );

  const shownReadOnly = listed === writable ? readOnly : [];
  const hidden = listed.length + shownReadOnly.length - shown.value;
  let body;
  if (!ready) {
    body = <p class="muted">{t(loading || profile.value === undefined ? 'profileLoading' : 'profileNotLoaded')}</p>;
  } else if (!definitions.length) {
    body = <p class="muted">{t('profileNoQuestions')}</p>;
  } else if (answering.value) {
    body = (
      <AnswerFlow
        key={answering.value.key}
        queue={answering.value.queue}
        writable={writable}
        stored={stored}
        edits={edits}
        saver={saver}
        fresh={fresh}
        onEdit={edit}
        onClose={stopAnswering}
      />
    );
  } else {
    body = (
      <>
        {writable.length > 0 && (
          <form
            ref={formRef}
            onSubmit={(event) => void save(event)}
            noValidate
            aria-labelledby="profile-writable-heading"
          >
            <h3 id="profile-writable-heading">{t('writableHeading')}</h3>
            {listed.slice(0, shown.value).map(field)}
            <SaveBar
              changes={changeCount}
              saving={saver.saving.value}
              canDiscard={Object.keys(edits).length > 0}
              onDiscard={discard}
              status={saveStatus.value}
              alert={saveAlert.value}
              statusRef={saveStatusRef}
              alertRef={saveAlertRef}
            />
          </form>
        )}
        {shownReadOnly.length > 0 && (
          <>
            <h3>{t('readOnlyHeading')}</h3>
            <dl class="read-only-list">
              {shownReadOnly.slice(0, Math.max(0, shown.value - listed.length)).map((def) => (
                <ReadOnlyField key={def.name} def={def} value={named(stored, def.name)} />
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

  const shownAlert = alert.value ?? (syncError && !loading ? alertOf(syncError) : null);
  return (
    <section class="card" id="profile" aria-labelledby="profile-heading">
      <div class="section-head">
        <h2 id="profile-heading" ref={headingRef} tabIndex={-1}>
          {t('profileHeading')}
        </h2>
        <button type="button" ref={reloadRef} disabled={loading} onClick={() => void reload(true)}>
          {t(loading ? 'loading' : 'reloadProfile')}
        </button>
      </div>
      <p class="muted">{t('profileIntro')}</p>
      {ready && (
        <ProfileProgress
          answered={count.answered}
          total={count.total}
          answering={answering.value !== null}
          openOnly={openOnly.value}
          onOpenOnly={(on) => (openOnly.value = on)}
          onAnswerNext={() => answer(null)}
        />
      )}
      <DraftDiscardedNotice onDismissed={() => headingRef.current?.focus()} />
      <SectionFeedback status={status.value} alert={shownAlert} alertRef={alertRef} />
      {body}
    </section>
  );
}
