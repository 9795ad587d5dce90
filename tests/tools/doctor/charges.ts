/**
 * What the redemption write checks charged, from both pieces of evidence the extension weighs
 * (design §5): the history's new redemptions of the reward since the baseline (the ledger), and
 * the balance, read before and after, in the reward's points cost. The balance is read anyway, so
 * a panel whose history lists nothing still shows what it charged: a fall of twice the cost is two
 * charges, whatever the history says. Either may be unknown (a read that failed, no balance
 * anywhere, a reward without a cost, a fall that is no whole number of costs): then it counts
 * nothing, and says why.
 */
import type { PanelClient } from '../../../utils/api/client';
import type { Redemption, Reward } from '../../../utils/types';
import { attempt } from './attempt';
import { pointsText, readAccount, type AccountRead } from './write-common';

/** The history read after, against the baseline, and the balance's movement. */
export interface Tally {
  /** Why the history could not be read after, else null. */
  historyError: string | null;
  /** The new redemptions of the reward (empty when the history could not be read). */
  made: Redemption[];
  /** Charges the balance's fall tells (its fall in whole costs), or null when it tells none. */
  byBalance: number | null;
  /** The balance's movement in words ("the balance went from 2,500 points to 1,500 points, …"). */
  balanceText: string;
  /** The balance read after (the next tally's "before"). */
  after: AccountRead;
}

/** What the balance's move from `before` to `after` tells, in the reward's cost. */
export function balanceMove(
  before: AccountRead,
  after: AccountRead,
  cost: number | null,
): { byBalance: number | null; text: string } {
  if (before.failed) return { byBalance: null, text: `the balance could not be read before (${before.failed})` };
  if (after.failed) return { byBalance: null, text: `the balance could not be read after (${after.failed})` };
  if (before.balance === null || after.balance === null)
    return { byBalance: null, text: 'the balance is unknown (no place the extension reads holds it)' };
  const fell = before.balance - after.balance;
  if (fell === 0) return { byBalance: 0, text: `the balance is unchanged (${pointsText(before.balance)})` };
  const moved = `the balance went from ${pointsText(before.balance)} to ${pointsText(after.balance)}`;
  if (fell < 0) return { byBalance: null, text: `${moved}: it rose, so it tells no charge` };
  if (cost === null || cost <= 0)
    return { byBalance: null, text: `${moved}; the reward has no points cost to count charges in` };
  if (fell % cost !== 0)
    return {
      byBalance: null,
      text: `${moved}, down ${fell.toLocaleString('en')}, which is no whole number of the reward's ${pointsText(cost)}`,
    };
  const times = fell / cost;
  return {
    byBalance: times,
    text: `${moved}: ${times === 1 ? "the reward's cost, once" : `${times} times the reward's cost`}`,
  };
}

/** Reads the history and the balance after a redeem, and tells what they show against the reading before. */
export async function tally(
  api: PanelClient,
  balanceVariable: string,
  known: ReadonlySet<string>,
  rewardId: Reward['id'],
  before: AccountRead,
  cost: number | null,
): Promise<Tally> {
  const history = await attempt(() => api.listRedemptions());
  const after = await readAccount(api, balanceVariable);
  const made = history.ok ? history.value.filter((r) => !known.has(r.id) && r.reward?.id === rewardId) : [];
  const { byBalance, text } = balanceMove(before, after, cost);
  return { historyError: history.ok ? null : history.error.message, made, byBalance, balanceText: text, after };
}

/** The most charges either piece of evidence shows; null when neither can tell. */
export function chargesShown(t: Tally): number | null {
  const byHistory = t.historyError === null ? t.made.length : null;
  if (byHistory === null && t.byBalance === null) return null;
  return Math.max(byHistory ?? 0, t.byBalance ?? 0);
}

/** The redemptions by their ids, comma-separated, each after a "#". */
export const ids = (made: Redemption[]) => made.map((r) => `#${r.id}`).join(', ');
