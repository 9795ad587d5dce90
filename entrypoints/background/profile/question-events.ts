import { holdsAnswer } from '../../../utils/profile-completeness';
import type { NewQuestion, ProfileData, QuestionsRecord } from '../../../utils/storage-items';

/**
 * Which profile questions are new to the panelist, found by comparing a profile read
 * with what the session's earlier reads listed. Pure; new-questions.ts keeps the record.
 */

/** Names remembered beyond those the panel lists now: a question removed and listed again is not new. */
const KNOWN_KEPT = 5_000;

export interface QuestionsRead {
  after: QuestionsRecord;
  /** Questions that appeared with this read, to be told once. */
  added: NewQuestion[];
}

/**
 * The record after a read of `account`'s profile. The first read of a session (no record, or one
 * of another account) only records what is there: nothing is new to a panelist who just
 * connected. After that, a writable question whose name no earlier read listed is new, unless the
 * panel already holds its answer. A new question stays new until it is answered, seen (see
 * {@link markSeen}), no longer writable or no longer listed; its text follows the panel's.
 */
export function readQuestions(before: QuestionsRecord | null, account: string, profile: ProfileData): QuestionsRead {
  const questionsNow = new Map(profile.definitions.map((def) => [def.name, def]));
  const open = (name: string) => {
    const def = questionsNow.get(name);
    return def !== undefined && def.writable && !holdsAnswer(profile.values, profile.unreadable, name);
  };
  if (!before || before.account !== account)
    return { after: { account, known: [...questionsNow.keys()], fresh: [] }, added: [] };

  const known = new Set(before.known);
  const added = [...questionsNow.values()]
    .filter((def) => !known.has(def.name) && open(def.name))
    .map(({ name, text }) => ({ name, text }));
  const kept = before.fresh
    .filter((q) => open(q.name))
    .map((q) => ({ name: q.name, text: questionsNow.get(q.name)!.text }));
  const older = before.known.filter((name) => !questionsNow.has(name));
  return {
    after: {
      account,
      known: [...questionsNow.keys(), ...older].slice(0, Math.max(questionsNow.size, KNOWN_KEPT)),
      fresh: [...kept, ...added],
    },
    added,
  };
}

/** The record once the panelist has seen these questions on the options page. */
export function markSeen(record: QuestionsRecord, names: readonly string[]): QuestionsRecord {
  const seen = new Set(names);
  return { ...record, fresh: record.fresh.filter((q) => !seen.has(q.name)) };
}
