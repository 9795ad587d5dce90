import { parseApiTimestamp } from '../../../utils/format';
import { notifies } from '../../../utils/preference-choices';
import { redemptionState } from '../../../utils/redemption-state';
import { historyItem, popupViewItem, preferencesItem } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import { openEntries } from '../redemption/service';

/**
 * States the panel has not finished with: they can still turn into another. A
 * partner status we do not know (`other`, e.g. IN_REVIEW) may be one of them, so it counts too.
 */
const UNFINISHED = new Set(['pending', 'approved', 'unclaimed', 'other']);

/** How long after the panel last changed a failed redemption the alarm watches for its refund. */
const REFUND_WATCH_MS = 30 * 24 * 60 * 60_000;

export function mayStillChange(redemption: Redemption, now = Date.now()): boolean {
  const { kind } = redemptionState(redemption);
  if (UNFINISHED.has(kind)) return true;
  // A failed one's points come back if the panel refunds it (the history says so to the
  // panelist), usually within days: watched for a month after its last change, so "refunded" is
  // told when it happens, not at the next opening of a page. An age not read is not watched.
  if (kind !== 'failed') return false;
  const changed = parseApiTimestamp(redemption.updated_at ?? '') ?? parseApiTimestamp(redemption.created_at);
  return changed !== null && now - changed < REFUND_WATCH_MS;
}

/**
 * Other reasons to keep reading the history on the refresh alarm (e.g. a notification waiting for
 * a redemption to complete): each answers whether it needs a fresh history now. Modules add theirs
 * at start-up, next to their own listeners.
 */
export const historyWanted: Array<() => boolean | Promise<boolean>> = [];

/**
 * Whether the refresh alarm should read the history: only while something in it can still change.
 * A history of finished redemptions changes only by the panelist's own redeems, and those read it.
 */
export async function historyNeedsRefresh(): Promise<boolean> {
  const cached = await historyItem.getValue();
  if (!cached || cached.data.some((r) => mayStillChange(r))) return true;
  if ((await openEntries()).length > 0) return true;
  for (const wanted of historyWanted) if (await wanted()) return true;
  return false;
}

/** How often the refresh alarm reads the profile for a panelist who watches for new questions. */
export const PROFILE_WATCH_MS = 4 * 60 * 60_000;

/**
 * Whether the refresh alarm should read the profile, to find new questions. Questions change rarely and the
 * options page reads the profile when it opens, so only a panelist who asked to hear of new
 * questions, or to count open ones on the badge, has it read in the background, every few hours
 * (two conditional reads, each a 304 while nothing changed).
 */
export async function profileNeedsRefresh(now = Date.now()): Promise<boolean> {
  const prefs = await preferencesItem.getValue();
  if (!notifies(prefs, 'question') && !(prefs.badge && prefs.badgeShows === 'questions')) return false;
  const profileView = (await popupViewItem.getValue())?.profile;
  return !profileView || now - profileView.fetchedAt >= PROFILE_WATCH_MS;
}
