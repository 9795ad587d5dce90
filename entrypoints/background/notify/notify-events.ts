import { redemptionKey } from '../../../utils/ids';
import { redemptionState } from '../../../utils/redemption-state';
import type { NotificationKind } from '../../../utils/preferences';
import type { LedgerEntry } from '../../../utils/storage-items';
import type { Redemption, RedemptionState } from '../../../utils/types';
import { notFoundWords, type NotFoundWords } from '../../../utils/points-taken';

/**
 * What is worth telling the panelist, to bring them back, found by comparing what the background saw
 * before with what it sees now. Pure: the ids make each event unique, so it is told once.
 */
export type NotifyEvent =
  | { id: string; kind: 'redemption'; rewardName: string; state: RedemptionState }
  | { id: string; kind: 'outcome'; rewardName: string; found: boolean; notFound?: NotFoundWords }
  | { id: string; kind: 'goal'; rewardName: string }
  /** `signedIn`: the session came from sign-in, so it is told as a sign-in to renew, not a key refused. */
  | { id: string; kind: 'rejected'; signedIn?: true }
  | { id: string; kind: 'question'; name: string; text: string }
  | { id: string; kind: 'duplicate'; rewardName: string; copies: number; points: number | null };

/** The preference that switches an event's kind on or off: a repeat is an outcome of a redemption. */
export function preferenceOf(event: NotifyEvent): NotificationKind {
  return event.kind === 'duplicate' ? 'outcome' : event.kind;
}

/**
 * A part of a notification id, bounded: Chrome refuses an id over 500 characters, and a provider's
 * `failed_reason` or a question's name can be longer. A long part is replaced by a hash of it, so
 * the id still names its event exactly once.
 */
export function idPart(text: string): string {
  if (text.length <= 64) return text;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${text.slice(0, 32)}…${hash.toString(16).padStart(8, '0')}:${text.length}`;
}

/** Whether an id part is a hash {@link idPart} made of a longer text (which it no longer holds). */
export const isHashedPart = (part: string) => /…[0-9a-f]{8}:\d+$/.test(part);

const stateKey = (state: RedemptionState) => (state.detail ? `${state.kind}:${idPart(state.detail)}` : state.kind);

/**
 * Redemptions whose state changed since the last history read. With no earlier read (`before`
 * null: the first sync of a session) there is nothing to compare: states are only recorded.
 * A redemption new to the history is not a change: its panelist just made it. A redemption is
 * known by its id, reward and `created_at` together (utils/ids.ts): a panel that gives a deleted
 * one's id to the next makes a new redemption, not a change of the old one. A state the panel sent
 * in flags that cannot be read is no state: nothing is told of it, and the last one read is kept
 * to compare the next read with.
 */
export function redemptionChanges(
  before: Record<string, string> | null,
  history: readonly Redemption[],
): { states: Record<string, string>; events: NotifyEvent[] } {
  const states: Record<string, string> = {};
  const events: NotifyEvent[] = [];
  for (const r of history) {
    const known = redemptionKey(r);
    const was = before?.[known];
    if (r.stateUnreadable) {
      if (was !== undefined) states[known] = was;
      continue;
    }
    const state = redemptionState(r);
    const key = stateKey(state);
    states[known] = key;
    if (was !== undefined && was !== key)
      events.push({
        id: `redemption:${idPart(known)}:${key}`,
        kind: 'redemption',
        rewardName: r.reward.name,
        state,
      });
  }
  return { states, events };
}

/**
 * An unknown outcome settled by a history check: found, or not found after the last check. Told
 * only when a check settles it, never when the panel's own answer did (the popup showed that).
 */
export function settledOutcome(entry: LedgerEntry): NotifyEvent | null {
  if (entry.state !== 'done' && entry.state !== 'not_found') return null;
  const found = entry.state === 'done';
  // Not found: what the answer and the balance say of it choose the words (utils/points-taken.ts),
  // so the panelist is sent to the panel, or to their balance, rather than told to redeem again.
  return {
    id: `outcome:${entry.requestId}`,
    kind: 'outcome',
    rewardName: entry.rewardName,
    found,
    ...(found ? {} : { notFound: notFoundWords(entry) }),
  };
}

/** One Confirm the panel recorded more than once (maybe a request delivered twice): told once, with how many and what each cost. */
export function recordedAgain(entry: LedgerEntry): NotifyEvent | null {
  const copies = 1 + (entry.duplicates?.length ?? 0);
  return copies > 1
    ? {
        id: `duplicate:${entry.requestId}`,
        kind: 'duplicate',
        rewardName: entry.rewardName,
        copies,
        points: entry.points,
      }
    : null;
}

/** A question the panel added, a chance of more surveys; its id names the question, so it is told once. */
export function questionAdded(question: { name: string; text: string }): NotifyEvent {
  return { id: `question:${idPart(question.name)}`, kind: 'question', name: question.name, text: question.text };
}

/** The goal became affordable: it was not at the last read of the same goal. */
export function goalReached(
  before: { key: string; affordable: boolean } | null,
  now: { key: string; affordable: boolean; rewardName: string } | null,
): NotifyEvent[] {
  if (!now || !before || before.key !== now.key || before.affordable || !now.affordable) return [];
  return [{ id: `goal:${now.key}`, kind: 'goal', rewardName: now.rewardName }];
}
