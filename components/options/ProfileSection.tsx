import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { byName, hasName } from '../../utils/by-name';
import { t } from '../../utils/i18n';
import { completeness } from '../../utils/profile-completeness';
import { profileItem, syncItem } from '../../utils/storage-items';
import type { StoredValues } from '../../utils/types';
import { useStorageItem } from '../../utils/use-storage-item';
import { AnswerFlow } from './AnswerFlow';
import { DraftDiscardedNotice } from './DraftDiscardedNotice';
import { alertOf } from './error-text';
import { ProfileProgress } from './ProfileProgress';
import { ProfileQuestions } from './ProfileQuestions';
import { SectionFeedback } from './SectionFeedback';
import { useAnswering, useAnswerLink } from './use-answer-link';
import { useNewQuestions } from './use-new-questions';
import { useProfileDraft } from './use-profile-draft';
import { useProfileEdits } from './use-profile-edits';
import { useProfileReload } from './use-profile-reload';
import { useProfileSave } from './use-profile-save';
import { PROFILE_PAGE } from './ProfileQuestions';

/**
 * The profile editor: how complete it is and the next step, writable questions
 * first, then those only the panel sets. `account` tells which account's new questions to mark.
 */
export function ProfileSection({ account = '' }: { account?: string }) {
  const profile = useStorageItem(profileItem);
  const sync = useStorageItem(syncItem);
  const draft = useProfileDraft();
  const fresh = useNewQuestions(account);
  const { reloading, status, alert, reload, clear: clearReload, reloadRef, alertRef } = useProfileReload();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = useSignal(PROFILE_PAGE);
  const openOnly = useSignal(false);

  const data = profile.value?.data;
  const { definitions = [], values: stored = byName<StoredValues[string]>(), unreadable = [] } = data ?? {};
  const writable = definitions.filter((d) => d.writable);
  const readOnly = definitions.filter((d) => !d.writable);
  const saver = useProfileSave(definitions, draft);
  // A save asked for ends what the last reload said ("Profile updated."): the save says its own outcome.
  const attempts = saver.attempts.value;
  useEffect(() => {
    if (attempts > 0) clearReload();
  }, [attempts]);
  const count = completeness(definitions, stored, unreadable);
  const open = new Set(count.open);
  const pending = draft.draft.value ?? byName();
  // Answered questions step aside while the filter is on, except one being edited; with none open, all show.
  const filtered =
    openOnly.value && open.size > 0 ? writable.filter((d) => open.has(d.name) || hasName(pending, d.name)) : writable;
  const editing = useProfileEdits({
    writable,
    stored,
    draft,
    saver,
    heading: headingRef,
    filtered,
    reveal: (index) => index >= shown.value && (shown.value = index + 1),
  });
  const syncError = sync.value?.profile.error;
  const loading = reloading || Boolean(sync.value?.profile.loading);
  const ready = Boolean(data) && draft.draft.value !== undefined;
  // Busy while its own reads (the profile, the draft) are under way, not while a refresh is.
  const reading = profile.value === undefined || draft.draft.value === undefined;
  const { answering, answer, close } = useAnswering(count.open, () => editing.focus('progress'));
  useAnswerLink(ready, answer, () => headingRef.current?.closest('section') ?? null);

  let body;
  if (!ready) {
    body = <p class="muted">{t(loading || profile.value === undefined ? 'profileLoading' : 'profileNotLoaded')}</p>;
  } else if (!definitions.length) {
    body = <p class="muted">{t('profileNoQuestions')}</p>;
  } else if (answering) {
    body = (
      <AnswerFlow
        {...{ writable, stored, saver, fresh }}
        key={answering.key}
        queue={answering.queue}
        edits={editing.edits}
        onEdit={editing.edit}
        onClose={close}
      />
    );
  } else {
    const rest = filtered === writable ? readOnly : [];
    body = (
      <ProfileQuestions
        {...{ filtered, shown, stored, unreadable, open, saver, fresh, ...editing.questions }}
        readOnly={rest}
        edits={editing.edits}
        changes={editing.changes}
      />
    );
  }

  const shownAlert = alert ?? (syncError && !loading ? alertOf(syncError) : null);
  return (
    <section class="card" id="profile" aria-labelledby="profile-heading" aria-busy={reading || undefined}>
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
          answering={answering !== null}
          openOnly={openOnly.value}
          onOpenOnly={(on) => (openOnly.value = on)}
          onAnswerNext={() => answer(null)}
        />
      )}
      <DraftDiscardedNotice onDismissed={() => headingRef.current?.focus()} />
      <SectionFeedback status={status} alert={shownAlert} alertRef={alertRef} />
      {body}
    </section>
  );
}
