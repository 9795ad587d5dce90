import { appError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';
import { serialQueue } from '../../../utils/serial-queue';
import { accountOf, questionsItem, sessionItem, type ProfileData } from '../../../utils/storage-items';
import { questionAdded } from '../notify/notify-events';
import { writeAndNotify } from '../notify/notify-tell';
import { markSeen, readQuestions } from './question-events';
import { fail } from '../result';
import { activeCredentials, put, update, type SessionId } from '../store/store';
import { onStored } from '../store/stored-reads';

/**
 * Keeps the record of the session's questions (question-events.ts decides what is new)
 * and tells each new question once. The record is session data, tagged with its account, and is
 * written with the questions it tells in one write of the session that read it (store.ts).
 */

/** One read of the record at a time, so two reads close together tell a question once. */
const queue = serialQueue();
const serial = queue.run;

/** A profile read of session `sid`. */
export function onProfile(sid: SessionId, profile: ProfileData): Promise<void> {
  return serial(() =>
    writeAndNotify(sid, [questionsItem, sessionItem], (get) => {
      const { after, added } = readQuestions(get(questionsItem), accountOf(get(sessionItem)), profile);
      return { puts: [put(questionsItem, after)], events: added.map(questionAdded) };
    }),
  );
}

const MAX_NAMES = 1_000;

/** The options page showed these questions to the panelist of `account`: they are no longer new. */
export async function seeQuestions(account: unknown, names: unknown): Promise<void> {
  if (
    typeof account !== 'string' ||
    !Array.isArray(names) ||
    names.length > MAX_NAMES ||
    names.some((n) => typeof n !== 'string')
  ) {
    fail(appError('invalid_input', t('errInternal')));
  }
  const credentials = await activeCredentials();
  if (!credentials) return;
  await serial(() =>
    update(credentials.session, [questionsItem], (get) => {
      const record = get(questionsItem);
      if (!record || record.account !== account) return [];
      const after = markSeen(record, names as string[]);
      return after.fresh.length !== record.fresh.length ? [put(questionsItem, after)] : [];
    }),
  );
}

/** Resolves once every read seen so far has been handled (tests wait on it rather than on time). */
export function questionsIdle(): Promise<void> {
  return queue.idle();
}

/** Registered synchronously at worker start. */
export function watchNewQuestions(): () => void {
  return onStored((area, data, sid) => {
    if (area === 'profile') void onProfile(sid, data as ProfileData).catch(() => undefined);
  });
}
