import { useEffect, useState } from 'preact/hooks';
import { defineItem } from '../../utils/storage-item';
import type { LedgerEntry } from '../../utils/storage-items';

/**
 * The request id of the last settled outcome a popup showed. An outcome card expires once seen
 * (issue 14): shown settled in one opening, it is dismissed at the next, so an old "Could not
 * redeem" does not greet the panelist for days. Only the popup reads or writes it.
 */
export const outcomeSeenItem = defineItem<string>('popup:outcome-seen', '');

const SETTLED: ReadonlyArray<LedgerEntry['state']> = ['done', 'failed', 'not_found'];

/**
 * The ledger entry to show: null once it expired. Marks a settled entry as seen, and asks the
 * background to forget an expired one.
 */
export function useFreshOutcome(ledger: LedgerEntry | null | undefined, dismiss: () => void): LedgerEntry | null {
  // What earlier openings saw, read once: this opening's own mark must not hide what it shows.
  const [seenBefore, setSeenBefore] = useState<string | undefined>(() => outcomeSeenItem.peek());
  useEffect(() => {
    if (seenBefore === undefined) void outcomeSeenItem.getValue().then(setSeenBefore);
  }, []);
  const settled = !!ledger && SETTLED.includes(ledger.state);
  const expired = settled && seenBefore === ledger.requestId;
  useEffect(() => {
    if (!ledger || !settled || seenBefore === undefined) return;
    if (expired) dismiss();
    else void outcomeSeenItem.setValue(ledger.requestId);
  }, [ledger?.requestId, settled, seenBefore]);
  return expired ? null : (ledger ?? null);
}
