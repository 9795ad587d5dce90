import { browser } from 'wxt/browser';
import { appError, type AppError } from '../../../utils/errors';
import { failureReason } from '../../../utils/failure-reason';
import { t, uiLocale } from '../../../utils/i18n';
import { asSentence, sentences } from '../../../utils/sentences';
import { duplicatesItem, ledgerItem, settledItem, unsettledItem, type LedgerEntry } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import { currentApi } from '../auth/api';
import { markWritten } from '../sync/epochs';
import { writeAndNotify } from '../notify/notify-tell';
import { fail, toAppError } from '../result';
import { activeCredentials, put, StaleSession, whileActive, type Put, type SessionId } from '../store/store';
import { storeWith } from '../store/stored-reads';
import { workerReady } from '../worker-ready';
import { balanceAfter, historyAfter, historyNow, readMoment } from './fresh-reads';
import { baselineOf, offerAt } from './before-sending';
import { recordsClaimed, recordsShown, toTell } from './repeats';
import {
  answerOf,
  applyAnswer,
  applyRead,
  applyReadAfterAnswer,
  balanceWanted,
  checkTimes,
  firstCheck,
  interrupted,
  openConfirms,
  postponeChecks,
  READ_RETRY_MS,
  replaceCurrent,
  withBalance,
  type BalanceSeen,
  type Confirms,
  type HistoryRead,
} from './machine';
import type { RewardId } from '../../../utils/ids';

export { CHECK_AFTER_MS } from './machine';

/**
 * The redemption's effects: the redeem itself, the history checks, closing the card, the check
 * alarm and the recovery after a stopped worker. Every decision is the state machine's
 * (machine.ts), made inside one turn of the store on the Confirms as they stand, with the check
 * alarm set in that same turn: no second queue, and no alarm that disagrees with storage.
 */

// Stryker disable next-line StringLiteral: every use names it through this constant, and no other alarm is nameless
export const CHECK_ALARM = 'redemption-check';

/** Request ids of the redeems this worker has in flight: a pending Confirm not among them lost its answer. */
export const redeemsInFlight = new Set<string>();

/**
 * Sessions with a redeem under way in this worker. Checked and set in one synchronous step, so two
 * messages arriving together cannot both start; per session, so a redeem of an account that was
 * just left cannot hold up the next account's.
 */
const redeeming = new Set<SessionId>();

const lostAnswer = () => appError('network', t('errRedeemInterrupted'));
const ITEMS = [ledgerItem, unsettledItem, settledItem, duplicatesItem];
const same = (a: readonly LedgerEntry[], b: readonly LedgerEntry[]) =>
  a.length === b.length && a.every((entry, i) => entry === b[i]);

/**
 * The records of Confirms recorded more than once are kept as each history read shows them
 * (repeats.ts, `recordsShown`), in the very turn that stores the read: one whose copies the panel
 * reversed goes with the read that shows it. In a turn of its own after the read, a worker stopped
 * between the two would lose that evidence once a max + 1 panel gave a reversed copy's id, reward
 * and second to the next redemption, and the legitimate one would be marked as a copy for good.
 */
storeWith('history', {
  items: [duplicatesItem],
  puts: (history, get) => {
    const kept = recordsShown(get(duplicatesItem), history as readonly Redemption[]);
    return kept ? [put(duplicatesItem, kept)] : [];
  },
});

/** The Confirms as they stand: a pending one no redeem of this worker has in flight counts as unknown. */
async function readConfirms(): Promise<Confirms> {
  const [current, awaitingCheck, recentlySettled] = await Promise.all([
    ledgerItem.getValue(),
    unsettledItem.getValue(),
    settledItem.getValue(),
  ]);
  return interrupted({ current, awaitingCheck, recentlySettled }, redeemsInFlight, lostAnswer(), Date.now());
}

