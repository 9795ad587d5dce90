import { appError } from '../../../utils/errors';
import { failureReason } from '../../../utils/failure-reason';
import { t, tp } from '../../../utils/i18n';
import { redemptionKey, type RedemptionKey, type RewardId } from '../../../utils/ids';
import { redeemBlock } from '../../../utils/reward-view';
import { asSentence, sentences } from '../../../utils/sentences';
import { rewardsItem } from '../../../utils/storage-items';
import type { Reward } from '../../../utils/types';
import { fail, toAppError } from '../result';
import { StaleSession, type SessionId } from '../store/store';
import { catalogueAfter, historyAfter, pointsSeen } from './fresh-reads';

/**
 * What a Confirm needs read before it may leave, each by a read that left after Confirm was pressed
 * (fresh-reads.ts), and what stops it with nothing sent: a history that cannot be read (no
 * baseline), and a reward whose points cost is not the one the panelist confirmed. Each refusal
 * says the request was not sent, so nothing was charged.
 */

/**
 * The reward's redemptions that exist before this Confirm, whole (utils/ids.ts), from the history
 * read fresh (a 304 when nothing changed), so that none of them is ever taken for it. When the
 * history cannot be read, nothing is sent: without a baseline, a redemption made minutes earlier
 * could pass for this one.
 */
export async function baselineOf(sid: SessionId, pressed: number, rewardId: RewardId): Promise<RedemptionKey[]> {
  try {
    const { history } = await historyAfter(sid, pressed);
    return history.filter((r) => r.reward.id === rewardId).map(redemptionKey);
  } catch (err) {
    if (err instanceof StaleSession) throw err;
    fail(notSent('errRedeemNoBaseline', err));
  }
}

/** Why a reward's cost keeps it from being sent (utils/reward-view.ts, redeemBlock). */
const NOT_OFFERED = {
  impossible: 'errCostRefused',
  missing: 'errCostMissing',
  unpriced: 'errCostUnpriced',
  conflicting: 'errCostConflicting',
} as const;

/** The reward as the catalogue read just before sending lists it, and the balance beside it. */
export interface Offer {
  reward: Reward & { reward_point_cost: number };
  /**
   * The balance just before sending (null: the panel shows none; undefined: not read): with the one
   * after the answer, evidence of points taken.
   */
  balanceBefore: number | null | undefined;
}

/**
 * The reward at the cost the panelist confirmed (`confirmed` points), as the catalogue and balance
 * read just before sending give them (read after the baseline, the nearer to the request leaving).
 * Nothing is sent for a reward that read no longer lists, nor one whose points cost is unknown or
 * quarantined (utils/api/records.ts), nor one whose cost is not the one confirmed: then the popup
 * asks again with the cost now (`price_changed`). When that read fails, the cost cannot be compared
 * and nothing is sent either. A balance it could not read beside the catalogue does not stop the
 * Confirm (the panel decides whether the points suffice); it goes as not read, no evidence either way.
 */
export async function offerAt(sid: SessionId, pressed: number, rewardId: RewardId, confirmed: number): Promise<Offer> {
  // As the popup listed it: the read below stores the catalogue as it is now.
  const listedAs = await nameOf(rewardId);
  let read;
  try {
    read = await catalogueAfter(sid, pressed);
  } catch (err) {
    if (err instanceof StaleSession) throw err;
    fail(notSent('errRedeemNoPrice', err));
  }
  const reward = read.rewards.find((r) => r.id === rewardId);
  if (!reward) fail(appError('invalid_input', t('errRedeemNotOffered', listedAs)));
  const block = redeemBlock(reward, null);
  const cost = reward.reward_point_cost;
  if (block?.kind === 'cost-refused') fail(appError('invalid_input', t(NOT_OFFERED[block.reason], reward.name)));
  // redeemBlock refuses every unknown cost: this only tells the type so.
  if (cost === null) fail(appError('invalid_input', t('errCostMissing', reward.name)));
  if (cost !== confirmed) fail(appError('price_changed', tp('errPriceChanged', cost, reward.name), { points: cost }));
  return { reward: { ...reward, reward_point_cost: cost }, balanceBefore: pointsSeen(read.balance) };
}

/** "The redemption was not sent, so nothing was charged: …", the failed read's reason, and when to try again. */
function notSent(lead: 'errRedeemNoBaseline' | 'errRedeemNoPrice', err: unknown) {
  const cause = toAppError(err);
  // A busy panel named how long to wait (its Retry-After): that, not "in a moment".
  const next =
    cause.kind === 'rate_limited' && cause.retryAfterSeconds
      ? tp('stepRetryInSeconds', cause.retryAfterSeconds)
      : t('stepTimeout');
  return appError('rejected', sentences(t(lead), asSentence(failureReason(cause)), next));
}

/** A reward as the stored catalogue names it, or by its number. */
async function nameOf(rewardId: RewardId): Promise<string> {
  const stored = (await rewardsItem.getValue())?.data.rewards.find((r) => r.id === rewardId);
  return stored?.name ?? t('rewardNumber', rewardId);
}
