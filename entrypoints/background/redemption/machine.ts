import type { AppError } from '../../../utils/errors';
import { CHECK_AFTER_MS } from '../../../utils/check-schedule';
import { redemptionKey } from '../../../utils/ids';
import type { LedgerEntry, RedemptionAnswer } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import { movedBalance, refusalBalance, type BalanceSeen } from './balance';
import { claimRedemptions, mayBeOwn } from './match';

export type { BalanceSeen } from './balance';

/**
 * The redemption state machine, as pure functions: what the Confirms become when a redeem starts,
 * its answer comes, the history is read, a check is due or the card is closed. service.ts feeds it
 * those events and writes what it returns, in one turn of the store. README.md beside this file
 * draws the states and names the terms.
 */

export { CHECK_AFTER_MS };

/**
 * Recently settled Confirms kept for the panelist to be told of; one whose redemption an unsettled
 * Confirm could still take is kept longer ({@link keptSettled}).
 */
export const SETTLED_KEPT = 20;
/** A scheduled check whose history read failed is tried again this much later. */
export const READ_RETRY_MS = 5 * 60_000;
/** Alarms fire a little early or late; a check this close to its time counts as due. */
const DUE_SLACK_MS = 5_000;

/** Every Confirm the background still keeps, by where it stands. */
export interface Confirms {
  /** The one the popup's card shows: being redeemed, being checked, or settled and not yet closed. */
  current: LedgerEntry | null;
  /** Those whose outcome is still unknown that the card no longer shows: checked until settled. */
  awaitingCheck: readonly LedgerEntry[];
  /**
   * Settled ones the card no longer shows, oldest first: the recent ones, and any whose redemption
   * an unsettled Confirm could still take ({@link keptSettled}); the redemptions they claimed stay theirs.
   */
  recentlySettled: readonly LedgerEntry[];
}

/**
 * The settled Confirms kept, oldest first: the last {@link SETTLED_KEPT}, and any older one whose
 * redemption an unsettled Confirm could still take for its own (of its reward, new to its
 * baseline). A claim stands as long as any Confirm could still be matched, however many settle
 * meanwhile: dropped, it would let an open Confirm take another's redemption as its own.
 */
export function keptSettled(settled: readonly LedgerEntry[], unsettled: readonly LedgerEntry[]): LedgerEntry[] {
  const recent = settled.length - SETTLED_KEPT;
  const owns = unsettled.map(mayBeOwn);
  return settled.filter(
    (entry, i) => i >= recent || (!!entry.redemption && owns.some((own) => own(entry.redemption!))),
  );
}

/** A Confirm settles: its baseline matches nothing any more, so it is not kept. */
function settledAs(entry: LedgerEntry, settled: Partial<LedgerEntry> & Pick<LedgerEntry, 'state'>): LedgerEntry {
  const { baseline: _baseline, knownRedemptionIds: _ids, ...rest } = entry;
  return { ...rest, ...settled };
}

/**
 * A history read, and when it was asked for: only a read asked for after a Confirm's answer may
 * rule its redemption out. `balance` is the balance read for the ledger beside it, when one was
 * taken (a scheduled check takes one for a refusal whose balance is still unread).
 */
export interface HistoryRead {
  history: readonly Redemption[];
  requestedAt: number;
  balance?: BalanceSeen;
}

export function firstCheck(entry: LedgerEntry): NonNullable<LedgerEntry['checks']> {
  return { done: 0, nextAt: entry.startedAt + CHECK_AFTER_MS[0], lastAt: null };
}

/** The Confirms whose outcome is unknown: those awaiting a check, and the current one. */
export function openConfirms(confirms: Pick<Confirms, 'current' | 'awaitingCheck'>): LedgerEntry[] {
  return [...confirms.awaitingCheck, ...(confirms.current?.state === 'unknown' ? [confirms.current] : [])];
}

/**
 * Whether a scheduled check at `at` must read the balance for the ledger: a refusal whose balance
 * is still unread is due, and only a balance read taken for it may rule on it (refusalBalance).
 */