/** Confirms whose outcome is still unknown: the current one and those awaiting a check. */
export async function openEntries(): Promise<LedgerEntry[]> {
  return openConfirms(await readConfirms());
}

/**
 * The balance as a read that left after `moment` shows it, for the ledger: unread when it failed.
 * Read as a Confirm settles too, so the header, the rows and the card agree on it.
 */
async function balanceFor(sid: SessionId, moment: number): Promise<BalanceSeen> {
  const points = await balanceAfter(sid, moment);
  return points === undefined ? { read: false } : { read: true, points };
}

/**
 * Writes what `decide` makes of the Confirms, for session `sid`, in one turn of the store that also
 * records what it tells (each unknown outcome that settled, each Confirm named with repeats, once
 * each) and sets the check alarm for the Confirms as they then stand. `before` runs in the turn
 * before the write. Returns what was written, or null when nothing changed.
 */
async function record(
  sid: SessionId,
  decide: (confirms: Confirms) => Confirms | null,
  before?: () => Promise<void>,
): Promise<Confirms | null> {
  let stored: Confirms | null = null;
  let written: Confirms | null = null;
  await writeAndNotify(
    sid,
    ITEMS,
    (get) => {
      const inStorage: Confirms = {
        current: get(ledgerItem),
        awaitingCheck: get(unsettledItem),
        recentlySettled: get(settledItem),
      };
      const seen = interrupted(inStorage, redeemsInFlight, lostAnswer(), Date.now());
      stored = seen;
      const after = decide(seen) ?? (seen !== inStorage ? seen : null);
      if (!after) return null;
      written = after;
      const { events, records } = toTell(seen, after);
      const puts: Put[] = [
        ...(after.current !== inStorage.current ? [put(ledgerItem, after.current)] : []),
        ...(same(after.awaitingCheck, inStorage.awaitingCheck) ? [] : [put(unsettledItem, [...after.awaitingCheck])]),
        ...(same(after.recentlySettled, inStorage.recentlySettled)
          ? []
          : [put(settledItem, [...after.recentlySettled])]),
      ];
      const marks = recordsClaimed(get(duplicatesItem), records, after);
      if (marks) puts.push(put(duplicatesItem, marks));
      return { puts, events };
    },
    { ...(before ? { before } : {}), after: (ok) => (ok ? scheduleChecks(written ?? stored) : keepChecked(stored)) },
  );
  return written;
}

/** One alarm for every Confirm still to be settled, at the earliest check due; none when there is none. */
async function scheduleChecks(confirms: Confirms | null): Promise<void> {
  // Stryker disable next-line ArrayDeclaration: never null: the store runs `after` only once the plan, which sets it, ran
  const due = confirms ? checkTimes(confirms) : [];
  if (due.length === 0) await browser.alarms.clear(CHECK_ALARM);
  else await browser.alarms.create(CHECK_ALARM, { when: Math.min(...due) });
}

/**
 * A write that failed may still have been seen (the worker stopped just after it): the alarm is
 * only ever brought forward then, never cleared nor put off.
 */
async function keepChecked(confirms: Confirms | null): Promise<void> {
  // Stryker disable next-line ArrayDeclaration: never null: the store runs `after` only once the plan, which sets it, ran
  const due = confirms ? checkTimes(confirms) : [];
  if (due.length > 0) await checkBy(Math.min(...due));
}

/** Lowers the alarm to `when` if it is later or missing: it can only make a check come sooner. */
async function checkBy(when: number): Promise<void> {
  const alarm = await browser.alarms.get(CHECK_ALARM);
  if (!alarm || alarm.scheduledTime > when) await browser.alarms.create(CHECK_ALARM, { when });
}

/** One Confirm as the popup sends it: the reward, the session its dialog was shown in, the cost confirmed. */
export interface RedeemOrder {
  rewardId: RewardId;
  session: SessionId;
  /** The points cost the panelist confirmed: the cost sent, or nothing is (before-sending.ts). */
  points: number;
  /** The panelist confirmed again knowing that an earlier redemption of it is still being checked. */
  confirmUnsettled?: boolean | undefined;
}

