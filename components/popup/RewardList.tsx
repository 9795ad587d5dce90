import { useMemo, useState } from 'preact/hooks';
import { FILTER_THRESHOLD, filterRewards, sortRewards } from '../../utils/reward-view';
import { t } from '../../utils/i18n';
import type { Reward } from '../../utils/types';
import { RewardRow } from './RewardRow';

interface Props {
  rewards: Reward[];
  balance: number | null;
  blocked: string | null;
  onRedeem: (reward: Reward) => void;
}

export function RewardList({ rewards, balance, blocked, onRedeem }: Props) {
  const [query, setQuery] = useState('');
  const [affordableOnly, setAffordableOnly] = useState(false);
  const sorted = useMemo(() => sortRewards(rewards, balance), [rewards, balance]);
  const filterable = rewards.length > FILTER_THRESHOLD;
  const shown = filterable ? filterRewards(sorted, query, affordableOnly, balance) : sorted;

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
            onInput={(e) => setQuery(e.currentTarget.value)}
          />
          {balance !== null && (
            <label class="check">
              <input
                type="checkbox"
                checked={affordableOnly}
                onChange={(e) => setAffordableOnly(e.currentTarget.checked)}
              />
              {t('affordableOnly')}
            </label>
          )}
          <p class="visually-hidden" role="status">
            {t('rewardsShown', shown.length, rewards.length)}
          </p>
        </div>
      )}
      {shown.length === 0 ? (
        <p class="empty">{t('noRewardsMatch')}</p>
      ) : (
        <ul class="rewards">
          {shown.map((r) => (
            <RewardRow key={r.id} reward={r} balance={balance} blocked={blocked} onRedeem={onRedeem} />
          ))}
        </ul>
      )}
    </section>
  );
}
