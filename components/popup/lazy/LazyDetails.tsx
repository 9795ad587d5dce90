import type { ComponentChildren } from 'preact';
import { t, type MessageKey } from '../../../utils/i18n';
import type { Reward } from '../../../utils/types';
import { lazyView } from './lazy-view';

/** The details view and its sanitizer load on first use, outside the popup's first chunk. */
export const { Lazy: LazyDetails } = lazyView<{ reward: Reward; redeem?: ComponentChildren; only?: MessageKey }>(
  () => import('../details/RewardDetails').then((m) => m.RewardDetails),
  (_, failed) => (
    <p class="muted details" aria-busy={!failed}>
      {t(failed ? 'detailsFailed' : 'detailsLoading')}
    </p>
  ),
);
