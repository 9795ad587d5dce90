import type { AppError } from '../../utils/errors';
import type { LedgerEntry, RedemptionAnswer } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { claimRedemptions } from './redemption-match';

/**
 * How unknown redemption outcomes settle, as pure functions of the ledger and a history read
 * (redemption-checks.ts reads and writes them, in one turn of the store).
 */

/**
 * When the history is read again after a lost answer, from the moment the request was sent. A
 * panel slow enough to time out may commit well after; only the last check may conclude that the
 * redemption most likely did not happen.
 */
export const CHECK_AFTER_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000] as const;

/** Recent settled outcomes the ledger no longer shows: their claims stand, and the panelist may be told of them. */
export const SETTLED_KEPT = 20;
/** A scheduled check whose history read failed is tried again this much later. */
export const READ_RETRY_MS = 5 * 60_000;
/** Alarms fire a little early or late; a check this close to its time counts as due. */
const DUE_SLACK_MS = 5_000;

/** The ledger's entry, the unknown outcomes it no longer shows, and the recent settled ones. */
export interface Ledger {
  latest: LedgerEntry | null;
  unsettled: readonly LedgerEntry[];
  settled: readonly LedgerEntry[];
}

export function firstCheck(entry: LedgerEntry): NonNullable<LedgerEntry['checks']> {
  return { done: 0, nextAt: entry.startedAt + CHECK_AFTER_MS[0], lastAt: null };
}

/** Unknown outcomes still being checked: those the ledger no longer shows, and its own. */
export function openOf(ledger: Pick<Ledger, 'latest' | 'unsettled'>): LedgerEntry[] {
  return [...ledger.unsettled, ...(ledger.latest?.state === 'unknown' ? [ledger.latest] : [])];
}

/** When each entry still to be settled is next checked: a pending one (its answer may never come) too. */
export function dueTimes(ledger: Pick<Ledger, 'latest' | 'unsettled'>): number[] {
  const pending = ledger.latest?.state === 'pending' ? [ledger.latest.startedAt + CHECK_AFTER_MS[0]] : [];
  return [...openOf(ledger).map((entry) => entry.checks?.nextAt ?? entry.startedAt + CHECK_AFTER_MS[0]), ...pending];
}

/**
 * A pending entry no redeem of this worker has in flight: a stopped worker's, or one whose answer
 * could not be written (a full storage). Its answer is lost: unknown, checked like any other.
 */
export function interrupted(ledger: Ledger, live: ReadonlySet<string>, error: LedgerEntry['error']): Ledger {
  const latest = ledger.latest;
  if (latest?.state !== 'pending' || live.has(latest.requestId)) return ledger;
  // An entry whose answer came keeps that answer's words; only a lost one is told as lost.
  const lost = error && !latest.answer ? { error } : {};
  return { ...ledger, latest: { ...latest, state: 'unknown', ...lost, checks: firstCheck(latest) } };
}

/**
 * What an answer to the redeem can say before the history speaks: a clear success, the panel's
 * refusal (a 4xx), or nothing clear. A 409 is the answer an idempotent panel gives a copy that
 * arrived while the first was still being processed: it speaks for the copy, and the first may
 * still commit, so it is unclear like a lost answer.
 */
export function answerOf(error: AppError | null): RedemptionAnswer {
  if (!error) return 'success';
  const refused = error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 409;
  return refused ? 'refused' : 'unclear';
}

export function withoutLostAnswer(entry: LedgerEntry): LedgerEntry {
  const { error: _lostAnswer, checks: _checks, ...rest } = entry;
  return rest;
}

/**
 * Settles open outcomes against `history`, a read that left after their answers: an entry whose
 * redemption shows is done, with any further new redemptions of its reward in this same read as
 * ones the panel may have recorded again (a re-sent copy commits within the request's lifetime);
 * one the panel refused and this read shows nothing new for is failed, nothing charged. `at` is a
 * scheduled check's time: entries due by then count one check more, and after the last one, still
 * not found means `not_found`. Without `at` (Check now, a history refresh, the read after an
 * answer) it can only find and confirm a refusal, never rule out. While a redeem is out (a pending
 * latest entry), entries of its reward wait: a new redemption of that reward may be the one being
 * made. `answered` is the entry whose answer just came: it chooses first, so a redemption its own
 * request made is never taken for an older open one.
 */
