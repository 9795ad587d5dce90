import { appError, type AppError } from '../../utils/errors';
import { t, uiLocale } from '../../utils/i18n';
import { rewardsItem, type LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentApi } from './api';
import { markWritten } from './epochs';
import { answerOf, settleAnswer, type Ledger } from './outcomes';
import { answerRedemption, balanceNow, dismissRedemption as dismiss, liveRedeems, openEntries, readLedger, settlesHere, startRedemption, withBalance } from './redemption-checks';
import { fail, toAppError } from './result';
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
 * No answer settles a Confirm: a request can arrive twice (the browser re-sends one whose
 * connection closed unanswered, a proxy retries, an idempotent panel answers a concurrent copy with
 * 409), so an answer speaks for one copy only. The answer is written first, to choose the words
 * while the history read taken after it decides: a new redemption of the reward there is done
 * (further new ones in that read: recorded again); none, after a refusal, is failed with nothing
 * charged; anything else stays unknown for the scheduled checks. A refusal reads the balance again
 * at once, so the rows are true whatever the history says.
 */
async function settle(sid: SessionId, entry: LedgerEntry, error: AppError | null): Promise<LedgerEntry> {
  const answered: LedgerEntry = { ...entry, answer: answerOf(error), ...(error ? { error } : {}) };
  await answerRedemption(sid, entry.requestId, (ledger) => ({ ...ledger, latest: answered }));
  const [history, refusedBalance] = await Promise.all([
    refreshHistory(true).catch(() => null),
    answered.answer === 'refused' ? balanceNow() : undefined,
  ]);
  const finishedAt = Date.now();
  const decide = (ledger: Ledger) => settleAnswer(ledger, entry.requestId, history, finishedAt);
  const settles = settlesHere(answered, decide(await readLedger()).latest);
  const balance = refusedBalance !== undefined ? refusedBalance : settles ? await balanceNow() : undefined;
  return (await answerRedemption(sid, entry.requestId, (ledger) => withBalance(answered, decide(ledger), balance))) ?? answered;
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
