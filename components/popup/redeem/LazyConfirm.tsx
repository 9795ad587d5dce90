import type { ComponentProps } from 'preact';
import type { ConfirmDialog } from './ConfirmDialog';
import { lazyView } from '../lazy/lazy-view';

/**
 * The confirmation is only needed once the panelist presses Redeem: App preloads it after the
 * first paint, so it is there by then without weighing on the first load.
 */
export const { Lazy: LazyConfirm, preload: preloadConfirm } = lazyView<ComponentProps<typeof ConfirmDialog>>(
  () => import('./ConfirmDialog').then((m) => m.ConfirmDialog),
  () => null,
);
