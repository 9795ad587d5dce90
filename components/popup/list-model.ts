import { t, tp } from '../../utils/i18n';

/**
 * Rows rendered at first and per "Show more": a popup shows about five at a time, and a catalogue
 * of thousands would otherwise cost its whole size in DOM before anything paints.
 */
export const REWARDS_PAGE = 30;

export interface ListInput {
  /** Rewards the list has (the whole catalogue, or the popup view's first rows). */
  count: number;
  /** The catalogue's size. */
  total: number;
  balance: number | null;
  /** The catalogue is long enough to search and filter. */
  filterable: boolean;
  query: string;
  affordableOnly: boolean;
  /** Rows the search and filter leave. */
  shown: number;
  /** Rows rendered. */
  visible: number;
  /** Rows there are to show: those left, or the whole catalogue while only the view's rows are given. */
  available: number;
}

/** Every word and flag around the reward rows (components/popup/frame-fill.ts): RewardList and the first frame render it. */
export function listModel({ count, total, balance, filterable, query, affordableOnly, shown, visible, available }: ListInput) {
  const more = Math.min(REWARDS_PAGE, available - visible);
  return {
    empty: count === 0 ? t('noRewards') : null,
    heading: t('rewardsHeading'),
    filters:
      filterable
        ? {
            search: t('searchRewards'),
            query,
            affordable: balance === null ? null : { text: t('affordableOnly'), checked: affordableOnly },
            status: t('rewardsShown', shown, total),
          }
        : null,
    more: more > 0 ? tp('showMoreRewards', more) : null,
  };
}

export type ListModel = ReturnType<typeof listModel>;