export async function redeem({
  rewardId,
  session,
  points,
  confirmUnsettled = false,
}: RedeemOrder): Promise<LedgerEntry> {
  // A pending Confirm a stopped worker left is turned unknown, with its check, before this looks at it.
  await workerReady();
  // Reads that left before this moment may predate a redemption made elsewhere just now.
  const pressed = readMoment();
  const { api, sid } = await currentApi();
  // Confirmed for the account the dialog showed: never carried out for whichever is connected now.
  if (sid !== session) fail(appError('invalid_input', t('errRedeemAccountChanged')));
  if (redeeming.has(sid)) fail(busyError());
  redeeming.add(sid);
  try {
    const earlier = (await openEntries()).find((entry) => entry.rewardId === rewardId);
    if (earlier && !confirmUnsettled)
      fail(appError('unsettled', t('errRedeemUnsettled', earlier.rewardName, timeOf(earlier.startedAt))));
    const requestId = crypto.randomUUID();
    const startedAt = Date.now();
    const known = await baselineOf(sid, pressed, rewardId);
    // Read after the baseline, the nearer to the request leaving: the cost sent is the cost confirmed.
    const { reward, balanceBefore } = await offerAt(sid, pressed, rewardId, points);
    const entry: LedgerEntry = {
      requestId,
      rewardId,
      rewardName: reward.name,
      points: reward.reward_point_cost,
      startedAt,
      baseline: known,
      // Absent when not read: a null here would say the panel shows none (redemption/balance.ts).
      ...(balanceBefore === undefined ? {} : { balanceBefore }),
      idempotencyKey: requestId,
      state: 'pending',
    };
    // Written before the request, its check alarm set first in the same turn: if the worker stops
    // mid-request, the next start finds this Confirm and checks the history instead of resending.
    redeemsInFlight.add(requestId);
    try {
      if (!(await startRedemption(sid, entry))) fail(busyError());
      let error: AppError | null = null;
      try {
        // Leaves only while this session is still the active one (checked as it leaves, store.ts).
        await api.redeem(rewardId, entry.idempotencyKey);
      } catch (err) {
        // Not sent: the session ended before it could leave; the switch emptied its Confirms.
        if (err instanceof StaleSession) throw err;
        error = toAppError(err);
      } finally {
        // Whatever the answer, reads that left before it may predate the redemption.
        markWritten('rewards', 'history');
      }
      return await settle(sid, entry, error);
    } finally {
      // From here a pending Confirm left in storage (its answer could not be written) counts as lost.
      redeemsInFlight.delete(requestId);
    }
  } finally {
    redeeming.delete(sid);
  }
}

/**
 * No answer settles a Confirm: a request can arrive twice (the browser re-sends one whose
 * connection closed unanswered, a proxy retries, an idempotent panel answers a concurrent copy with
 * 409), so an answer speaks for one copy only. The answer is written first, to choose the words
 * while the history and the balance, read after it, decide (machine.ts).
 */
