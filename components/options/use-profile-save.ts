import { useSignal, type Signal } from '@preact/signals';
import { byName, entriesOf, named, without, type ByName } from '../../utils/by-name';
import type { AppError } from '../../utils/errors';
import { t, tp } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { questionText } from '../../utils/question-text';
import { asSentence, sentences } from '../../utils/sentences';
import type { StoredValues, VariableDefinition } from '../../utils/types';
import { isEmptyValue, validateValues, valuesEqual } from '../../utils/variable-values';
import { ask } from './ask';
import { alertOf, alertText, errorText, plainMessage, type Alert } from './error-text';
import type { ProfileDraft } from './use-profile-draft';

/**
 * How a Save ended. `fields`: the texts are beside their questions (the caller moves focus to the
 * first), otherwise `alert` alone says what happened and what to do.
 */
export type SaveOutcome = { ok: true; saved: number } | { ok: false; alert: Alert; fields: boolean };

export interface ProfileSave {
  /** Per-question texts (a refused value, a Laravel-style 422), shown beside each question. */
  fieldErrors: Signal<ByName<string>>;
  saving: Signal<boolean>;
  /** Saves asked for, those refused before sending included: what the section said before each is over. */
  attempts: Signal<number>;
  /** Sends these drafted changes: the answers in one update, then each emptied answer as a removal. */
  save(changes: StoredValues): Promise<SaveOutcome>;
  /** An edit clears its question's text. */
  clearError(name: string): void;
}

/**
 * Failures after which the edits are still on the page to save again: all but a key or sign-in no
 * longer accepted, where connecting another account may discard them (and says so).
 */
const KEEPS_ANSWERS = new Set<AppError['kind']>([
  'network',
  'timeout',
  'server',
  'rate_limited',
  'unexpected',
  'busy',
  'not_allowed',
  'rejected',
]);

/**
 * The profile's one Save path, used by the whole list and by answering one question at a
 * time: the same checks, the same messages, and only what was sent leaves the draft.
 */
export function useProfileSave(
  definitions: readonly VariableDefinition[],
  { draft, forget, session }: Pick<ProfileDraft, 'draft' | 'forget' | 'session'>,
): ProfileSave {
  const fieldErrors = useSignal<ByName<string>>(byName());
  const saving = useSignal(false);
  const attempts = useSignal(0);
  const writable = (name: string) => definitions.some((d) => d.name === name && d.writable);

  /**
   * A failed save. Per-question texts (a Laravel-style 422, or a refusal naming one question) go
   * next to their questions, with the panel's own message for the section; anything else is said
   * where Save was pressed. Every edit stays in the draft.
   */
  function failure(error: AppError, done: number, removalOf?: string): SaveOutcome {
    // Texts by question name, each an own entry (utils/by-name.ts): a question may be named `constructor`.
    const texts: Array<[string, string]> =
      error.fields && Object.keys(error.fields).length
        ? entriesOf(error.fields)
        : error.field
          ? [[error.field, error.message]]
          : removalOf
            ? [[removalOf, plainMessage(error)]]
            : [];
    const known = texts.filter(([name]) => writable(name));
    const unknown = texts.filter(([name]) => !writable(name));
    const savedBefore = done ? tp('savedChanges', done) : '';
    if (!known.length) {
      // Said where Save was pressed, with what holds: the edits stay on the page, in the draft.
      const kept = KEEPS_ANSWERS.has(error.kind) ? t('answersKept') : '';
      return {
        ok: false,
        alert: alertOf(error, undefined, sentences(savedBefore, errorText(error), kept)),
        fields: false,
      };
    }
    fieldErrors.value = byName([...entriesOf(fieldErrors.value), ...known]);
    const question = questionText(definitions.find((d) => d.name === known[0]![0])!);
    // What is already beside a question is not said again above Save: only the panel's words for
    // the section, and the texts of questions not on this page, when they add something.
    const beside = new Set(known.map(([, text]) => text.trim()));
    const more = (removalOf ? [] : [error.message, ...unknown.map(([, text]) => text)])
      .map((text) => text.trim())
      .filter((text) => text && !beside.has(text));
    let text: string;
    if (more.length > 0)
      text = removalOf
        ? t('notRemovedField', question, sentences(...more))
        : t('nothingSavedMarked', asSentence(sentences(...more)));
    else if (known.length > 1) text = tp('answersNeedAttention', known.length);
    else text = t(removalOf ? 'notRemovedSee' : 'nothingSavedSee', question);
    return { ok: false, alert: alertText(sentences(savedBefore, text)), fields: true };
  }

  async function save(changes: StoredValues): Promise<SaveOutcome> {
    attempts.value += 1;
    // An empty value is never sent as an answer: it is a removal.
    const removals = entriesOf(changes)
      .filter(([, value]) => isEmptyValue(value))
      .map(([name]) => name);
    const writes = without(changes, removals);
    const problems = validateValues(definitions, writes);
    fieldErrors.value = problems;
    const problemCount = Object.keys(problems).length;
    if (problemCount) return { ok: false, alert: alertText(tp('answersNeedAttention', problemCount)), fields: true };
    // Sent under the session the answers were typed in: after a switch the background refuses them.
    const typedIn = session();
    if (!typedIn) return { ok: false, alert: alertText(t('errSaveAccountChanged')), fields: false };
    saving.value = true;
    const sent: string[] = [];
    // Only what was sent is forgotten: an edit made while saving stays in the draft.
    const forgetSent = () => {
      forget(sent.filter((name) => valuesEqual(named(draft.value, name), named(changes, name))));
    };
    try {
      if (Object.keys(writes).length) {
        const result = await ask(() => sendMessage('saveValues', { session: typedIn, values: writes }));
        if (!result.ok) return failure(result.error, 0);
        sent.push(...Object.keys(writes));
      }
      for (const name of removals) {
        const result = await ask(() => sendMessage('deleteValue', { session: typedIn, name }));
        // A refused update sends nothing more.
        if (!result.ok) return failure(result.error, sent.length, name);
        sent.push(name);
      }
      return { ok: true, saved: sent.length };
    } finally {
      saving.value = false;
      forgetSent();
    }
  }

  function clearError(name: string) {
    if (!named(fieldErrors.value, name)) return;
    fieldErrors.value = without(fieldErrors.value, [name]);
  }

  return { fieldErrors, saving, attempts, save, clearError };
}
