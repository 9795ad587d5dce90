import { t, tp } from '../../../utils/i18n';
import { kindName, type SortKey } from '../../../utils/reward-groups';
import type { KindCount } from '../../../utils/storage-items';

/**
 * Rows (brands) rendered at first and per "Show more": a popup shows about five at a time, and a
 * catalogue of thousands would otherwise cost its whole size in DOM before anything paints.
 */
export const REWARDS_PAGE = 30;

export interface ListInput {
  /** Rows the list has (the whole catalogue's brands, or the popup view's first ones). */
  count: number;
  /** The catalogue's size, in rewards and in brands. */
  total: number;
  brands: number;
  /** The catalogue's kinds: the type filter is offered where there is more than one. */
  kinds: readonly KindCount[];
  /** The catalogue is long enough to search, sort and filter. */
  filterable: boolean;
  query: string;
  sort: SortKey;
  /** The type filter's choice ('' for all). */
  kind: string;
  /** Rewards the search and the type filter leave. */
  shown: number;
  /** Rows rendered. */
  visible: number;
  /** Rows there are to show: those left, or the whole catalogue's while only the view's rows are given. */
  available: number;
  /** Sort and type are shown (behind "Sort and filter", so the first rewards come high on the screen). */
  open?: boolean;
}

/**
 * Every word and flag around the reward rows: ListView renders it, in the app and in the first
 * frame. The type filter's options after "All types" are the catalogue's kinds, the list's own.
 */
export function listModel({
  count,
  total,
  brands,
  kinds,
  filterable,
  query,
  sort,
  kind,
  shown,
  visible,
  available,
  open = false,
}: ListInput) {
  const more = Math.min(REWARDS_PAGE, available - visible);
  const filtered = query.trim() !== '' || kind !== '';
  return {
    empty: count === 0 && !filtered ? t('noRewards') : null,
    heading: t('rewardsHeading'),
    filters: filterable
      ? {
          search: t('searchRewards'),
          // The catalogue's size in sight where the panelist starts, so a big one is not a surprise.
          placeholder: tp('searchRewardsIn', total),
          query,
          toggle: { text: t('sortAndFilter'), open },
          sort: {
            label: t('sortLabel'),
            value: sort,
            afford: t('sortAfford'),
            low: t('sortLow'),
            high: t('sortHigh'),
            name: t('sortName'),
          },
          kind:
            kinds.length > 1
              ? {
                  label: t('typeLabel'),
                  value: kind,
                  all: t('allTypes'),
                  options: kinds.map(({ key }) => ({ value: key, text: kindName(key) })),
                }
              : null,
          // What the search and the type leave, counted as the list shows them: the rewards that match,
          // and the brands (the rows) they come in when those are fewer. Nothing while nothing is left out;
          // when nothing is left, that it matched nothing, said once, here (the list's place shows only the ways back).
          count: !filtered
            ? ''
            : shown === 0
              ? query.trim()
                ? t('noRewardsMatch', query.trim())
                : t('noRewardsOfType')
              : count < shown
                ? `${tp('matchingRewards', shown)} · ${tp('brandsCount', count)}`
                : tp('matchingRewards', shown),
        }
      : null,
    // The rows it adds, counted as the rows are: brands, where the catalogue's rewards come by brand: the count matches.
    more: more > 0 ? tp(brands < total ? 'showMoreBrands' : 'showMoreRewards', more) : null,
  };
}

export type ListModel = ReturnType<typeof listModel>;