export function balanceWanted(confirms: Pick<Confirms, 'current' | 'awaitingCheck'>, at: number): boolean {
  return openConfirms(confirms).some((entry) => {
    const next = entry.checks?.nextAt;
    return (
      entry.answer === 'refused' &&
      entry.balanceUnread === true &&
      typeof next === 'number' &&
      next <= at + DUE_SLACK_MS
    );
  });
}

/** The Confirms still to be settled: the open ones, and a pending current one (its answer may never come). */
export function unsettledConfirms(confirms: Pick<Confirms, 'current' | 'awaitingCheck'>): LedgerEntry[] {
  return [...openConfirms(confirms), ...(confirms.current?.state === 'pending' ? [confirms.current] : [])];
}

/** When each Confirm still to be settled is next checked (a pending one has no checks yet: its first). */
export function checkTimes(confirms: Pick<Confirms, 'current' | 'awaitingCheck'>): number[] {
  return unsettledConfirms(confirms).map((entry) => entry.checks?.nextAt ?? entry.startedAt + CHECK_AFTER_MS[0]);
}

/**
 * A pending Confirm no redeem of this worker has in flight: a stopped worker's, or one whose answer
 * could not be written (a full storage). Unknown from `now`, checked like any other; one whose
 * answer had come keeps that answer's words, only a lost one is told as lost (`error`). The read
 * after the answer never came, so its balance is unread: no read at restart may take it for an
 * unmoved one (refusalBalance).
 */
export function interrupted(
  confirms: Confirms,
  live: ReadonlySet<string>,
  error: LedgerEntry['error'],
  now: number,
): Confirms {
  const current = confirms.current;
  if (current?.state !== 'pending' || live.has(current.requestId)) return confirms;
  const lost = error && !current.answer ? { error } : {};
  return {
    ...confirms,
    current: {
      ...current,
      state: 'unknown',
      ...lost,
      balanceUnread: true,
      answeredAt: current.answeredAt ?? now,
      checks: firstCheck(current),
    },
  };
}

/**
 * Statuses that speak of the copy they answer, not of the request: a copy that timed out waiting
 * (408), arrived while the first was still being processed (409, what an idempotent panel answers),
 * found it locked (423), came too early (425), or met a rate limit (429). The first copy may still
 * commit under the same `Idempotency-Key`, so each is unclear, exactly as a lost answer is.
 */
const ABOUT_ONE_COPY: ReadonlySet<number> = new Set([408, 409, 423, 425, 429]);

/**
 * What an answer to the redeem can say before the history speaks: a clear success, the panel's
 * refusal of the request itself (any other 4xx), or nothing clear.
 */
export function answerOf(error: AppError | null): RedemptionAnswer {
  if (!error) return 'success';
  const { status } = error;
  const refused = status !== undefined && status >= 400 && status < 500 && !ABOUT_ONE_COPY.has(status);
  return refused ? 'refused' : 'unclear';
}

export function withoutLostAnswer(entry: LedgerEntry): LedgerEntry {
  const { error: _lostAnswer, checks: _checks, ...rest } = entry;
  return rest;
}

/**
 * Settles open Confirms against a history read: one whose redemption shows is done, with any
 * further new redemptions of its reward in this same read as ones the panel may have recorded
 * again (a re-sent copy commits within the request's lifetime); one the panel refused is failed,
 * nothing charged, when a read asked for after that refusal shows nothing new. `at` is a scheduled
 * check's time: Confirms due by then count one check more, and after the last one, still not
 * found means `not_found`. Without `at` (Check now, a history refresh, the read after an answer) it
 * can only find and confirm a refusal. While a redeem is out (a pending current Confirm), those of
 * its reward wait: a new redemption of that reward may be the one being made. `answered` is the
 * Confirm whose answer this read follows: it chooses first, so a redemption its own request made
 * is never taken for an older open one.
 */
