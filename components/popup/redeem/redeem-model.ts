import type { AppError } from '../../../utils/errors';
import type { Request } from '../../../utils/message-schemas';
import type { LedgerEntry } from '../../../utils/storage-items';
import type { Reward } from '../../../utils/types';

/**
 * The popup's half of one Confirm, as pure functions: what the dialog asks and for whom, what it
 * sends, and what it becomes when the background refuses it. The hook (use-redeem-flow.ts) holds
 * the state; the redemption itself and its outcome are the background's ledger.
 */

export interface Confirming {
  reward: Reward;
  /**
   * The points cost the dialog states, and the Confirm sends: the figure the panelist confirms. The
   * background sends nothing at another (price_changed), and the dialog asks again at the cost then.
   */
  cost: number;
  /** The session the dialog was shown in: the Confirm names it, and the background refuses it for another. */
  session: string;
  /**
   * The same reward's earlier redemption whose outcome is still unknown: the dialog names it, and
   * only confirming that dialog sends `confirmUnsettled`, so a second Confirm is never sent by mistake.
   */
  unsettled: LedgerEntry | null;
}

/** The newest redemption of `reward` still being checked, on the outcome card or off it. */
export function unsettledFor(
  entries: ReadonlyArray<LedgerEntry | null | undefined>,
  reward: Reward,
): LedgerEntry | null {
  return (
    entries
      .filter((entry): entry is LedgerEntry => entry?.state === 'unknown' && entry.rewardId === reward.id)
      .sort((a, b) => b.startedAt - a.startedAt)[0] ?? null
  );
}

/**
 * The dialog for `reward` in `session`, or null when none may open: no session shown (nothing to
 * name), or a reward the extension does not offer for redeeming, whose points cost is unknown or
 * quarantined (a dialog never states a cost nobody gave; row-model.ts says why).
 */
export function confirmingFor(
  reward: Reward,
  session: string | undefined,
  entries: ReadonlyArray<LedgerEntry | null | undefined>,
): Confirming | null {
  const cost = reward.reward_point_cost;
  if (reward.costRefused || cost === null || session === undefined) return null;
  return { reward, cost, session, unsettled: unsettledFor(entries, reward) };
}

/** What Confirm sends: the reward at the cost stated, the session the dialog was shown in, and a second Confirm only knowingly. */
export function orderOf({ reward, cost, session, unsettled }: Confirming): Request<'redeem'> {
  const order = { session, rewardId: reward.id, points: cost };
  return unsettled ? { ...order, confirmUnsettled: true } : order;
}

/** Whether an open dialog still belongs on screen: another account (or none) since it was shown, and it goes unsent. */
export function stillShown(confirming: Confirming, session: string | undefined): boolean {
  return confirming.session === session;
}

/**
 * What the dialog becomes when the background refuses its Confirm with `error` (`stored`: the
 * ledger's entries as the popup now sees them): asked again at the cost the panel gives now, saying
 * so; asked again naming the same reward's redemption still being checked that this popup had not
 * seen (by its reward alone when never seen here: `startedAt` 0, no time); or the refusal said.
 */
export function afterRefusal(
  confirming: Confirming,
  error: AppError,
  stored: ReadonlyArray<LedgerEntry | null | undefined>,
): { confirming?: Confirming; error: AppError | null } {
  if (error.kind === 'price_changed' && error.points !== undefined)
    return { confirming: { ...confirming, cost: error.points }, error };
  if (error.kind !== 'unsettled') return { error };
  const { reward } = confirming;
  const named: LedgerEntry = {
    requestId: '',
    rewardId: reward.id,
    rewardName: reward.name,
    points: confirming.cost,
    startedAt: 0,
    state: 'unknown',
  };
  return { confirming: { ...confirming, unsettled: unsettledFor(stored, reward) ?? named }, error: null };
}

/**
 * Whether `entry` is the redemption this popup's Confirm started: of its reward, not the entry the
 * ledger held when it was sent (`before`), and started since (an older unsettled one the background
 * names when refusing is not it).
 */
export function startedBy(
  entry: LedgerEntry | null | undefined,
  reward: Reward,
  sent: { before: string | undefined; at: number },
): entry is LedgerEntry {
  return (
    !!entry && entry.requestId !== sent.before && entry.rewardId === reward.id && entry.startedAt >= sent.at - 5000
  );
}
