import { withSample } from '../../utils/balance-trend';
import { balanceHistoryItem, type RewardsData } from '../../utils/storage-items';
import { isCurrent } from './generation';
import { onStored } from './sync';

let writes: Promise<void> = Promise.resolve();

/**
 * Adds the balance to the history when it changed. Only for the session `gen`: a late answer of
 * an old session never adds a point to the next one's history. Writes run one at a time, so two
 * reads landing together cannot each drop the other's sample.
 */
export function recordBalance(gen: number, points: number | null, at = Date.now()): Promise<void> {
  const write = writes.then(async () => {
    if (points === null || !isCurrent(gen)) return;
    const samples = await balanceHistoryItem.getValue();
    const next = withSample(samples, points, at);
    if (next !== samples && isCurrent(gen)) await balanceHistoryItem.setValue([...next]);
  });
  writes = write.catch(() => undefined);
  return write;
}

/** Resolves once every balance seen so far is recorded. */
export function balanceIdle(): Promise<void> {
  return writes;
}

/** Every stored rewards read carries the balance. */
export function watchBalance(): () => void {
  return onStored((area, data, gen) => {
    if (area === 'rewards') void recordBalance(gen, (data as RewardsData).balance.points).catch(() => undefined);
  });
}
