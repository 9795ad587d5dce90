import { useEffect, useRef, useState } from 'preact/hooks';
import type { AppError } from '../../utils/errors';
import { formatRelative } from '../../utils/format';
import { t, tp, tpParts } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import type { Balance, Reward } from '../../utils/types';
import { HistoryLink } from './HistoryLink';
import { nextReward } from './next-reward';
import { openOptions } from './open-options';
import { SYNC_ERROR_ID } from './SyncNotice';

interface Props {
  now: number;
  /** Connected and accepted: the history link makes sense. */
  live?: boolean;
  balance?: Balance | undefined;
  rewards?: readonly Reward[] | undefined;
  fetchedAt?: number | undefined;
  /** The last refresh failed while saved data is shown. */
  error?: AppError | null;
  loading?: boolean | undefined;
  onRefresh?: (() => void) | undefined;
}

/** The panel could not be reached at all: the one failure that needs no more words than "Offline". */
const OFFLINE_KINDS: ReadonlyArray<AppError['kind']> = ['network'];

/** Panel name, balance, the next reward and freshness; the only part shown in every state. */
export function Header({ now, live, balance, rewards, fetchedAt, error, loading, onRefresh }: Props) {
  const ref = useStickyOffset();
  const points = balance?.points ?? null;
  const next = rewards && points !== null ? nextReward(rewards, points) : null;
  const age = fetchedAt === undefined ? '' : formatRelative(fetchedAt, now);
  return (
    <header class="hdr" ref={ref}>
      <div class="hdr-row">
        <h1 class="hdr-name">{settings.panelName}</h1>
        {live && <HistoryLink class="btn btn-quiet" sentence={t('popupHistory')} />}
        <button type="button" class="btn btn-quiet" onClick={openOptions}>
          {t('popupOptions')}
        </button>
      </div>
      {balance && (
        <p class="hdr-balance">{points === null ? t('balanceUnknown') : <Points points={points} />}</p>
      )}
      {balance && (next || settings.earnUrl) && (
        <p class="hdr-next small">
          {next && <span>{tp('pointsToReward', next.missing, next.reward.name)}</span>}
          {next && settings.earnUrl && ' · '}
          {settings.earnUrl && (
            <a class="link" href={settings.earnUrl} target="_blank" rel="noopener noreferrer">
              {t('earnMorePoints')}
            </a>
          )}
        </p>
      )}
      {fetchedAt !== undefined && onRefresh && (
        error ? (
          <div id={SYNC_ERROR_ID} class="hdr-offline" role="alert" tabIndex={-1}>
            <p>
              {t(OFFLINE_KINDS.includes(error.kind) ? 'offlineSince' : 'notUpdatedSince', age)}
              {' · '}
              <button type="button" class="btn-link" onClick={onRefresh} aria-busy={loading}>
                {t('retry')}
              </button>
              {loading && <span class="spinner" aria-hidden="true" />}
            </p>
            {!OFFLINE_KINDS.includes(error.kind) && <p class="small">{error.message}</p>}
          </div>
        ) : (
          <p class="muted hdr-updated">
            {t('updatedAt', age)}
            {' · '}
            <button type="button" class="btn-link" onClick={onRefresh} aria-busy={loading}>
              {t('popupRefresh')}
            </button>
            {loading && <span class="spinner" aria-hidden="true" />}
          </p>
        )
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
export function useNow(ms: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

/**
 * The sticky header's height as the page's scroll padding, so an element reached with Tab or
 * Shift+Tab scrolls into view below the header instead of under it (issue 14).
 */
function useStickyOffset() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const header = ref.current;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      document.documentElement.style.scrollPaddingTop = `${header.offsetHeight + 8}px`;
    });
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return ref;
}