async function settle(sid: SessionId, entry: LedgerEntry, error: AppError | null): Promise<LedgerEntry> {
  const answered: LedgerEntry = {
    ...entry,
    answer: answerOf(error),
    answeredAt: Date.now(),
    ...(error ? { error } : {}),
  };
  await answerRedemption(sid, entry.requestId, (confirms) => applyAnswer(confirms, answered));
  // The history and the balance, each by a read that left after the answer: the balance is
  // evidence too (machine.ts), and the rows and header agree with the outcome told.
  const moment = readMoment();
  // Neither failed read stands in for anything: an unread history rules nothing out, an unread
  // balance is no evidence of an unmoved one (machine.ts).
  const [read, balance] = await Promise.all([
    // Stryker disable next-line ArrowFunction: undefined, like null, is no read (applyReadAfterAnswer tests it for truth)
    historyAfter(sid, moment).catch(() => null),
    // balanceFor rejects only with StaleSession, whose write below the store refuses: the stand-in is never read.
    // Stryker disable next-line ArrowFunction,ObjectLiteral,BooleanLiteral: see the line above
    balanceFor(sid, moment).catch((): BalanceSeen => ({ read: false })),
  ]);
  const settled = (confirms: Confirms) => {
    const after = applyReadAfterAnswer(confirms, entry.requestId, read, Date.now(), balance);
    return after && withBalance(confirms, after, balance.read ? balance.points : undefined);
  };
  return (await answerRedemption(sid, entry.requestId, settled)) ?? answered;
}

/**
 * A redemption starts: it becomes the current Confirm (false when a pending one is still there).
 * Its first check's alarm is set in the same turn, before the Confirm is written, so a worker
 * stopped at any point leaves no Confirm without a check.
 */
export async function startRedemption(sid: SessionId, entry: LedgerEntry): Promise<boolean> {
  return (
    (await record(
      sid,
      (confirms) => replaceCurrent(confirms, entry),
      () => checkBy(firstCheck(entry).nextAt!),
    )) !== null
  );
}

/**
 * The redeem's own answer, or the read after it: the current Confirm `requestId` becomes what
 * `answered` makes of the Confirms. Returns the current Confirm as written, null when the card
 * shows another one.
 */
export async function answerRedemption(
  sid: SessionId,
  requestId: string,
  answered: (confirms: Confirms) => Confirms | null,
): Promise<LedgerEntry | null> {
  const written = await record(sid, (confirms) =>
    confirms.current?.requestId === requestId ? answered(confirms) : null,
  );
  return written?.current ?? null;
}

/** Closing the card does not end the checks: an unknown outcome is still owed to the panelist. */
export async function dismissRedemption(): Promise<null> {
  const credentials = await activeCredentials();
  if (credentials) await record(credentials.session, (confirms) => replaceCurrent(confirms, null));
  return null;
}

/**
 * Settles open Confirms against the history (machine.ts): a scheduled check at `at`, or (null)
 * Check now and history reads, which can only find. `seen` is a read already made, with the
 * session it belongs to (when it was asked for is not known: it can find, never rule out);
 * otherwise the history is read afresh for the active session. Whatever it decides is written for
 * that session only, with the check alarm set to match in the same turn.
 */
export async function checkOutcomes(
  at: number | null,
  seen?: { sid: SessionId; history: readonly Redemption[] },
): Promise<AppError | null> {
  const credentials = await activeCredentials();
  if (!credentials) {
    // Nothing of a session is left to check: an alarm a stopped worker left is cleared, unless a
    // session started meanwhile.
    if (!seen) await whileActive(null, () => browser.alarms.clear(CHECK_ALARM)).catch(() => undefined);
    return null;
  }
  if (seen && seen.sid !== credentials.session) return null;
  const sid = credentials.session;
  const confirms = await readConfirms();
  if (openConfirms(confirms).length === 0) {
    // A scheduled check with nothing left to settle ends its alarm.
    // Stryker disable next-line ArrowFunction: undefined, like null, is "nothing to change" (`decide(seen) ?? …`)
    if (at !== null) await record(sid, () => null).catch(() => undefined);
    return null;
  }
  let checked: HistoryRead | AppError;
  try {
    checked = seen ? { history: seen.history, requestedAt: -Infinity } : await checkRead(sid, confirms, at);
  } catch (err) {
    if (err instanceof StaleSession) return null;
    throw err;
  }
  const settled = 'history' in checked ? checked : null;
  // Whatever settles, the balance is read again before the write, so the header agrees with what
  // the list and the card then say; it goes with the current Confirm's outcome when that one settles.
  const preview = settled && applyRead(confirms, settled, at, Date.now());
  const anySettles = !!preview && openConfirms(preview).length < openConfirms(confirms).length;
  // balanceFor rejects only with StaleSession, whose write below the store refuses: the stand-in is never read.
  // Stryker disable next-line ArrowFunction,ObjectLiteral,BooleanLiteral: see the line above
  const weighed = anySettles ? await balanceFor(sid, readMoment()).catch((): BalanceSeen => ({ read: false })) : null;
  const balance = weighed?.read ? weighed.points : undefined;
  try {
    await record(sid, (now) =>
      settled
        ? withBalance(now, applyRead(now, settled, at, Date.now()), balance)
        : at !== null
          ? postponeChecks(now, at, Date.now(), waitAsked(checked as AppError))
          : null,
    );
  } catch (err) {
    // An ended session's outcomes are not this one's; a full storage is said to who asked, and the
    // outcomes stay open for the next check.
    if (!(err instanceof StaleSession)) throw err;
  }
  return settled ? null : (checked as AppError);
}

