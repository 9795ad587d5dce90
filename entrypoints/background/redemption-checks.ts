import { browser } from 'wxt/browser';
import { ledgerItem, settledItem, unsettledItem, type LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentGeneration, isCurrent } from './generation';
import { claimRedemptions } from './redemption-match';
import { refreshHistory, refreshRewards } from './sync';

export const CHECK_ALARM = 'redemption-check';

/**
 * When the history is read again after a lost answer, from the moment the request was sent. A
 * panel slow enough to time out may commit well after; only the last check may conclude that the
 * redemption most likely did not happen.
 */
export const CHECK_AFTER_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000] as const;

/** Recent settled outcomes the ledger no longer shows: their claims stand, and the panelist may be told of them. */
const SETTLED_KEPT = 20;
/** A scheduled check whose history read failed is tried again this much later. */
const READ_RETRY_MS = 5 * 60_000;
/** Alarms fire a little early or late; a check this close to its time counts as due. */
const DUE_SLACK_MS = 5_000;

export function firstCheck(entry: LedgerEntry): NonNullable<LedgerEntry['checks']> {
  return { done: 0, nextAt: entry.startedAt + CHECK_AFTER_MS[0], lastAt: null };
}

/** Unknown outcomes still being checked: the ledger's own and those it no longer shows. */
export async function openEntries(latest?: LedgerEntry | null): Promise<LedgerEntry[]> {
  const shown = latest === undefined ? await ledgerItem.getValue() : latest;
  const others = await unsettledItem.getValue();
  return [...others, ...(shown?.state === 'unknown' ? [shown] : [])];
}

/** Redemptions already attributed to a settled outcome, which no other entry may claim. */
export async function claimedIds(): Promise<Set<number>> {
  const settled = [await ledgerItem.getValue(), ...(await settledItem.getValue())];
  return new Set(settled.flatMap((entry) => (entry?.redemption ? [entry.redemption.id] : [])));
}

/** A redemption the panel confirmed but the history did not show yet: it owns one still unnamed. */
const confirmedUnnamed = (entry: LedgerEntry | null): entry is LedgerEntry => entry?.state === 'done' && !entry.redemption;

export function withoutLostAnswer(entry: LedgerEntry): LedgerEntry {
  const { error: _lostAnswer, checks: _checks, ...rest } = entry;
  return rest;
}

/** The balance after an outcome: every refusal or failure reads it again, so the rows are true. */
export async function balanceNow(): Promise<number | null> {
  try {
    return (await refreshRewards(true)).balance.points;
  } catch {
    return null;
  }
}

