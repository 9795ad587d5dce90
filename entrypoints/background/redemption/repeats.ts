import { redemptionKey, type RedemptionKey } from '../../../utils/ids';
import type { DuplicateRecord } from '../../../utils/storage-items';
import type { Redemption } from '../../../utils/types';
import { recordedAgain, settledOutcome, type NotifyEvent } from '../notify/notify-events';
import { openConfirms, type Confirms } from './machine';

/**
 * What the Confirms' changes tell, as pure functions: the notifications of outcomes settled by a
 * check and of Confirms named with repeats, and the records the options page's history marks
 * repeats by, kept as the history shows them.
 */

/**
 * What a change from `before` to `after` has to tell: each unknown outcome that settled (found, or
 * not found after the last check) and each Confirm newly named with repeats, once each, with the
 * record the history rows mark those repeats by. An outcome settled by the read after its own
 * answer is the card's to tell, not a notification's.
 */
export function toTell(before: Confirms, after: Confirms): { events: NotifyEvent[]; records: DuplicateRecord[] } {
  const wasOpen = new Set(openConfirms(before).map((entry) => entry.requestId));
  const earlier = new Map(
    [before.current, ...before.awaitingCheck, ...before.recentlySettled].flatMap((e) =>
      e ? [[e.requestId, e] as const] : [],
    ),
  );
  const events: NotifyEvent[] = [];
  const records: DuplicateRecord[] = [];
  for (const entry of [after.current, ...after.awaitingCheck, ...after.recentlySettled]) {
    if (!entry) continue;
    const settled = wasOpen.has(entry.requestId) ? settledOutcome(entry) : null;
    if (settled) events.push(settled);
    const repeatEvent = entry.duplicates && !earlier.get(entry.requestId)?.duplicates ? recordedAgain(entry) : null;
    if (repeatEvent && entry.redemption) {
      events.push(repeatEvent);
      records.push({
        requestId: entry.requestId,
        rewardName: entry.rewardName,
        points: entry.points,
        redemptions: [redemptionKey(entry.redemption), ...entry.duplicates!],
      });
    }
  }
  return { events, records };
}

/**
 * The records of repeats as a change from one set of Confirms to `after` leaves them, or null when
 * none changes: `added` (what {@link toTell} names) joins them, and a redemption a Confirm took as
 * its own is no other Confirm's copy. That claim is the later, direct evidence about that whole
 * redemption: it was new to the claimant's baseline, a read that left after the record was written,
 * so the copy the record named had gone (the panel reversed it) and a max + 1 panel gave its id,
 * reward and second to this one. A record goes once fewer than two of its redemptions are left.
 */
export function recordsClaimed(
  records: readonly DuplicateRecord[],
  added: readonly DuplicateRecord[],
  after: Confirms,
): DuplicateRecord[] | null {
  const owner = new Map<string, string>();
  for (const entry of [after.current, ...after.recentlySettled])
    if (entry?.redemption) owner.set(redemptionKey(entry.redemption), entry.requestId);
  let changed = added.length > 0;
  const kept = [...records, ...added].flatMap((record): DuplicateRecord[] => {
    const keys = record.redemptions ?? [];
    const mine = keys.filter((key) => (owner.get(key) ?? record.requestId) === record.requestId);
    if (mine.length === keys.length) return [record];
    changed = true;
    return mine.length >= 2 ? [{ ...record, redemptions: mine }] : [];
  });
  return changed ? kept : null;
}

/**
 * The records of Confirms the panel recorded more than once, as a history read shows them, or null
 * when none changes. A record keeps the redemptions the history still shows, whole (an id the panel
 * gave again to a later redemption is another redemption, never a copy to reverse), and goes once
 * fewer than two are left: the panel reversed the copies, and nothing is left to mark. A record an
 * earlier version kept by ids is read as the redemptions that hold those ids, where each id names
 * one redemption of the history.
 */
export function recordsShown(
  records: readonly DuplicateRecord[],
  history: readonly Redemption[],
): DuplicateRecord[] | null {
  const shown = new Set(history.map(redemptionKey));
  const byId = new Map<string, RedemptionKey[]>();
  for (const r of history) byId.set(r.id, [...(byId.get(r.id) ?? []), redemptionKey(r)]);
  const whole = (record: DuplicateRecord): RedemptionKey[] =>
    record.redemptions ??
    (record.redemptionIds ?? []).flatMap((id) => {
      const keys = byId.get(id) ?? [];
      return keys.length === 1 ? keys : [];
    });
  let changed = false;
  const kept = records.flatMap((record): DuplicateRecord[] => {
    const still = whole(record).filter((key) => shown.has(key));
    if (record.redemptions && still.length === record.redemptions.length) return [record];
    changed = true;
    const { redemptionIds: _ids, ...rest } = record;
    return still.length >= 2 ? [{ ...rest, redemptions: still }] : [];
  });
  return changed ? kept : null;
}
