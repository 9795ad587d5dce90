import type { AppError } from '../../../utils/errors';
import { unread } from '../../../utils/balance';
import { goalView } from '../../../utils/goal-view';
import { redeemBlock, type RedeemBlock } from '../../../utils/reward-view';
import { t } from '../../../utils/i18n';
import type { RewardId } from '../../../utils/ids';
import {
  accountOf,
  type Goal,
  type KindCount,
  type LedgerEntry,
  type PopupView,
  type RewardsData,
  type SessionInfo,
  type SyncState,
} from '../../../utils/storage-items';
import type { Cached } from '../../../utils/cached';
import type { BalanceSample, PointsReturn } from '../../../utils/balance-trend';
import type { Balance } from '../../../utils/types';
import { withAlike } from '../../../utils/reward-groups';
import { goalRewards } from './goal-rewards';
import { contactFirst, heldRewards, heldText, openElsewhere } from './open-entries';

/** What the popup reads from storage to decide what it shows (the first frame's one read, main.tsx's preload). */
export interface PopupSnapshot {
  session: SessionInfo;
  view: PopupView | null;
  /** The rewards' sync state. */
  sync: SyncState | undefined;
  /** The ledger's entry the outcome card shows: null when none, or once an earlier opening saw it settled. */
  outcome: LedgerEntry | null;
  unsettled: readonly LedgerEntry[];
  /**
   * Redemptions that settled while no popup showed them (redeem/settled-seen-item.ts): listed with
   * what each became at this opening, once, as "Still being checked" lists one that settles in view.
   */
  told: readonly LedgerEntry[];
  goal: Goal | null;
  samples: readonly BalanceSample[];
}

/** What only the app has beyond the snapshot: the catalogue it read when asked, the history, a silent background. */
export interface PopupExtras {
  catalogue?: Cached<RewardsData> | null | undefined;
  /** The refunds in the history cache, when it was read (undefined: not read, so unknown). */
  returns?: readonly PointsReturn[] | undefined;
  /** The background did not answer a refresh. */
  noAnswer?: AppError | null | undefined;
  /**
   * Redemptions "Still being checked" listed earlier in this opening that have settled since: the
   * list keeps them in view, saying what each became (redeem/StillChecking.tsx).
   */
  settledListed?: readonly LedgerEntry[] | undefined;
}

/**
 * Every decision the popup's parts are built from, taken once from one snapshot: the first frame
 * (popup-model.ts) and App both render from it, so they cannot disagree on the balance, the goal,
 * which Redeem is held back and why, or what is still being checked.
 */
