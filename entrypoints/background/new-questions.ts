import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { accountOf, questionsItem, sessionItem, type ProfileData } from '../../utils/storage-items';
import { currentGeneration, isCurrent } from './generation';
import { tellEvents } from './notifications';
import { questionAdded } from './notify-events';
import { markSeen, readQuestions } from './question-events';
import { fail } from './result';
import { onStored } from './sync';

/**
 * Issue 20: keeps the record of the session's questions (question-events.ts decides what is new)
 * and tells each new question once. The record is session data, tagged with its account and
 * written only while the session that read it is current.
 */

let queue: Promise<unknown> = Promise.resolve();

/** One read-modify-write of the record at a time. */
function serial(work: () => Promise<void>): Promise<void> {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}

/** A profile read of session `gen`. */
export function onProfile(gen: number, profile: ProfileData): Promise<void> {
  return serial(async () => {
    const [record, session] = await Promise.all([questionsItem.getValue(), sessionItem.getValue()]);
    if (!isCurrent(gen) || !session.connected) return;
    const { after, added } = readQuestions(record, accountOf(session), profile);
    // Told before the record is written: the told list keeps a question from being told twice, so
    // a worker stopped in between finds it again and tells nothing more.
    if (added.length > 0) await tellEvents(gen, added.map(questionAdded));
    if (isCurrent(gen)) await questionsItem.setValue(after);
  });
}

const MAX_NAMES = 1_000;

/** The options page showed these questions to the panelist of `account`: they are no longer new. */
export function seeQuestions(account: unknown, names: unknown): Promise<void> {
  if (typeof account !== 'string' || !Array.isArray(names) || names.length > MAX_NAMES || names.some((n) => typeof n !== 'string')) {
    fail(appError('invalid_input', t('errInternal')));
  }
  const gen = currentGeneration();
  return serial(async () => {
    const record = await questionsItem.getValue();
    if (!record || record.account !== account) return;
    const after = markSeen(record, names as string[]);
    if (after.fresh.length !== record.fresh.length && isCurrent(gen)) await questionsItem.setValue(after);
  });
}

/** Resolves once every read seen so far has been handled (tests wait on it rather than on time). */
export function questionsIdle(): Promise<void> {
  return queue.then(() => undefined);
}

/** Registered synchronously at worker start. */
export function watchNewQuestions(): () => void {
  return onStored((area, data, gen) => {
    if (area === 'profile') void onProfile(gen, data as ProfileData).catch(() => undefined);
  });
}
