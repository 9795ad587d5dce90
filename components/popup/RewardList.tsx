import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { filterRewards, groupRewards, kindCounts, sortGroups, type SortKey } from '../../utils/reward-groups';
import { FILTER_THRESHOLD } from '../../utils/reward-view';
import { t } from '../../utils/i18n';
import type { KindCount } from '../../utils/storage-items';
import type { Reward } from '../../utils/types';
import { listModel, REWARDS_PAGE } from './model/list-model';
import { ListRow } from './ListRow';
import { ListView } from './ListView';
import type { RewardId } from '../../utils/ids';
import { useShowMoreFocus } from './use-show-more';

interface Props {
  rewards: Reward[];
  /** The catalogue's size while `rewards` holds only its first rows (the popup view): rewards, brands, kinds. */
  total?: number | undefined;
  brands?: number | undefined;
  kinds?: readonly KindCount[] | undefined;
  balance: number | null;
  /** A redemption is pending: Redeem waits (the outcome banner says why). */
  blocked: boolean;
  /** Rewards with a redemption still being checked: their Redeem is held back. */
  held: readonly RewardId[];
  /** Rewards the panel is to be asked about first (model/open-entries.ts): their Redeem is held back. */
  contact: readonly RewardId[];
  onRedeem: (reward: Reward) => void;
  /**
   * While `rewards` holds only the view's first rows: asks for the whole catalogue, which a search,
   * a sort, the type filter or more rows need. Read only then, a catalogue of thousands costs nothing at opening.
   */
  onWantAll?: (() => void) | undefined;
}

/** The panelist's search, sort, type filter and how many rows are shown: the list's own state. */
function useListChoices(onWantAll: (() => void) | undefined) {
  // What was typed into the first frame's search box before Preact took it over is kept, not cleared.
  const [query, setQuery] = useState(
    () => (document.getElementById('reward-search') as HTMLInputElement | null)?.value ?? '',
  );
  const [sort, setSort] = useState<SortKey>('afford');
  const [kind, setKind] = useState('');
  const [limit, setLimit] = useState(REWARDS_PAGE);
  const search = useRef<HTMLInputElement>(null);
  // A search needs the whole catalogue, not the view's first rows.
  useEffect(() => {
    if (query) onWantAll?.();
  }, []);
  // A new search, sort or filter starts again from the top of its results.
  const restart =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setLimit(REWARDS_PAGE);
    };
  const clearSearch = () => {
    restart(setQuery)('');
    // Back where the panelist was working, not the top of the page.
    search.current?.focus();
  };
  return { query, setQuery, sort, setSort, kind, setKind, limit, setLimit, restart, search, clearSearch };
}

/** The rewards by brand (one row, not one per denomination), sorted and filtered as the panelist chooses, a page of rows at a time. */
export function RewardList({
  rewards,
  total = rewards.length,
  brands,
  kinds,
  balance,
  blocked,
  held,
  contact,
  onRedeem,
  onWantAll,
}: Props) {
  const { query, setQuery, sort, setSort, kind, setKind, limit, setLimit, restart, search, clearSearch } =
    useListChoices(onWantAll);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filterable = total > FILTER_THRESHOLD;
  const all = useMemo(() => kinds ?? kindCounts(rewards), [kinds, rewards]);
  const left = useMemo(
    () => (filterable ? filterRewards(rewards, query, kind) : rewards),
    [rewards, filterable, query, kind],
  );
  const groups = useMemo(() => sortGroups(groupRewards(left), balance, sort), [left, balance, sort]);
  const visible = Math.min(limit, groups.length);
  const rows = useRef<HTMLUListElement>(null);
  const showingMore = useShowMoreFocus(rows, visible);
  const model = listModel({
    count: groups.length,
    total,
    brands: brands ?? groupRewards(rewards).length,
    kinds: all,
    filterable,
    query,
    sort,
    kind,
    shown: left.length,
    visible,
    // With only the view's rows, the rest of the catalogue is there to show too: "Show more" reads it.
    available: onWantAll ? (brands ?? groups.length) : groups.length,
    open: filtersOpen,
  });
  return (
    <ListView
      m={model}
      searchRef={search}
      listRef={rows}
      onFocus={onWantAll}
      onQuery={restart(setQuery)}
      onSort={restart((value: string) => setSort(value as SortKey))}
      onKind={restart(setKind)}
      onToggleFilters={() => {
        // Sorting and filtering need the whole catalogue, as a search does.
        if (!filtersOpen) onWantAll?.();
        setFiltersOpen(!filtersOpen);
      }}
      onMore={() => {
        showingMore();
        onWantAll?.();
        setLimit(visible + REWARDS_PAGE);
      }}
      noMatch={
        groups.length === 0 &&
        rewards.length > 0 && (
          <NoMatch
            query={query}
            kind={kind}
            onClearSearch={clearSearch}
            onAllTypes={() => {
              restart(setKind)('');
              // The button goes with the empty result: focus goes to the filter it undid, or to the
              // search box while the filters are folded, not with the button to the page's body.
              const filter = filtersOpen ? document.getElementById('reward-kind') : null;
              (filter ?? search.current)?.focus();
            }}
          />
        )
      }
    >
      {groups.slice(0, visible).map((group) => (
        <ListRow
          key={group.key}
          group={group}
          balance={balance}
          blocked={blocked}
          held={held}
          contact={contact}
          onRedeem={onRedeem}
          // A brand the view holds only in part: its other values come with the catalogue.
          onWantAll={onWantAll}
        />
      ))}
    </ListView>
  );
}

/** Where a search or the type filter left no reward: the way back from each (the count line above says what matched nothing). */
function NoMatch({
  query,
  kind,
  onClearSearch,
  onAllTypes,
}: {
  query: string;
  kind: string;
  onClearSearch: () => void;
  onAllTypes: () => void;
}) {
  return (
    <div class="empty">
      <p class="empty-actions">
        {query && (
          <button type="button" class="btn" onClick={onClearSearch}>
            {t('clearSearch')}
          </button>
        )}
        {kind && (
          <button type="button" class="btn" onClick={onAllTypes}>
            {t('allTypesButton')}
          </button>
        )}
      </p>
    </div>
  );
}
