import type { ComponentProps } from 'preact';
import type { RedeemOutcome } from './RedeemOutcome';
import { lazyView } from '../lazy/lazy-view';

/**
 * The outcome card shows only while the ledger has an entry: main.tsx loads it before the first
 * render when there is one (so it is in the first frame, nothing moves), App once connected (so it
 * is there for a redemption), and the first chunk leaves it out, to stay small.
 */
export const { Lazy: LazyOutcome, preload: preloadOutcome } = lazyView<ComponentProps<typeof RedeemOutcome>>(
  () => import('./RedeemOutcome').then((m) => m.RedeemOutcome),
  () => null,
);