export function applyRead(
  confirms: Confirms,
  read: HistoryRead,
  at: number | null,
  now: number,
  answered?: string,
): Confirms {
  const { current, awaitingCheck, recentlySettled } = confirms;
  const inFlight = current?.state === 'pending' ? current.rewardId : null;
  const decidable = openConfirms(confirms).filter((entry) => entry.rewardId !== inFlight);
  const first = decidable.find((entry) => entry.requestId === answered);
  const claimed = new Set(
    [current, ...recentlySettled].flatMap((entry) => (entry?.redemption ? [redemptionKey(entry.redemption)] : [])),
  );
  const { found, repeats } = claimRedemptions(
    { first, open: decidable.filter((entry) => entry !== first) },
    read.history,
    claimed,
  );
  const advance = (entry: LedgerEntry): LedgerEntry => {
    if (entry.rewardId === inFlight) return at === null ? entry : deferred(entry, at);
    const redemption = found.get(entry.requestId);
    if (redemption) {
      const extra = repeats.get(entry.requestId);
      return settledAs(withoutLostAnswer(entry), {
        state: 'done',
        finishedAt: now,
        redemption,
        ...(extra ? { duplicates: extra } : {}),
      });
    }
    return notShown(entry, read, at, now);
  };
  const advanced = awaitingCheck.map(advance);
  const next = {
    current: current?.state === 'unknown' ? advance(current) : current,
    awaitingCheck: advanced.filter((entry) => entry.state === 'unknown'),
  };
  return {
    ...next,
    recentlySettled: keptSettled(
      [...recentlySettled, ...advanced.filter((entry) => entry.state !== 'unknown')],
      unsettledConfirms(next),
    ),
  };
}

/**
 * An open Confirm a read does not show. A read asked for before its answer came may predate a copy
 * that committed: it rules nothing out. A refusal the balance backs is "nothing charged"; at its due
 * check (`at`) it counts one check more, and after the last one it is `not_found`.
 */
function notShown(entry: LedgerEntry, read: HistoryRead, at: number | null, now: number): LedgerEntry {
  if (read.requestedAt < (entry.answeredAt ?? entry.startedAt)) return entry;
  const checks = entry.checks ?? firstCheck(entry);
  const due = at !== null && checks.nextAt !== null && checks.nextAt <= at + DUE_SLACK_MS;
  const balance = entry.answer === 'refused' ? refusalBalance(entry, read.balance, due) : null;
  if (balance === 'unmoved') return refusedNothingTaken(entry, now);
  const weighed = balance ?? entry;
  if (!due) return weighed;
  const done = checks.done + 1;
  const nextAfter = CHECK_AFTER_MS[done];
  if (nextAfter === undefined)
    return settledAs(weighed, { state: 'not_found', checks: { done, nextAt: null, lastAt: at }, finishedAt: now });
  return { ...weighed, checks: { done, nextAt: entry.startedAt + nextAfter, lastAt: at } };
}

/** The panel refused it and a read after that refusal shows nothing new: now, and only now, nothing was charged. */
function refusedNothingTaken(entry: LedgerEntry, now: number): LedgerEntry {
  const { checks: _checks, ...rest } = entry;
  return settledAs(rest, {
    state: 'failed',
    ...(entry.error ? { error: { ...entry.error, nothingCharged: true } } : {}),
    finishedAt: now,
  });
}

/**
 * The current Confirm `requestId` has its answer (`answered`, still pending: the answer chooses the
 * words while the history is read).
 */
export function applyAnswer(confirms: Confirms, answered: LedgerEntry): Confirms | null {
  return confirms.current?.requestId === answered.requestId ? { ...confirms, current: answered } : null;
}

/**
 * The read taken after the current Confirm's answer (null: it could not be read), with the balance
 * read beside it: read (its points, or none on a panel that shows none) or unread, never a number
 * standing in for a failed read. Whatever the answer said, the history decides: the Confirm is open
 * (unknown, with its checks) until a read shows its redemption or, for a refusal, shows none.
 */
