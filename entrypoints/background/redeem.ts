import { appError, type AppError } from '../../utils/errors';
import { t, uiLocale } from '../../utils/i18n';
import { rewardsItem, type LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentApi } from './api';
import { markWritten } from './epochs';
import { firstCheck, settleOutcomes, type Ledger } from './outcomes';
import { answerRedemption, balanceNow, dismissRedemption as dismiss, liveRedeems, openEntries, readLedger, settlesHere, startRedemption, withBalance } from './redemption-checks';
import { ambiguous, fail, toAppError } from './result';
import { activeCredentials, StaleSession, type SessionId } from './store';
import { refreshHistory } from './sync';
import { workerReady } from './worker-ready';

/**
 * Sessions with a redeem under way in this worker. Checked and set in one synchronous step, so two
 * messages arriving together cannot both start; per session, so a redeem of an account that was
 * just left cannot hold up the next account's.
 */
const redeeming = new Set<SessionId>();

export async function redeem(rewardId: number, confirmUnsettled = false): Promise<LedgerEntry> {
  // A pending entry a stopped worker left is turned unknown, with its check, before this looks at it.
  await workerReady();
  const { api, sid } = await currentApi();
  if (redeeming.has(sid)) fail(busyError());
  redeeming.add(sid);
  try {
    const earlier = (await openEntries()).find((entry) => entry.rewardId === rewardId);
    if (earlier && !confirmUnsettled) fail(appError('unsettled', t('errRedeemUnsettled', earlier.rewardName, timeOf(earlier.startedAt))));
    const reward = (await rewardsItem.getValue())?.data.rewards.find((r) => r.id === rewardId);
    const requestId = crypto.randomUUID();
    const entry: LedgerEntry = {
      requestId,
      rewardId,
      rewardName: reward?.name ?? `Reward ${rewardId}`,
      points: reward?.reward_point_cost ?? null,
      startedAt: Date.now(),
      knownRedemptionIds: (await baseline()).map((r) => r.id),
      idempotencyKey: requestId,
      state: 'pending',
    };
    // Written before the request, with its check scheduled: if the worker stops mid-request, the
    // next start finds this entry and checks the history instead of resending. The outcome shown
    // until now is replaced: an unknown one is still checked on its own, a settled one keeps its claim.
    liveRedeems.add(requestId);
    try {
      if (!(await startRedemption(sid, entry))) fail(busyError());
      let error: AppError | null = null;
      try {
        // Leaves only while this session is still the active one (checked as it leaves, store.ts).
        await api.redeem(rewardId, entry.idempotencyKey);
      } catch (err) {
        // Not sent: the session ended before it could leave; the switch emptied its ledger.
        if (err instanceof StaleSession) throw err;
        error = toAppError(err);
      } finally {
        // Whatever the answer, reads that left before it may predate the redemption.
        markWritten('rewards', 'history');
      }
      return await settle(sid, entry, error);
    } finally {
      // From here a pending entry left in storage (its answer could not be written) counts as lost.
      liveRedeems.delete(requestId);
    }
  } finally {
    redeeming.delete(sid);
  }
}

/**
 * The redemptions that exist before this one, read fresh from the panel (a 304 when nothing
 * changed), so that none of them is ever taken for it. When the history cannot be read, the redeem
 * is not sent: without a baseline, a redemption made minutes earlier could pass for this one.
 */
async function baseline(): Promise<Redemption[]> {
  try {
    return await refreshHistory(true);
  } catch (err) {
    if (err instanceof StaleSession) throw err;
    fail(appError('rejected', t('errRedeemNoBaseline', toAppError(err).message)));
  }
}

/**
 * Only a clear answer settles a redemption at once. A 4xx is the panel's refusal: nothing was
 * charged. Success is done. Anything else (time-out, dropped connection, 5xx, a body that is not
 * the documented one) may have been charged: the outcome stays unknown until the history shows
 * the redemption, or still does not after the last scheduled check. Success or not, a fresh
 * history read names the redemption and shows whether the panel recorded it more than once.
 */
async function settle(sid: SessionId, entry: LedgerEntry, error: AppError | null): Promise<LedgerEntry> {
  const finishedAt = Date.now();
  if (error && !ambiguous(error)) {
    const failed: LedgerEntry = { ...entry, state: 'failed', error: { ...error, nothingCharged: true }, balanceAfter: await balanceNow(), finishedAt };
    return (await answerRedemption(sid, entry.requestId, (ledger) => ({ ...ledger, latest: failed }))) ?? failed;
  }
  const answered: LedgerEntry = error ? { ...entry, state: 'unknown', error, checks: firstCheck(entry) } : { ...entry, state: 'done', finishedAt };
  // A quick look can only find it, never rule it out: a panel this slow may not have committed yet.
  const history = await refreshHistory(true).catch(() => null);
  const outcome = (ledger: Ledger): Ledger => {
    const withAnswer = { ...ledger, latest: answered };
    return history ? settleOutcomes(withAnswer, history, null, finishedAt) : withAnswer;
  };
  const preview = outcome(await readLedger());
  const balance = settlesHere(entry, preview.latest) ? await balanceNow() : undefined;
  return (await answerRedemption(sid, entry.requestId, (ledger) => withBalance(entry, outcome(ledger), balance))) ?? answered;
}

/** Closing the card does not end the checks: an unknown outcome is still owed to the panelist. */
export async function dismissRedemption(): Promise<null> {
  const credentials = await activeCredentials();
  if (credentials) await dismiss(credentials.session);
  return null;
}

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit' });
}

function busyError(): AppError {
  return appError('busy', t('errRedeemBusy'));
}
