import { useMemo, useState } from 'preact/hooks';
import { FILTER_THRESHOLD, filterRewards, sortRewards } from '../../utils/reward-view';
import { t, tp } from '../../utils/i18n';
import type { Reward } from '../../utils/types';
import { RewardRow } from './RewardRow';

/**
 * Rows rendered at first and per "Show more": a popup shows about five at a time, and a catalogue
 * of thousands would otherwise cost its whole size in DOM before anything paints.
 */
export const REWARDS_PAGE = 30;

interface Props {
  rewards: Reward[];
  /** The catalogue's size while `rewards` holds only its first rows (the popup view). */
  total?: number | undefined;
  balance: number | null;
  /** A redemption is pending: Redeem waits (the outcome banner says why). */
  blocked: boolean;
  onRedeem: (reward: Reward) => void;
}

export function RewardList({ rewards, total = rewards.length, balance, blocked, onRedeem }: Props) {
  const [query, setQuery] = useState('');
  const [affordableOnly, setAffordableOnly] = useState(false);
  const sorted = useMemo(() => sortRewards(rewards, balance), [rewards, balance]);
  const filterable = total > FILTER_THRESHOLD;
  const shown = filterable ? filterRewards(sorted, query, affordableOnly, balance) : sorted;
  const [limit, setLimit] = useState(REWARDS_PAGE);
  const more = Math.min(REWARDS_PAGE, shown.length - limit);

  if (rewards.length === 0) {
    return <p class="empty">{t('noRewards')}</p>;
  }
  return (
    <section aria-labelledby="rewards-title">
      <h2 id="rewards-title" class="visually-hidden">
        {t('rewardsHeading')}
      </h2>
      {filterable && (
        <div class="filters">
          <label class="visually-hidden" for="reward-search">
            {t('searchRewards')}
          </label>
          <input
            id="reward-search"
            type="search"
            placeholder={t('searchRewards')}
            value={query}
            onInput={(e) => {
              // A new search starts again from the top of its results.
              setQuery(e.currentTarget.value);
              setLimit(REWARDS_PAGE);
            }}
          />
          {balance !== null && (
            <label class="check">
              <input
                type="checkbox"
                checked={affordableOnly}
                onChange={(e) => {
                  setAffordableOnly(e.currentTarget.checked);
                  setLimit(REWARDS_PAGE);
                }}
              />
              {t('affordableOnly')}
            </label>
          )}
          <p class="visually-hidden" role="status">
            {t('rewardsShown', shown.length, total)}
          </p>
        </div>
      )}
      {shown.length === 0 ? (
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
      ) : (
        <>
          <ul class="rewards">
            {shown.slice(0, limit).map((r) => (
              <RewardRow key={r.id} reward={r} balance={balance} blocked={blocked} onRedeem={onRedeem} />
            ))}
          </ul>
          {more > 0 && (
            <button type="button" class="btn more" onClick={() => setLimit(limit + REWARDS_PAGE)}>
              {tp('showMoreRewards', more)}
            </button>
          )}
        </>
      )}
    </section>
  );
}