export function applyReadAfterAnswer(
  confirms: Confirms,
  requestId: string,
  read: HistoryRead | null,
  now: number,
  balance: BalanceSeen,
): Confirms | null {
  const entry = confirms.current;
  if (entry?.requestId !== requestId) return null;
  const open: LedgerEntry = {
    ...entry,
    ...(balance.read ? movedBalance(entry.balanceBefore, balance.points) : { balanceUnread: true as const }),
    state: 'unknown',
    checks: entry.checks ?? firstCheck(entry),
  };
  const withOpen = { ...confirms, current: open };
  return read ? applyRead(withOpen, read, null, now, requestId) : withOpen;
}

/** A scheduled check put off while a redeem of the same reward is out: tried again a little later. */
function deferred(entry: LedgerEntry, at: number): LedgerEntry {
  const checks = entry.checks ?? firstCheck(entry);
  return { ...entry, checks: { ...checks, nextAt: Math.max(checks.nextAt ?? 0, at + CHECK_AFTER_MS[0]) } };
}

/**
 * The history could not be read at a scheduled check: it counts as not made, and comes again. The
 * check is marked (`unreadAt`), so the card says the history could not be read, never "not there".
 * It comes again after `READ_RETRY_MS`, or once the wait the panel asked for is over (`waitMs`,
 * its `Retry-After`) when that is later: a check before then would be refused unsent, while the
 * card named its time.
 */
export function postponeChecks(confirms: Confirms, at: number, now: number, waitMs = 0): Confirms {
  const again = Math.max(at, now) + Math.max(READ_RETRY_MS, waitMs);
  const later = (entry: LedgerEntry): LedgerEntry =>
    entry.state === 'unknown' &&
    entry.checks &&
    entry.checks.nextAt !== null &&
    entry.checks.nextAt <= at + DUE_SLACK_MS
      ? { ...entry, checks: { ...entry.checks, nextAt: again, unreadAt: at } }
      : entry;
  return {
    ...confirms,
    current: confirms.current && later(confirms.current),
    awaitingCheck: confirms.awaitingCheck.map(later),
  };
}

/**
 * The card shows `next` instead (another redemption started, or null: the card was closed). The
 * Confirm it stops showing is kept as it is: an unknown one awaits its checks until it settles; a
 * settled one joins the recently settled, so the redemption it claimed is never claimed again. A
 * pending Confirm is never replaced: null then.
 */
export function replaceCurrent(confirms: Confirms, next: LedgerEntry | null): Confirms | null {
  const shown = confirms.current;
  if (shown?.state === 'pending') return null;
  const open = {
    current: next,
    awaitingCheck: shown?.state === 'unknown' ? [...confirms.awaitingCheck, shown] : confirms.awaitingCheck,
  };
  return {
    ...open,
    recentlySettled:
      shown && shown.state !== 'unknown'
        ? keptSettled([...confirms.recentlySettled, shown], unsettledConfirms(open))
        : confirms.recentlySettled,
  };
}

/** Whether a Confirm settles from `before` to `after`: the moment its balance is read. */
export function settlesHere(before: LedgerEntry | null, after: LedgerEntry | null): after is LedgerEntry {
  const open = (entry: LedgerEntry | null) => entry?.state === 'pending' || entry?.state === 'unknown';
  return !!after && open(before) && !open(after) && before!.requestId === after.requestId;
}

/**
 * Every Confirm that settles from `before` to `after` (the current one, or one the card no longer
 * shows) with the balance read as it settled: what the card and the list say of it weighs that
 * balance too (utils/points-taken.ts, notFoundWords). A balance that could not be read
 * (`undefined`) is written nowhere: it stays unknown, never "unmoved".
 */
export function withBalance(before: Confirms, after: Confirms, balanceAfter: number | null | undefined): Confirms {
  if (balanceAfter === undefined) return after;
  const open = new Map(unsettledConfirms(before).map((entry) => [entry.requestId, entry]));
  const weighed = (entry: LedgerEntry): LedgerEntry =>
    settlesHere(open.get(entry.requestId) ?? null, entry) ? { ...entry, balanceAfter } : entry;
  return {
    ...after,
    current: after.current && weighed(after.current),
    recentlySettled: after.recentlySettled.map(weighed),
  };
}
