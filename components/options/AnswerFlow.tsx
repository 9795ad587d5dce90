import { useSignal, type Signal } from '@preact/signals';
import type { Ref, RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { byName, hasName, named } from '../../utils/by-name';
import { formatPoints } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { isAnswered } from '../../utils/profile-completeness';
import { questionText } from '../../utils/question-text';
import { sentences } from '../../utils/sentences';
import type { StoredValues, VariableDefinition, VariableValue } from '../../utils/types';
import { diffDraft, isEmptyValue } from '../../utils/variable-values';
import type { NewQuestions } from './use-new-questions';
import type { ProfileSave } from './use-profile-save';
import { WritableField } from './WritableField';
import type { Alert } from './error-text';
import { AlertView } from './SectionFeedback';

interface Props {
  /** Names of the questions to ask, in order: those open when answering began. */
  queue: readonly string[];
  /** The writable questions as the panel lists them now. */
  writable: readonly VariableDefinition[];
  stored: StoredValues;
  edits: StoredValues;
  saver: ProfileSave;
  fresh: NewQuestions;
  onEdit(def: VariableDefinition, value: VariableValue): void;
  onClose(): void;
}

/**
 * "Answer the next question": one open question at a time, Save & next or Skip, ending
 * with the one thank-you and what this round did (the progress line above says how many are
 * answered in all; the profile's summaries do not thank again).
 * Keyboard first: the question's control has focus, Enter saves and moves on. Answers go through the profile's one draft and Save path, so an edit survives an
 * error, a skip or closing the page, and a panel's refusal shows beside the question.
 */
export function AnswerFlow({ queue, writable, stored, edits, saver, fresh, onEdit, onClose }: Props) {
  /** The position in `queue` of the question on screen. */
  const at = useSignal(0);
  const saved = useSignal(0);
  const skipped = useSignal(0);
  const status = useSignal('');
  const alert = useSignal<Alert | null>(null);
  /** "Give an answer, or Skip", beside the question. */
  const empty = useSignal('');
  const formRef = useRef<HTMLFormElement>(null);
  const endRef = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  /** Where focus goes next; a new object each time, so asking twice moves it twice. */
  const focusTo = useSignal<FocusTo>({ to: 'question' });
  const toQuestion = () => (focusTo.value = { to: 'question' });
  const { def, done, openFrom } = useFlowPosition(at, queue, writable, stored, toQuestion);

  useFlowFocus(focusTo.value, done, { form: formRef, end: endRef, alert: alertRef });

  function next(outcome: 'saved' | 'skipped') {
    if (outcome === 'saved') saved.value += 1;
    else {
      skipped.value += 1;
      status.value = '';
    }
    empty.value = '';
    alert.value = null;
    at.value = openFrom(at.value + 1);
    toQuestion();
  }

  async function saveAndNext(event: Event) {
    event.preventDefault();
    if (!def || saver.saving.value) return;
    status.value = '';
    alert.value = null;
    const value = hasName(edits, def.name) ? named(edits, def.name) : named(stored, def.name);
    if (isEmptyValue(value)) {
      empty.value = t('flowGiveAnswer');
      focusTo.value = { to: 'problem' };
      return;
    }
    const change = diffDraft(byName([[def.name, value!]]), stored);
    if (Object.keys(change).length > 0) {
      const outcome = await saver.save(change);
      if (!outcome.ok) {
        alert.value = outcome.alert;
        focusTo.value = { to: outcome.fields ? 'problem' : 'alert' };
        return;
      }
    }
    // Named, and above the next question: a bare "Answer saved." under question 2 read as if 2 was saved.
    status.value = t('answerSaved', questionText(def));
    next('saved');
  }

  if (done) {
    return <AnswerFlowEnd saved={saved.value} skipped={skipped.value} endRef={endRef} onClose={onClose} />;
  }
  if (!def) return null;

  return (
    <form
      ref={formRef}
      class="answer-flow"
      onSubmit={(event) => void saveAndNext(event)}
      onKeyDown={(event) => enterSubmitsChoice(event, formRef.current)}
      noValidate
      aria-labelledby="answer-flow-heading"
    >
      {/* What was just saved, before the question that follows it. */}
      <p role="status" class="status">
        {status.value}
      </p>
      <h3 id="answer-flow-heading">{t('flowPosition', formatPoints(at.value + 1), formatPoints(queue.length))}</h3>
      <WritableField
        key={def.name}
        def={def}
        value={hasName(edits, def.name) ? named(edits, def.name) : named(stored, def.name)}
        stored={named(stored, def.name)}
        edited={hasName(edits, def.name)}
        error={named(saver.fieldErrors.value, def.name) ?? (empty.value || undefined)}
        onChange={(value) => {
          empty.value = '';
          status.value = '';
          onEdit(def, value);
        }}
        isNew={fresh.isNew(def.name)}
        onSeen={() => fresh.seen(def.name)}
      />
      <AlertView alert={alert.value} alertRef={alertRef} />
      <FlowActions
        saving={saver.saving.value}
        question={questionText(def)}
        onSkip={() => next('skipped')}
        onClose={onClose}
      />
    </form>
  );
}

type FocusTo = { to: 'question' | 'problem' | 'alert' } | null;

/**
 * Focus moves once what it goes to is rendered (the effect runs after that render), not on a timer:
 * the question's control, what is wrong with the answer, the failure, or the closing words.
 */
function useFlowFocus(
  focusTo: FocusTo,
  done: boolean,
  places: {
    form: RefObject<HTMLFormElement | null>;
    end: RefObject<HTMLHeadingElement | null>;
    alert: RefObject<HTMLParagraphElement | null>;
  },
) {
  useEffect(() => {
    const request = focusTo?.to;
    if (!request) return;
    if (done) {
      places.end.current?.focus();
      return;
    }
    const form = places.form.current;
    if (request === 'alert') places.alert.current?.focus();
    else
      form
        ?.querySelector<HTMLElement>(
          request === 'problem' ? '[aria-invalid="true"]' : '.field input, .field select, .field textarea',
        )
        ?.focus({ preventScroll: true });
    if (request === 'question') form?.scrollIntoView?.({ block: 'nearest' });
  }, [focusTo]);
}

/** Enter on a choice saves too: browsers submit a form by Enter only from text-like fields. */
function enterSubmitsChoice(event: KeyboardEvent, form: HTMLFormElement | null) {
  const target = event.target as HTMLInputElement;
  if (event.key !== 'Enter' || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
  if (target.type === 'radio' || target.type === 'checkbox') {
    event.preventDefault();
    form?.requestSubmit();
  }
}

interface FlowActionsProps {
  saving: boolean;
  /** The question on screen, which Skip names. */
  question: string;
  onSkip(): void;
  onClose(): void;
}

function FlowActions({ saving, question, onSkip, onClose }: FlowActionsProps) {
  return (
    <div class="flow-actions">
      <button type="submit" class="primary" disabled={saving}>
        {t(saving ? 'saving' : 'saveAndNext')}
      </button>
      <button
        type="button"
        disabled={saving}
        onClick={onSkip}
        aria-label={t('namedAction', t('skipQuestion'), question)}
      >
        {t('skipQuestion')}
      </button>
      <button type="button" class="link-button" onClick={onClose}>
        {t('backToAllQuestions')}
      </button>
    </div>
  );
}

interface EndProps {
  saved: number;
  skipped: number;
  endRef: Ref<HTMLHeadingElement>;
  onClose(): void;
}

/** The end of a round: one thank-you, and what this round did. */
function AnswerFlowEnd({ saved, skipped, endRef, onClose }: EndProps) {
  return (
    <div class="answer-flow" role="group" aria-labelledby="answer-flow-heading">
      {/* The round's end is its heading, said as one: not the small grey "Question 2 of 3" it follows. */}
      <h3 id="answer-flow-heading" class="flow-end" ref={endRef} tabIndex={-1}>
        {t(saved > 0 ? 'flowThanks' : 'flowEnd')}
      </h3>
      <p role="status">
        {/* What this round did; how many are answered in all is the progress line's, right above. */}
        {sentences(saved > 0 ? tp('flowAnswered', saved) : '', skipped > 0 ? tp('flowSkipped', skipped) : '')}
      </p>
      <button type="button" class="primary" onClick={onClose}>
        {t('backToProfile')}
      </button>
    </div>
  );
}

/**
 * The question on screen, and the next open one from a position. What a handler reads after
 * awaiting a save is the values as they are then, not as they were rendered; a question the panel
 * stopped asking while it was on screen moves the flow on to the next (`moved` says so).
 */
function useFlowPosition(
  at: Signal<number>,
  queue: readonly string[],
  writable: readonly VariableDefinition[],
  stored: StoredValues,
  moved: () => void,
) {
  const latest = useRef({ stored, writable });
  latest.current = { stored, writable };

  const stillAsked = (name: string | undefined) => latest.current.writable.find((d) => d.name === name);
  /** The first question from `from` on that the panel still asks and nobody has answered meanwhile. */
  const openFrom = (from: number) => {
    let i = from;
    while (i < queue.length && (!stillAsked(queue[i]) || isAnswered(named(latest.current.stored, queue[i]!)))) i++;
    return i;
  };

  const def = writable.find((d) => d.name === queue[at.value]);
  const done = at.value >= queue.length;

  useEffect(() => {
    if (done || def) return;
    at.value = openFrom(at.value);
    moved();
  }, [done, def]);

  return { def, done, openFrom };
}
