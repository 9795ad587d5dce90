import { useEffect, useState } from 'preact/hooks';
import type { LedgerEntry } from '../../../utils/storage-items';
import { isSettled, outcomeSeenItem, outcomeShown } from './outcome-seen-item';

export { outcomeSeenItem };

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
  const settled = !!ledger && isSettled(ledger);
  const expired = !!ledger && seenBefore !== undefined && !outcomeShown(ledger, seenBefore);
  useEffect(() => {
    if (!ledger || !settled || seenBefore === undefined) return;
    if (expired) dismiss();
    else void outcomeSeenItem.setValue(ledger.requestId);
  }, [ledger?.requestId, settled, seenBefore]);
  return expired ? null : (ledger ?? null);
}
