import { appError, type AppError } from '../../utils/errors';
import { parseApiTimestamp } from '../../utils/format';
import { t, type MessageKey } from '../../utils/i18n';
import { historyItem, ledgerItem, rewardsItem, type LedgerEntry } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { currentApi } from './api';
import { fail, toAppError } from './result';
import { refreshHistory, refreshRewards } from './sync';

/** Server clocks drift: a redemption stamped this long before our start still counts as ours. */
const CLOCK_SKEW_MS = 2 * 60_000;

/** Set synchronously, before any await, so two messages arriving together cannot both start. */
let redeeming = false;

export async function redeem(rewardId: number): Promise<LedgerEntry> {
  if (redeeming) fail(busyError());
  redeeming = true;
  try {
    const previous = await ledgerItem.getValue();
    if (previous?.state === 'pending') fail(busyError());
    const api = await currentApi();
    const reward = (await rewardsItem.getValue())?.data.rewards.find((r) => r.id === rewardId);
    const history = (await historyItem.getValue())?.data ?? [];
    const entry: LedgerEntry = {
      requestId: crypto.randomUUID(),
      rewardId,
      rewardName: reward?.name ?? `Reward ${rewardId}`,
      points: reward?.reward_point_cost ?? null,
      startedAt: Date.now(),
      knownRedemptionIds: history.map((r) => r.id),
      state: 'pending',
    };
    // Written before the request: if the worker stops mid-request, the next start finds this
    // entry and reconciles instead of resending.
    await ledgerItem.setValue(entry);
    try {
      await api.redeem(rewardId);
    } catch (err) {
      return settle(entry, toAppError(err));
    }
    return settle(entry, null);
  } finally {
    redeeming = false;
  }
}

/** Whether the request may have reached the server even though we got no clear answer. */
function ambiguous(error: AppError): boolean {
  return error.kind === 'timeout' || error.kind === 'network' || error.kind === 'server' || error.kind === 'unexpected';
}

async function settle(entry: LedgerEntry, error: AppError | null): Promise<LedgerEntry> {
  // A clear refusal means the panel took nothing.
  if (error && !ambiguous(error)) return finish({ ...entry, state: 'failed', error: { ...error, nothingCharged: true } });
  const found = await findRedemption(entry);
  let outcome: LedgerEntry;
  if (found.redemption) outcome = { ...entry, state: 'done', redemption: found.redemption };
  else if (!error) outcome = { ...entry, state: 'done', redemption: null };
  else if (found.checked) outcome = { ...entry, state: 'failed', error: notInHistory(entry, error) };
  else outcome = { ...entry, state: 'unknown', error };
  if (outcome.state === 'done') outcome.balanceAfter = await balanceNow();
  return finish(outcome);
}

const NO_ANSWER: Partial<Record<AppError['kind'], MessageKey>> = {
  timeout: 'reasonTimeout',
  network: 'reasonNetwork',
  server: 'reasonServer',
  unexpected: 'reasonUnexpected',
};

/** The answer was lost, but the history settles it: the redemption did not happen. */
function notInHistory(entry: LedgerEntry, error: AppError): AppError {
  const reason = t(NO_ANSWER[error.kind] ?? 'reasonUnconfirmed');
  return {
    ...error,
    message: t('errRedeemNotInHistory', entry.rewardName, reason),
    nothingCharged: true,
  };
}

async function finish(entry: LedgerEntry): Promise<LedgerEntry> {
  const done = { ...entry, finishedAt: Date.now() };
  await ledgerItem.setValue(done);
  return done;
}

/** Reads the history (never resends): a new redemption of this reward settles the question. */
async function findRedemption(entry: LedgerEntry): Promise<{ checked: boolean; redemption: Redemption | null }> {
  try {
    return { checked: true, redemption: matchInHistory(entry, await refreshHistory(true)) };
  } catch {
    return { checked: false, redemption: null };
  }
}

/** The newest redemption of the entry's reward that was not in the history when it started. */
export function matchInHistory(entry: LedgerEntry, history: readonly Redemption[]): Redemption | null {
  const known = new Set(entry.knownRedemptionIds ?? []);
  const match = history
    .filter((r) => r.reward.id === entry.rewardId && !known.has(r.id))
    .filter((r) => (parseApiTimestamp(r.created_at) ?? 0) >= entry.startedAt - CLOCK_SKEW_MS)
    .sort((a, b) => b.id - a.id)[0];
  return match ?? null;
}

/**
 * An outcome left unknown (the worker stopped, the answer was lost) is settled as soon as a later
 * history refresh shows the redemption, so the popup stops asking the panelist to check.
 */
export async function settleUnknownFrom(history: readonly Redemption[]): Promise<void> {
  const entry = await ledgerItem.getValue();
  if (entry?.state !== 'unknown') return;
  const redemption = matchInHistory(entry, history);
  if (!redemption) return;
  const { error: _lostAnswer, ...settled } = entry;
  await finish({ ...settled, state: 'done', redemption });
}

async function balanceNow(): Promise<number | null> {
  try {
    return (await refreshRewards(true)).balance.points;
  } catch {
    return null;
  }
}

/**
 * A worker that stopped mid-request leaves a pending entry behind. Nothing is resent: the history
 * decides, and when it cannot, the panelist is told the outcome is unknown.
 */
export async function reconcilePendingRedemption(): Promise<void> {
  if (redeeming) return;
  const entry = await ledgerItem.getValue();
  if (entry?.state !== 'pending') return;
  const found = await findRedemption(entry);
  if (found.redemption) {
    await finish({ ...entry, state: 'done', redemption: found.redemption, balanceAfter: await balanceNow() });
  } else {
    await finish({
      ...entry,
      state: 'unknown',
      error: appError('network', t('errRedeemInterrupted')),
    });
  }
}

/** "Check now": a fresh history read settles an unknown outcome when it shows the redemption. */
export async function checkRedemption(): Promise<LedgerEntry | null> {
  const entry = await ledgerItem.getValue();
  if (entry?.state !== 'unknown') return entry;
  await settleUnknownFrom(await refreshHistory(true));
  return ledgerItem.getValue();
}

export async function outcomeUnknown(): Promise<boolean> {
  return (await ledgerItem.getValue())?.state === 'unknown';
}

export async function dismissRedemption(): Promise<null> {
  const entry = await ledgerItem.getValue();
  if (entry && entry.state !== 'pending') await ledgerItem.setValue(null);
  return null;
}

function busyError(): AppError {
  return appError('busy', t('errRedeemBusy'));
}
