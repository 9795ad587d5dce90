import { checkOutcomes, recoverPending } from './redemption/service';
import { settleStorage } from './store/store';
import { clearLoadingFlags } from './sync/sync';
import { startingWith } from './worker-ready';

/**
 * A worker starts with nothing in flight, whatever the storage says: a refresh cut off by the
 * browser stopping the worker left its `loading` flag on, and a redeem its pending entry. Redeems
 * and check alarms wait until this is done; the first look at the history for a lost outcome
 * follows without holding them up.
 */
export function recoverAfterStop(): Promise<void> {
  const since = Date.now();
  // Each step on its own: a full storage refusing one does not keep the others from running.
  const ready = (async () => {
    await settleStorage().catch(() => undefined);
    await clearLoadingFlags(since).catch(() => undefined);
    await recoverPending();
  })();
  startingWith(ready);
  return ready
    .then(() => checkOutcomes(null))
    .then(
      () => undefined,
      () => undefined,
    );
}