/** One alarm for all open outcomes, at the earliest check due. */
export async function scheduleChecks(): Promise<void> {
  const due = (await openEntries()).map((entry) => entry.checks?.nextAt ?? Date.now());
  if (due.length === 0) {
    await browser.alarms.clear(CHECK_ALARM);
    return;
  }
  await browser.alarms.create(CHECK_ALARM, { when: Math.min(...due) });
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Everything that reads and rewrites the list of open outcomes runs one at a time: two at once
 * would settle one outcome twice, or write back a list that misses the other's entry.
 */
export function serial<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * The ledger shows `next` instead of its entry (another redemption started, or null: the card was
 * closed). The entry it stops showing is taken as it is at that moment, in the queue the checks
 * use, so a check that settled it a moment ago is not undone by an older copy: an unknown one is
 * still checked until it settles; a settled one is kept among the recent outcomes, so the
 * redemption it claimed is never claimed again. A pending entry is never replaced.
 */
export function showInstead(next: LedgerEntry | null): Promise<boolean> {
  return serial(async () => {
    const shown = await ledgerItem.getValue();
    if (shown?.state === 'pending') return false;
    if (shown?.state === 'unknown') await unsettledItem.setValue([...(await unsettledItem.getValue()), shown]);
    else if (shown) await settledItem.setValue([...(await settledItem.getValue()), shown].slice(-SETTLED_KEPT));
    await ledgerItem.setValue(next);
    if (shown?.state === 'unknown') await scheduleChecks();
    return true;
  });
}

/**
 * Settles open outcomes against the history: found means done. `at` is a scheduled check's time:
 * entries due by then count one check more, and after the last one, still not found means
 * `not_found`. Without `at` (Check now, a history refresh) it can only find, never rule out.
 * `history` is a read already made; otherwise the history is read afresh.
 */
export function checkOutcomes(at: number | null, history?: readonly Redemption[]): Promise<void> {
  return serial(async () => {
    const gen = currentGeneration();
    if ((await openEntries()).length === 0) return;
    let read = history;
    if (!read) {
      try {
        read = await refreshHistory(true);
      } catch {
        if (at !== null) await postpone(gen, at);
        return;
      }
    }
    const latest = await ledgerItem.getValue();
    const others = await unsettledItem.getValue();
    const confirmed = confirmedUnnamed(latest) ? [latest] : [];
    // While a redeem of the same reward is out, a new redemption may be its: wait for its answer.
    const inFlight = latest?.state === 'pending' ? latest.rewardId : null;
    const decidable = (await openEntries(latest)).filter((entry) => entry.rewardId !== inFlight);
    const found = claimRedemptions({ confirmed, open: decidable }, read, await claimedIds());
    const advance = (entry: LedgerEntry): LedgerEntry => {
      if (entry.rewardId === inFlight) return at === null ? entry : deferred(entry, at);
      const redemption = found.get(entry.requestId);
      if (redemption) return { ...withoutLostAnswer(entry), state: 'done', redemption, finishedAt: Date.now() };
      const checks = entry.checks ?? firstCheck(entry);
      if (at === null || checks.nextAt === null || checks.nextAt > at + DUE_SLACK_MS) return entry;
      const done = checks.done + 1;
      const nextAfter = CHECK_AFTER_MS[done];
      if (nextAfter === undefined) return { ...entry, state: 'not_found', checks: { done, nextAt: null, lastAt: at }, finishedAt: Date.now() };
      return { ...entry, checks: { done, nextAt: entry.startedAt + nextAfter, lastAt: at } };
    };
    const advanced = others.map(advance);
    const stillOpen = advanced.filter((entry) => entry.state === 'unknown');
    const settled = advanced.filter((entry) => entry.state !== 'unknown');
    let shown = latest?.state === 'unknown' ? advance(latest) : latest;
    const named = confirmedUnnamed(latest) ? found.get(latest.requestId) : undefined;
    if (named) shown = { ...latest!, redemption: named };
    if (shown && shown !== latest && latest?.state === 'unknown' && shown.state !== 'unknown') shown = { ...shown, balanceAfter: await balanceNow() };
    if (!isCurrent(gen)) return;
    if (settled.length > 0) await settledItem.setValue([...(await settledItem.getValue()), ...settled].slice(-SETTLED_KEPT));
    await unsettledItem.setValue(stillOpen);
    // The ledger may have moved on (a new redemption started) while the history was read.
    if (shown !== latest && (await ledgerItem.getValue())?.requestId === latest?.requestId && isCurrent(gen)) {
      await ledgerItem.setValue(shown);
    }
    await scheduleChecks();
  });
}

/** A scheduled check put off while a redeem of the same reward is out: tried again a little later. */
function deferred(entry: LedgerEntry, at: number): LedgerEntry {
  const checks = entry.checks ?? firstCheck(entry);
  return { ...entry, checks: { ...checks, nextAt: Math.max(checks.nextAt ?? 0, at + CHECK_AFTER_MS[0]) } };
}

/** The history could not be read at a scheduled check: it counts as not made, and comes again. */
async function postpone(gen: number, at: number): Promise<void> {
  const later = (entry: LedgerEntry): LedgerEntry =>
    entry.checks && entry.checks.nextAt !== null && entry.checks.nextAt <= at + DUE_SLACK_MS
      ? { ...entry, checks: { ...entry.checks, nextAt: Math.max(at, Date.now()) + READ_RETRY_MS } }
      : entry;
  const latest = await ledgerItem.getValue();
  const others = await unsettledItem.getValue();
  if (!isCurrent(gen)) return;
  await unsettledItem.setValue(others.map(later));
  if (latest?.state === 'unknown' && (await ledgerItem.getValue())?.requestId === latest.requestId) await ledgerItem.setValue(later(latest));
  await scheduleChecks();
}

export async function onCheckAlarm(alarm: { name: string; scheduledTime: number }): Promise<void> {
  if (alarm.name === CHECK_ALARM) await checkOutcomes(alarm.scheduledTime);
}

/** "Check now": a fresh history read settles an unknown outcome when it shows the redemption. */
export async function checkRedemption(): Promise<LedgerEntry | null> {
  await checkOutcomes(null);
  return ledgerItem.getValue();
}
