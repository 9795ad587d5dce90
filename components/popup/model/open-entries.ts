import { t } from '../../../utils/i18n';
import type { RewardId } from '../../../utils/ids';
import { notFoundWords } from '../../../utils/points-taken';
import type { HeldWhy } from '../../../utils/reward-view';
import { settings } from '../../../utils/settings';
import type { LedgerEntry } from '../../../utils/storage-items';

/**
 * Redemptions the history has not settled that the outcome card no longer shows (a newer redeem
 * took the card, or the worker restarted), newest first: each stays in view until a history read
 * settles it, whatever happened to its card.
 */
export function openElsewhere(
  latest: LedgerEntry | null | undefined,
  unsettled: readonly LedgerEntry[] | null | undefined,
): LedgerEntry[] {
  return (unsettled ?? [])
    .filter((entry) => entry.requestId !== latest?.requestId)
    .sort((a, b) => b.startedAt - a.startedAt);
}

/**
 * Rewards whose Redeem waits for the history: the card's own unknown outcome and every open one it
 * no longer shows. A pending card holds every reward already (one redeem at a time).
 */
export function heldRewards(latest: LedgerEntry | null | undefined, elsewhere: readonly LedgerEntry[]): RewardId[] {
  return [...(latest?.state === 'unknown' ? [latest.rewardId] : []), ...elsewhere.map((entry) => entry.rewardId)];
}

/**
 * Rewards whose Redeem waits for the panel to be asked: a redemption in view (the outcome card's,
 * or one "Still being checked" listed that settled while the popup was open) that the history never
 * showed though the panel said yes or the balance showed its points gone. Where it is in view it
 * says "contact the panel before redeeming it again", so its reward's Redeem (row, goal, Redeem
 * again) is held as long as it says so, never beside it. The card goes once an opening has seen it
 * (redeem/outcome-seen-item.ts), the list when the popup closes; what the panelist does after that
 * is theirs to decide.
 */
export function contactFirst(inView: ReadonlyArray<LedgerEntry | null | undefined>): RewardId[] {
  return inView.flatMap((entry) => {
    if (entry?.state !== 'not_found') return [];
    const words = notFoundWords(entry);
    return words === 'said-yes' || words === 'points-taken' ? [entry.rewardId] : [];
  });
}

/** Why a held Redeem waits, said beside it: the one set of words for the rows and the goal. */
export function heldText(why: HeldWhy): string {
  return why === 'contact' ? t('heldContactPanel', settings.panelName) : t('heldBack');
}
