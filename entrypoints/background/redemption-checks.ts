import { browser } from 'wxt/browser';
import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { duplicatesItem, ledgerItem, settledItem, unsettledItem, type DuplicateRecord, type LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { recordedAgain, settledOutcome, type NotifyEvent } from './notify-events';
import { tellWith } from './notify-tell';
import { dueTimes, firstCheck, interrupted, openOf, postponeOutcomes, READ_RETRY_MS, settleOutcomes, showInstead, type Ledger } from './outcomes';
import { activeCredentials, put, StaleSession, type Put, type SessionId } from './store';
import { refreshHistory, refreshRewards } from './sync';
import { workerReady } from './worker-ready';

export { CHECK_AFTER_MS, firstCheck, withoutLostAnswer } from './outcomes';

export const CHECK_ALARM = 'redemption-check';

/** Request ids of the redeems this worker has in flight: a pending entry not among them lost its answer. */
export const liveRedeems = new Set<string>();

const lostAnswer = () => appError('network', t('errRedeemInterrupted'));

/** The ledger as it stands: a pending entry no redeem of this worker has in flight counts as unknown. */
export async function readLedger(): Promise<Ledger> {
  const [latest, unsettled, settled] = await Promise.all([ledgerItem.getValue(), unsettledItem.getValue(), settledItem.getValue()]);
  return interrupted({ latest, unsettled, settled }, liveRedeems, lostAnswer());
}

/** Unknown outcomes still being checked: the ledger's own and those it no longer shows. */
export async function openEntries(): Promise<LedgerEntry[]> {
  return openOf(await readLedger());
}

/** The balance after an outcome: every refusal or failure reads it again, so the rows are true. */
export async function balanceNow(): Promise<number | null> {
  try {
    return (await refreshRewards(true)).balance.points;
  } catch {
    return null;
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Everything that reads and rewrites the ledger runs one at a time, each followed by the alarm
 * it needs: two at once would read the history twice for one check, or leave an alarm for a
 * ledger that moved on. (Each write is also one turn of the store: decided on what it writes over.)
 */
function serial<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}

const same = (a: readonly LedgerEntry[], b: readonly LedgerEntry[]) => a.length === b.length && a.every((entry, i) => entry === b[i]);

/**
 * Writes what `decide` makes of the ledger, for session `sid`, in one turn of the store that also
 * records what it tells: each unknown outcome that settled here (found, or not found after the last
 * check) and each Confirm the panel recorded more than once, once each. An outcome the panel's own
 * answer settled is never told again when its card closes or the next redemption replaces it.
 */
async function record(sid: SessionId, decide: (ledger: Ledger) => Ledger | null): Promise<Ledger | null> {
  let written: Ledger | null = null;
  await tellWith(sid, [ledgerItem, unsettledItem, settledItem, duplicatesItem], (get) => {
    const stored: Ledger = { latest: get(ledgerItem), unsettled: get(unsettledItem), settled: get(settledItem) };
    const before = interrupted(stored, liveRedeems, lostAnswer());
    const after = decide(before) ?? (before !== stored ? before : null);
    if (!after) return null;
    written = after;
    const { events, records } = toTell(before, after);
    const puts: Put[] = [
      ...(after.latest !== stored.latest ? [put(ledgerItem, after.latest)] : []),
      ...(same(after.unsettled, stored.unsettled) ? [] : [put(unsettledItem, [...after.unsettled])]),
      ...(same(after.settled, stored.settled) ? [] : [put(settledItem, [...after.settled])]),
      ...(records.length > 0 ? [put(duplicatesItem, [...get(duplicatesItem), ...records])] : []),
    ];
    return { puts, events };
  });
  return written;
}

function toTell(before: Ledger, after: Ledger): { events: NotifyEvent[]; records: DuplicateRecord[] } {
  const wasOpen = new Set(openOf(before).map((entry) => entry.requestId));
  const earlier = new Map([before.latest, ...before.unsettled, ...before.settled].flatMap((e) => (e ? [[e.requestId, e] as const] : [])));
  const events: NotifyEvent[] = [];
  const records: DuplicateRecord[] = [];
  for (const entry of [after.latest, ...after.unsettled, ...after.settled]) {
    if (!entry) continue;
    const settled = wasOpen.has(entry.requestId) ? settledOutcome(entry) : null;
    if (settled) events.push(settled);
    const again = entry.duplicates && !earlier.get(entry.requestId)?.duplicates ? recordedAgain(entry) : null;
    if (again && entry.redemption) {
      events.push(again);
      records.push({ requestId: entry.requestId, rewardName: entry.rewardName, points: entry.points, redemptionIds: [entry.redemption.id, ...entry.duplicates!] });
    }
  }
  return { events, records };
}

/** One alarm for every outcome still to be settled, at the earliest check due; none when there is none. */
async function scheduleChecks(): Promise<void> {
  const due = dueTimes(await readLedger());
  if (due.length === 0) await browser.alarms.clear(CHECK_ALARM);
  else await browser.alarms.create(CHECK_ALARM, { when: Math.min(...due) });
}

/** Lowers the alarm to `when` if it is later or missing, before an entry due then is written. */
async function checkBy(when: number): Promise<void> {
  const alarm = await browser.alarms.get(CHECK_ALARM);
  if (!alarm || alarm.scheduledTime > when) await browser.alarms.create(CHECK_ALARM, { when });
}

/**
 * A redemption starts: its pending entry replaces what the ledger shows (false when a pending one
 * is still there). Its first check is scheduled before the entry is written, so a worker stopped
 * at any point leaves no entry without a check.
 */
export function startRedemption(sid: SessionId, entry: LedgerEntry): Promise<boolean> {
  return serial(async () => {
    await checkBy(firstCheck(entry).nextAt!);
    const written = await record(sid, (ledger) => showInstead(ledger, entry));
    await scheduleChecks();
    return written !== null;
  });
}

/** Closing the card does not end the checks: an unknown outcome is still owed to the panelist. */
export function dismissRedemption(sid: SessionId): Promise<void> {
  return serial(async () => {
    await record(sid, (ledger) => showInstead(ledger, null));
    await scheduleChecks();
  });
}

/**
 * The redeem's own answer: the pending entry `requestId` becomes what `answered` makes of the
 * ledger. Returns the ledger's entry as written.
 */
export function answerRedemption(sid: SessionId, requestId: string, answered: (ledger: Ledger) => Ledger): Promise<LedgerEntry | null> {
  return serial(async () => {
    const written = await record(sid, (ledger) => (ledger.latest?.requestId === requestId ? answered(ledger) : null));
    await scheduleChecks();
    return written?.latest ?? null;
  });
}

/** Whether the ledger's own entry settles from `before` to `after`: the moment its balance is read. */
export function settlesHere(before: LedgerEntry | null, after: LedgerEntry | null): after is LedgerEntry {
  const open = (entry: LedgerEntry | null) => entry?.state === 'pending' || entry?.state === 'unknown';
  return !!after && open(before) && !open(after) && before!.requestId === after.requestId;
}

/** The ledger's entry with the balance read after it, when it settled here. */
export function withBalance(before: LedgerEntry | null, after: Ledger, balanceAfter: number | null | undefined): Ledger {
  return balanceAfter !== undefined && settlesHere(before, after.latest) ? { ...after, latest: { ...after.latest, balanceAfter } } : after;
}

/**
 * Settles open outcomes against the history (outcomes.ts): a scheduled check at `at`, or (null)
 * Check now and history reads, which can only find. `seen` is a read already made, with the
 * session it belongs to; otherwise the history is read afresh for the active session. Whatever
 * it decides is written for that session only.
 */
export function checkOutcomes(at: number | null, seen?: { sid: SessionId; history: readonly Redemption[] }): Promise<void> {
  return serial(async () => {
    const credentials = await activeCredentials();
    if (!credentials || (seen && seen.sid !== credentials.session)) return;
    const sid = credentials.session;
    const ledger = await readLedger();
    if (openOf(ledger).length === 0) return;
    let history = seen?.history;
    try {
      history ??= await refreshHistory(true);
    } catch {
      if (at !== null) await record(sid, (now) => postponeOutcomes(now, at, Date.now())).catch(() => undefined);
      await scheduleChecks();
      return;
    }
    const read = history;
    // The balance goes with the ledger's own outcome when it settles: read before the write.
    const balance = settlesHere(ledger.latest, settleOutcomes(ledger, read, at, Date.now()).latest) ? await balanceNow() : undefined;
    let failure: unknown = null;
    try {
      await record(sid, (now) => withBalance(now.latest, settleOutcomes(now, read, at, Date.now()), balance));
    } catch (err) {
      // An ended session's outcomes are not this one's; a full storage is said to who asked, and
      // the outcomes stay open for the next check.
      if (!(err instanceof StaleSession)) failure = err;
    }
    await scheduleChecks();
    if (failure) throw failure;
  });
}

/**
 * At worker start, once: a worker that stopped mid-request left its entry pending. Nothing is
 * resent: it becomes unknown (as any pending entry no redeem of this worker has in flight), and
 * every open entry has its check scheduled (recover.ts then looks at the history once).
 */
export async function recoverPending(): Promise<void> {
  const credentials = await activeCredentials();
  await serial(async () => {
    if (credentials) await record(credentials.session, () => null).catch(() => undefined);
    await scheduleChecks();
  });
}

export async function onCheckAlarm(alarm: { name: string; scheduledTime: number }): Promise<void> {
  if (alarm.name !== CHECK_ALARM) return;
  await workerReady();
  // The browser has removed the alarm that fired: one stands in until this check has run, so a
  // worker stopped during it leaves its outcomes checked again.
  await serial(() => checkBy(Date.now() + READ_RETRY_MS));
  // Nobody waits on an alarm: what it could not write, the next check tries again.
  await checkOutcomes(alarm.scheduledTime).catch(() => undefined);
}

/** "Check now": a fresh history read settles an unknown outcome when it shows the redemption. */
export async function checkRedemption(): Promise<LedgerEntry | null> {
  await checkOutcomes(null);
  return ledgerItem.getValue();
}
