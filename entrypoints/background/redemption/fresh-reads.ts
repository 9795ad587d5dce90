import { unread } from '../../../utils/balance';
import type { RewardsData } from '../../../utils/storage-items';
import type { Balance, Redemption } from '../../../utils/types';
import type { SessionId } from '../store/store';
import { StaleSession } from '../store/store';
import { readHistory, readRewards, readsStarted } from '../sync/sync';
import type { HistoryRead } from './machine';

/**
 * The ledger's own reads. The sync layer hands a caller a read of the same area already out when
 * it can (one refresh at a time), and a read that left before a moment the ledger cares about may
 * answer with what was true before it: a redemption made on the website just before Confirm would
 * be missing from a baseline that joined it, and then taken for the Confirm's own. So the ledger
 * does not trust the layer to know its rule: it notes the moment ({@link readMoment}), looks at
 * which read it was handed, and reads again until it holds one that left after that moment.
 */

/** The moment a read must have left after to count: every read started from now on does. */
export function readMoment(): number {
  return readsStarted();
}

/**
 * A history read of session `sid` that left after `moment`: the baseline before a Confirm leaves,
 * the read after its answer. `requestedAt` is when that read was started, whatever joined it.
 * Refused (`StaleSession`) once another session is active: another account's history is no baseline.
 */
export async function historyAfter(sid: SessionId, moment: number): Promise<HistoryRead & { history: Redemption[] }> {
  for (;;) {
    const read = await readHistory(sid);
    if (read.seq > moment) return { history: read.data, requestedAt: read.leftAt };
    // The read handed back left before the moment: it is over now, so the next one is new.
  }
}

/**
 * The balance as a read of session `sid` that left after `moment` shows it: just before a
 * Confirm's request leaves, and with the read after its answer (machine.ts weighs the two). Null
 * when the panel shows no balance; undefined when it could not be read (no evidence either way,
 * which machine.ts must not take for an unmoved balance); refused once another session is active.
 */
export async function balanceAfter(sid: SessionId, moment: number): Promise<number | null | undefined> {
  try {
    return pointsSeen((await catalogueAfter(sid, moment)).balance);
  } catch (err) {
    if (err instanceof StaleSession) throw err;
    return undefined;
  }
}

/**
 * A read's balance as the ledger takes it: its points, null when the panel shows none, undefined
 * when it was not read. A catalogue read may succeed while its balance was not read (sync.ts):
 * that null is no "none", and two of them are never an unmoved balance.
 */
export function pointsSeen(balance: Balance): number | null | undefined {
  return unread(balance) ? undefined : balance.points;
}

/**
 * The catalogue and the balance as a read of session `sid` that left after `moment` shows them:
 * just before a Confirm's request leaves, the cost it is compared with. Fails as the read failed;
 * refused once another session is active.
 */
export async function catalogueAfter(sid: SessionId, moment: number): Promise<RewardsData> {
  for (;;) {
    const read = await readRewards(sid);
    if (read.seq > moment) return read.data;
  }
}

/** A history read, the one already out if any, with when it was started (a check may use either). */
export async function historyNow(): Promise<HistoryRead> {
  const read = await readHistory();
  return { history: read.data, requestedAt: read.leftAt };
}
