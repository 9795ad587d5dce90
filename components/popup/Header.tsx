import { useEffect, useState } from 'preact/hooks';
import { formatPoints, formatRelative } from '../../utils/format';
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
            Refresh
          </button>
        )}
        <button type="button" class="btn btn-quiet" onClick={openOptions}>
          Options
        </button>
      </div>
      {balance && (
        <p class="hdr-balance">
          {balance.points === null ? (
            'Balance unknown'
          ) : (
            <>
              <strong>{formatPoints(balance.points)}</strong> points
            </>
          )}
        </p>
      )}
      {fetchedAt !== undefined && (
        <p class="muted hdr-updated">
          Updated {formatRelative(fetchedAt, now)}
          {stale && ' · not current'}
          {loading && <span class="spinner" aria-hidden="true" />}
        </p>
      )}
    </header>
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