export function settleOutcomes(ledger: Ledger, history: readonly Redemption[], at: number | null, now: number, answered?: string): Ledger {
  const { latest, unsettled, settled } = ledger;
  const inFlight = latest?.state === 'pending' ? latest.rewardId : null;
  const decidable = openOf(ledger).filter((entry) => entry.rewardId !== inFlight);
  const first = decidable.find((entry) => entry.requestId === answered);
  const claimed = new Set([latest, ...settled].flatMap((entry) => (entry?.redemption ? [entry.redemption.id] : [])));
  const { found, again } = claimRedemptions({ first, open: decidable.filter((entry) => entry !== first) }, history, claimed);
  const advance = (entry: LedgerEntry): LedgerEntry => {
    if (entry.rewardId === inFlight) return at === null ? entry : deferred(entry, at);
    const redemption = found.get(entry.requestId);
    if (redemption) {
      const extra = again.get(entry.requestId);
      return { ...withoutLostAnswer(entry), state: 'done', finishedAt: now, redemption, ...(extra ? { duplicates: extra } : {}) };
    }
    if (entry.answer === 'refused') return refusedNothingTaken(entry, now);
    const checks = entry.checks ?? firstCheck(entry);
    if (at === null || checks.nextAt === null || checks.nextAt > at + DUE_SLACK_MS) return entry;
    const done = checks.done + 1;
    const nextAfter = CHECK_AFTER_MS[done];
    if (nextAfter === undefined) return { ...entry, state: 'not_found', checks: { done, nextAt: null, lastAt: at }, finishedAt: now };
    return { ...entry, checks: { done, nextAt: entry.startedAt + nextAfter, lastAt: at } };
  };
  const advanced = unsettled.map(advance);
  return {
    latest: latest?.state === 'unknown' ? advance(latest) : latest,
    unsettled: advanced.filter((entry) => entry.state === 'unknown'),
    settled: [...settled, ...advanced.filter((entry) => entry.state !== 'unknown')].slice(-SETTLED_KEPT),
  };
}

/** The panel refused it and a read after that refusal shows nothing new: now, and only now, nothing was charged. */
function refusedNothingTaken(entry: LedgerEntry, now: number): LedgerEntry {
  const { checks: _checks, ...rest } = entry;
  return { ...rest, state: 'failed', ...(entry.error ? { error: { ...entry.error, nothingCharged: true } } : {}), finishedAt: now };
}

/**
 * The ledger's entry `requestId` has its answer (`answered`, still pending) and `history` is the
 * read taken after it (null: it could not be read). Whatever the answer said, the history decides:
 * the entry is open (unknown, with its checks) until a read shows its redemption or, for a
 * refusal, shows none.
 */
export function settleAnswer(ledger: Ledger, requestId: string, history: readonly Redemption[] | null, now: number): Ledger {
  const entry = ledger.latest;
  if (entry?.requestId !== requestId) return ledger;
  const open: LedgerEntry = { ...entry, state: 'unknown', checks: entry.checks ?? firstCheck(entry) };
  const withOpen = { ...ledger, latest: open };
  return history ? settleOutcomes(withOpen, history, null, now, requestId) : withOpen;
}

/** A scheduled check put off while a redeem of the same reward is out: tried again a little later. */
function deferred(entry: LedgerEntry, at: number): LedgerEntry {
  const checks = entry.checks ?? firstCheck(entry);
  return { ...entry, checks: { ...checks, nextAt: Math.max(checks.nextAt ?? 0, at + CHECK_AFTER_MS[0]) } };
}

/** The history could not be read at a scheduled check: it counts as not made, and comes again. */
export function postponeOutcomes(ledger: Ledger, at: number, now: number): Ledger {
  const later = (entry: LedgerEntry): LedgerEntry =>
    entry.state === 'unknown' && entry.checks && entry.checks.nextAt !== null && entry.checks.nextAt <= at + DUE_SLACK_MS
      ? { ...entry, checks: { ...entry.checks, nextAt: Math.max(at, now) + READ_RETRY_MS } }
      : entry;
  return { ...ledger, latest: ledger.latest && later(ledger.latest), unsettled: ledger.unsettled.map(later) };
}

/**
 * The ledger shows `next` instead of its entry (another redemption started, or null: the card was
 * closed). The entry it stops showing is kept as it is: an unknown one is still checked until it
 * settles; a settled one among the recent outcomes, so the redemption it claimed is never claimed
 * again. A pending entry is never replaced: null then.
 */
export function showInstead(ledger: Ledger, next: LedgerEntry | null): Ledger | null {
  const shown = ledger.latest;
  if (shown?.state === 'pending') return null;
  return {
    latest: next,
    unsettled: shown?.state === 'unknown' ? [...ledger.unsettled, shown] : ledger.unsettled,
    settled: shown && shown.state !== 'unknown' ? [...ledger.settled, shown].slice(-SETTLED_KEPT) : ledger.settled,
  };
}
