import { reconcilePendingRedemption } from './redeem';
import { clearLoadingFlags } from './sync';

/**
 * A worker starts with nothing in flight, whatever the storage says: a refresh cut off by the
 * browser stopping the worker left its `loading` flag on, and a redeem its pending entry.
 */
export async function recoverAfterStop(): Promise<void> {
  await clearLoadingFlags();
  await reconcilePendingRedemption();
}
