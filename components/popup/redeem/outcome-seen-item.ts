import { defineItem } from '../../../utils/storage-item';
import type { LedgerEntry } from '../../../utils/storage-items';

/**
 * The request id of the last settled outcome a popup showed. An outcome card expires once seen
 * so it does not linger: shown settled in one opening, it is dismissed at the next, so an old "Could not
 * redeem" does not greet the panelist for days. Only the popup reads or writes it.
 */
export const outcomeSeenItem = defineItem<string>('popup:outcome-seen', '');

const SETTLED: ReadonlyArray<LedgerEntry['state']> = ['done', 'failed', 'not_found'];

export const isSettled = (ledger: LedgerEntry): boolean => SETTLED.includes(ledger.state);

/** Whether the ledger's entry is still shown, given the request id an earlier opening saw settled. */
export function outcomeShown(ledger: LedgerEntry, seenBefore: string): boolean {
  return !(isSettled(ledger) && seenBefore === ledger.requestId);
}
