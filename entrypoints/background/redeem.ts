import { appError, type AppError } from '../../utils/errors';
import { t, uiLocale } from '../../utils/i18n';
import { historyItem, ledgerItem, rewardsItem, type LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentApi, staleSession } from './api';
import { currentGeneration, isCurrent, markWritten } from './generation';
import { balanceNow, claimedIds, firstCheck, showInstead, openEntries, scheduleChecks, withoutLostAnswer } from './redemption-checks';
import { claimRedemptions } from './redemption-match';
import { ambiguous, fail, toAppError } from './result';
import { refreshHistory } from './sync';

/**
 * Set synchronously, before any await, so two messages arriving together cannot both start. Per
 * session: a redeem of an account that was just left cannot hold up the next account's.
 */
let redeemingGen: number | null = null;

export async function redeem(rewardId: number, confirmUnsettled = false): Promise<LedgerEntry> {
  const gen = currentGeneration();
  if (redeemingGen === gen) fail(busyError());
  redeemingGen = gen;
  try {
    const previous = await ledgerItem.getValue();
    if (previous?.state === 'pending') fail(busyError());
    const { api } = await currentApi();
    const open = await openEntries(previous);
    const earlier = open.find((entry) => entry.rewardId === rewardId);
    if (earlier && !confirmUnsettled) fail(appError('unsettled', t('errRedeemUnsettled', earlier.rewardName, timeOf(earlier.startedAt))));
    const reward = (await rewardsItem.getValue())?.data.rewards.find((r) => r.id === rewardId);
    const history = await historyBefore();
    const entry: LedgerEntry = {
      requestId: crypto.randomUUID(),
      rewardId,
      rewardName: reward?.name ?? `Reward ${rewardId}`,
      points: reward?.reward_point_cost ?? null,
      startedAt: Date.now(),
      knownRedemptionIds: history.map((r) => r.id),
      state: 'pending',
    };
    if (!isCurrent(gen)) throw staleSession();
    // Written before the request: if the worker stops mid-request, the next start finds this
    // entry and checks the history instead of resending. The outcome shown until now is replaced:
    // an unknown one is still checked on its own, a settled one keeps its claim.
    if (!(await showInstead(entry))) fail(busyError());
    let error: AppError | null = null;
    try {
      await api.redeem(rewardId);
    } catch (err) {
      error = toAppError(err);
    } finally {
      // Whatever the answer, reads that left before it may predate the redemption.
      markWritten('rewards', 'history');
    }
    // The old account's outcome is not this session's to show.
    if (!isCurrent(gen)) throw staleSession();
    return await settle(gen, entry, error);
  } finally {
    if (redeemingGen === gen) redeemingGen = null;
  }
}

/**
 * The redemptions that exist before this one, so that none of them is ever taken for it. Read
 * from the panel when nothing is cached (just connected, or a worker stopped mid-read): an empty
 * baseline would let a redemption made minutes earlier pass for this one.
 */
async function historyBefore(): Promise<Redemption[]> {
  const cached = await historyItem.getValue();
  if (cached) return cached.data;
  return refreshHistory(false).catch(() => []);
}

/**
 * Only a clear answer settles a redemption at once. A 4xx is the panel's refusal: nothing was
 * charged. Success is done. Anything else (time-out, dropped connection, 5xx, a body that is not
 * the documented one) may have been charged: the outcome stays unknown until the history shows
 * the redemption, or still does not after the last scheduled check.
 */
async function settle(gen: number, entry: LedgerEntry, error: AppError | null): Promise<LedgerEntry> {
  if (error && !ambiguous(error)) {
    const balanceAfter = await balanceNow();
    return finish(gen, { ...entry, state: 'failed', error: { ...error, nothingCharged: true }, balanceAfter });
  }
  if (!error) {
    const redemption = (await lookUp(entry, true)) ?? null;
    return finish(gen, { ...entry, state: 'done', redemption, balanceAfter: await balanceNow() });
  }
  const unknown: LedgerEntry = { ...entry, state: 'unknown', error, checks: firstCheck(entry) };
  // A quick look can only find it, never rule it out: a panel this slow may not have committed yet.
  const redemption = await lookUp(unknown);
  const outcome: LedgerEntry = redemption
    ? { ...withoutLostAnswer(unknown), state: 'done', redemption }
    : unknown;
  const balanceAfter = await balanceNow();
  const done = await finish(gen, { ...outcome, ...(redemption ? { balanceAfter } : {}) });
  await scheduleChecks();
  return done;
}

/**
 * A fresh history read (never a resend); the redemption this entry made, if it shows, among the
 * outcomes still open: a confirmed entry chooses first, an unconfirmed one in start order.
 */
async function lookUp(entry: LedgerEntry, confirmed = false): Promise<LedgerEntry['redemption']> {
  try {
    const history = await refreshHistory(true);
    const open = (await openEntries()).filter((other) => other.requestId !== entry.requestId);
    const entries = confirmed ? { confirmed: [entry], open } : { open: [...open, entry] };
    return claimRedemptions(entries, history, await claimedIds()).get(entry.requestId);
  } catch {
    return undefined;
  }
}

async function finish(gen: number, entry: LedgerEntry): Promise<LedgerEntry> {
  const done = { ...entry, finishedAt: Date.now() };
  if (!isCurrent(gen)) throw staleSession();
  await ledgerItem.setValue(done);
  return done;
}

/**
 * A worker that stopped mid-request leaves a pending entry behind. Nothing is resent: it becomes
 * unknown, and the history checks that follow decide.
 */
export async function reconcilePendingRedemption(): Promise<void> {
  if (redeemingGen !== null) return;
  const gen = currentGeneration();
  const entry = await ledgerItem.getValue();
  if (entry?.state !== 'pending') {
    await scheduleChecks();
    return;
  }
  const unknown: LedgerEntry = { ...entry, state: 'unknown', error: appError('network', t('errRedeemInterrupted')), checks: firstCheck(entry) };
  await finish(gen, unknown);
  const redemption = await lookUp(unknown);
  if (redemption) await finish(gen, { ...withoutLostAnswer(unknown), state: 'done', redemption, balanceAfter: await balanceNow() });
  await scheduleChecks();
}

/** Closing the card does not end the checks: an unknown outcome is still owed to the panelist. */
export async function dismissRedemption(): Promise<null> {
  await showInstead(null);
  return null;
}

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit' });
}

function busyError(): AppError {
  return appError('busy', t('errRedeemBusy'));
}

