import { useEffect, useState } from 'preact/hooks';
import { formatRelative } from '../../utils/format';
import { t, tpParts } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import type { Balance } from '../../utils/types';
import { openOptions } from './open-options';

interface Props {
  balance?: Balance | undefined;
  fetchedAt?: number | undefined;
  stale?: boolean;
  loading?: boolean;
  onRefresh?: (() => void) | undefined;
}

/** Panel name, balance and freshness; the only part shown in every state. */
export function Header({ balance, fetchedAt, stale, loading, onRefresh }: Props) {
  const now = useNow(30_000);
  return (
    <header class="hdr">
      <div class="hdr-row">
        <h1 class="hdr-name">{settings.panelName}</h1>
        {onRefresh && (
          <button type="button" class="btn btn-quiet" onClick={onRefresh} aria-busy={loading}>
            {t('popupRefresh')}
          </button>
        )}
        <button type="button" class="btn btn-quiet" onClick={openOptions}>
          {t('popupOptions')}
        </button>
      </div>
      {balance && (
        <p class="hdr-balance">
          {balance.points === null ? t('balanceUnknown') : <Points points={balance.points} />}
        </p>
      )}
      {fetchedAt !== undefined && (
        <p class="muted hdr-updated">
          {t('updatedAt', formatRelative(fetchedAt, now))}
          {stale && ` · ${t('notCurrent')}`}
          {loading && <span class="spinner" aria-hidden="true" />}
        </p>
      )}
    </header>
  );
}

/** "2,500 points" with the number set large. */
function Points({ points }: { points: number }) {
  const [before, number, after] = tpParts('balancePoints', points);
  return (
    <>
      {before}
      <strong>{number}</strong>
      {after}
    </>
  );
}

/** Re-renders every `ms` so "2 min ago" keeps true while the popup stays open. */
function useNow(ms: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}