/** The wait a busy panel asked for (its `Retry-After`), in ms; 0 for any other failure. */
function waitAsked(error: AppError): number {
  return error.kind === 'rate_limited' && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : 0;
}

/**
 * The history read afresh for a check (the one already out, if any), or why it could not be read.
 * A refusal whose balance is still unread is ruled only by a balance read taken for it at its due
 * check: one is read beside the history then. Refused (`StaleSession`) once another session is active.
 */
async function checkRead(sid: SessionId, confirms: Confirms, at: number | null): Promise<HistoryRead | AppError> {
  const moment = readMoment();
  let read: HistoryRead;
  try {
    read = await historyNow();
  } catch (err) {
    if (err instanceof StaleSession) throw err;
    return toAppError(err);
  }
  if (at === null || !balanceWanted(confirms, at)) return read;
  return { ...read, balance: await balanceFor(sid, moment) };
}

/**
 * At worker start, once: a worker that stopped mid-request left its Confirm pending. Nothing is
 * resent: it becomes unknown (as any pending Confirm no redeem of this worker has in flight), and
 * the check alarm is set for every open one (recover.ts then looks at the history once).
 */
export async function recoverPending(): Promise<void> {
  const credentials = await activeCredentials();
  // Stryker disable next-line ArrowFunction: undefined, like null, is "nothing to change" (`decide(seen) ?? …`)
  if (credentials) await record(credentials.session, () => null).catch(() => undefined);
  else await whileActive(null, () => browser.alarms.clear(CHECK_ALARM)).catch(() => undefined);
}

export async function onCheckAlarm(alarm: { name: string; scheduledTime: number }): Promise<void> {
  if (alarm.name !== CHECK_ALARM) return;
  await workerReady();
  // The browser has removed the alarm that fired: one stands in until this check has run, so a
  // worker stopped during it leaves its outcomes checked again (it can only bring a check sooner).
  await checkBy(Date.now() + READ_RETRY_MS);
  // Nobody waits on an alarm: what it could not write, the next check tries again.
  await checkOutcomes(alarm.scheduledTime).catch(() => undefined);
}

/**
 * "Check now": a fresh history read settles an unknown outcome when it shows the redemption. One
 * that could not read the history says so, with the next scheduled check: never "checked, not
 * there", which would invite a second redeem.
 */
export async function checkRedemption(): Promise<LedgerEntry | null> {
  const unread = await checkOutcomes(null);
  if (unread) {
    const next = checkTimes(await readConfirms());
    const when = next.length > 0 ? t('checkNextTry', timeOf(Math.min(...next))) : '';
    fail(appError(unread.kind, sentences(t('checkUnread'), asSentence(failureReason(unread)), when)));
  }
  return ledgerItem.getValue();
}

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit' });
}

function busyError(): AppError {
  return appError('busy', t('errRedeemBusy'));
}