export function popupState(snapshot: PopupSnapshot, extras: PopupExtras = {}) {
  const { session, view, outcome, goal } = snapshot;
  const firstRows = view?.rewards ?? null;
  // null: the catalogue's read returned nothing; undefined: not read.
  const catalogue = extras.catalogue;
  // The view stands in only until the catalogue's read returns: an absent catalogue is not shown from it.
  const rewards: { data: RewardsData; fetchedAt: number } | null =
    catalogue !== undefined
      ? catalogue
      : firstRows && { data: { balance: firstRows.balance, rewards: firstRows.first }, fetchedAt: firstRows.fetchedAt };
  const balance = rewards?.data.balance.points ?? null;
  // The rewards were read but not the balance beside them: unknown for every rule (redeem stays
  // possible, the panel decides), and said so, never "Balance unknown" (that panel shows none).
  const balanceUnread = !!rewards && unread(rewards.data.balance);
  // Nothing cached (a reconnect, a first read that failed) or the balance not read: the last balance
  // seen stays in view, said to be the last known, never a blank.
  // The last one a second read backed (utils/balance-trend.ts): a lone odd read is not "last known".
  const lastSeen = rewards && !balanceUnread ? undefined : snapshot.samples.filter((s) => !s.tentative).at(-1);
  const pending = outcome?.state === 'pending';
  // Redemptions the history has not settled that the outcome card no longer shows.
  const checking = openElsewhere(outcome, snapshot.unsettled);
  const account = accountOf(session);
  const goalRows = catalogue ? catalogue.data.rewards : goalRewards(view, goal);
  // A listing alike to a held one (a brand's picker shows the two as one choice) is held with it.
  const listings = [rewards?.data.rewards ?? [], goalRows ?? []];
  // Rewards with a redemption still being checked, on the card or not: their Redeem is held back, saying why.
  const held = withAlike(heldRewards(outcome, checking), ...listings);
  // A reward the card or the list says to contact the panel about before redeeming it again (one that
  // settled in view, or unseen since the last opening): held while either says so.
  const contact = withAlike(contactFirst([outcome, ...snapshot.told, ...(extras.settledListed ?? [])]), ...listings);
  const error = snapshot.sync?.error ?? extras.noAnswer ?? null;
  const balanceShown: Balance | undefined =
    (balanceUnread ? undefined : rewards?.data.balance) ?? (lastSeen && { points: lastSeen.points, source: 'rewards' });
  const target = goalView({ goal, account, rewards: goalRows, points: balance });
  return {
    live: session.connected && !session.rejected,
    rewards,
    balance,
    pending,
    outcome,
    checking,
    told: snapshot.told,
    held,
    contact,
    account,
    goalRows,
    goalId: goal?.account === account ? goal.rewardId : null,
    loading: snapshot.sync?.loading === true,
    error,
    // Placeholder rows while nothing is cached and no failure stands in the list's place. Whatever
    // goes below the list waits for this to end: the rows are taller and would push it down.
    skeleton: !rewards && !error,
    header: {
      live: true,
      balance: balanceShown,
      lastKnown: lastSeen !== undefined,
      unread: balanceUnread,
      rewards: catalogue ? catalogue.data.rewards : firstRows ? (firstRows.next ? [firstRows.next] : []) : undefined,
      listed: rewards?.data.rewards,
      fetchedAt: rewards?.fetchedAt,
      // With data on screen a failed refresh is one line in the header, not a card over what still holds.
      error: rewards ? error : null,
      loading: snapshot.sync?.loading,
      questions: view?.profile,
      // The goal is the next step while there is one: the header and the goal say the same.
      goal: target,
    },
    // Never a trend without the balance it is about.
    goal: rewards && {
      goal,
      account,
      // The whole catalogue, or the goal's reward as the view has it: never the view's first rows
      // alone, where a goal further down would read as "no longer offered".
      rewards: goalRows,
      points: balance,
      samples: snapshot.samples,
      readAt: rewards.data.balance.points === null ? undefined : rewards.fetchedAt,
      // Refunds are not earned: the view's once it has them, else the history cache's; neither read, unknown.
      returns: view?.returns ?? extras.returns,
      blocked: 'reward' in target ? blockedWhy(redeemBlock(target.reward, balance, { held, contact, pending })) : null,
    },
    list: rewards && {
      rewards: rewards.data.rewards,
      total: catalogue ? undefined : firstRows?.total,
      brands: catalogue ? undefined : firstRows?.brands,
      kinds: catalogue ? undefined : (firstRows?.kinds as readonly KindCount[] | undefined),
      balance,
      blocked: pending,
      held: held as readonly RewardId[],
      contact: contact as readonly RewardId[],
    },
  };
}

export type PopupState = ReturnType<typeof popupState>;

/**
 * Why the goal's Redeem waits, from the one rule for "redeemable now" (utils/reward-view.ts): its
 * own redemption still being checked or to be taken up with the panel, or another pending. A cost
 * or a balance that keeps it from being offered at all shows no Redeem there (goal-model.ts).
 */
function blockedWhy(block: RedeemBlock | null): string | null {
  if (block?.kind === 'held') return heldText(block.why);
  return block?.kind === 'pending' ? t('waitForRedemption') : null;
}
