import { withSample } from '../../utils/balance-trend';
import { balanceHistoryItem, type RewardsData } from '../../utils/storage-items';
import { put, update, type SessionId } from './store/store';
import { onStored } from './store/stored-reads';

let writes: Promise<void> = Promise.resolve();

/**
 * Adds the balance to the history when it changed. Only for the session `sid`: a late answer of
 * an old session never adds a point to the next one's history (the store refuses it). Each read
 * and write is one turn of the store, so two reads landing together cannot drop each other's sample.
 */
export function recordBalance(sid: SessionId, points: number | null, at = Date.now()): Promise<void> {
  if (points === null) return writes;
  const write = update(sid, [balanceHistoryItem], (get) => {
    const samples = get(balanceHistoryItem);
    const next = withSample(samples, points, at);
    return next === samples ? [] : [put(balanceHistoryItem, [...next])];
  });
  writes = writes.then(() => write).catch(() => undefined);
  return write;
}

/** Resolves once every balance seen so far is recorded. */
export function balanceIdle(): Promise<void> {
  return writes;
}

/** Every stored rewards read carries the balance. */
export function watchBalance(): () => void {
  return onStored((area, data, sid) => {
    if (area === 'rewards') void recordBalance(sid, (data as RewardsData).balance.points).catch(() => undefined);
  });
}
