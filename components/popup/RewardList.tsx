import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { FILTER_THRESHOLD, filterRewards, sortRewards } from '../../utils/reward-view';
import { t } from '../../utils/i18n';
import type { Reward } from '../../utils/types';
import { listModel, REWARDS_PAGE, type ListModel } from './list-model';
import { RewardRow } from './RewardRow';

interface Props {
  rewards: Reward[];
  /** The catalogue's size while `rewards` holds only its first rows (the popup view). */
  total?: number | undefined;
  balance: number | null;
  /** A redemption is pending: Redeem waits (the outcome banner says why). */
  blocked: boolean;
  onRedeem: (reward: Reward) => void;
  /**
   * While `rewards` holds only the view's first rows: asks for the whole catalogue, which a search,
   * the filter or more rows need. Read only then, a catalogue of thousands costs nothing at opening.
   */
  onWantAll?: (() => void) | undefined;
}

export function RewardList({ rewards, total = rewards.length, balance, blocked, onRedeem, onWantAll }: Props) {
  const [query, setQuery] = useState('');
  const [affordableOnly, setAffordableOnly] = useState(false);
  const sorted = useMemo(() => sortRewards(rewards, balance), [rewards, balance]);
  const filterable = total > FILTER_THRESHOLD;
  const shown = useMemo(
    () => (filterable ? filterRewards(sorted, query, affordableOnly, balance) : sorted),
    [sorted, filterable, query, affordableOnly, balance],
  );
  const [limit, setLimit] = useState(REWARDS_PAGE);
  const visible = Math.min(limit, shown.length);
  const m = listModel({
    count: rewards.length,
    total,
    balance,
    filterable,
    query,
    affordableOnly,
    shown: shown.length,
    visible,
    // With only the view's rows, the rest of the catalogue is there to show too: "Show more" reads it.
    available: onWantAll ? total : shown.length,
  });
  return (
    <ListView
      m={m}
      onFocus={onWantAll}
      onQuery={(value) => {
        // A new search starts again from the top of its results.
        setQuery(value);
        setLimit(REWARDS_PAGE);
      }}
      onAffordable={(checked) => {
        setAffordableOnly(checked);
        setLimit(REWARDS_PAGE);
      }}
      onMore={() => {
        onWantAll?.();
        setLimit(visible + REWARDS_PAGE);
      }}
      noMatch={
        shown.length === 0 && (
          <div class="empty">
            <p>
              {query.trim()
                ? t(affordableOnly ? 'noAffordableMatch' : 'noRewardsMatch', query.trim())
                : t('noneAffordable')}
            </p>
            <p class="empty-actions">
              {query && (
                <button type="button" class="btn" onClick={() => setQuery('')}>
                  {t('clearSearch')}
                </button>
              )}
              {affordableOnly && (
                <button type="button" class="btn" onClick={() => setAffordableOnly(false)}>
                  {t('showAllRewards')}
                </button>
              )}
            </p>
          </div>
        )
      }
    >
      {shown.slice(0, visible).map((r) => (
        <RewardRow key={r.id} reward={r} balance={balance} blocked={blocked} onRedeem={onRedeem} />
      ))}
    </ListView>
  );
}

interface ViewProps {
  m: ListModel;
  /** The rows. */
  children: ComponentChildren;
  /** In place of the rows: what to say when the search or filter leaves none. */
  noMatch?: ComponentChildren;
  onFocus?: (() => void) | undefined;
  onQuery?: (value: string) => void;
  onAffordable?: (checked: boolean) => void;
  onMore?: () => void;
}

/** The list's markup around its rows, from its model alone: the first frame's template renders it too (issue 19). */
export function ListView({ m, children, noMatch, onFocus, onQuery, onAffordable, onMore }: ViewProps) {
  if (m.empty !== null) return <p class="empty">{m.empty}</p>;
  return (
    <section aria-labelledby="rewards-title">
      <h2 id="rewards-title" class="visually-hidden">
        {m.heading}
      </h2>
      {m.filters && (
        <div class="filters">
          <label class="visually-hidden" for="reward-search">
            {m.filters.search}
          </label>
          <input
            id="reward-search"
            type="search"
            placeholder={m.filters.search}
            value={m.filters.query}
            onFocus={onFocus}
            onInput={(e) => onQuery?.(e.currentTarget.value)}
          />
          {m.filters.affordable && (
            <label class="check">
              <input
                type="checkbox"
                checked={m.filters.affordable.checked}
                onFocus={onFocus}
                onChange={(e) => onAffordable?.(e.currentTarget.checked)}
              />
              {m.filters.affordable.text}
            </label>
          )}
          <p class="visually-hidden" role="status">
            {m.filters.status}
          </p>
        </div>
      )}
      {noMatch || (
        <>
          <ul class="rewards">{children}</ul>
          {m.more !== null && (
            <button type="button" class="btn more" onClick={onMore}>
              {m.more}
            </button>
          )}
        </>
      )}
    </section>
  );
}
