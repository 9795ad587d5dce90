import { useEffect, useState } from 'preact/hooks';
import type { AppError } from '../../utils/errors';
import { formatRelative } from '../../utils/format';
import { t, tp, tpParts } from '../../utils/i18n';
import { settings } from '../../utils/settings';
import type { Balance, Reward } from '../../utils/types';
import type { ProfileSummary } from '../../utils/storage-items';
import { HistoryLink } from './HistoryLink';
import { ProfileLine } from './ProfileLine';
import { nextReward } from '../../utils/next-reward';
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
  /** Open profile questions, from the popup view (issue 20). */
  questions?: ProfileSummary | null | undefined;
}

/** Panel name, balance, the next reward and freshness; the only part shown in every state. */
export function Header({ now, live, balance, rewards, fetchedAt, error, loading, onRefresh, questions }: Props) {
  const points = balance?.points ?? null;
  const next = rewards && points !== null ? nextReward(rewards, points) : null;
  const age = fetchedAt === undefined ? '' : formatRelative(fetchedAt, now);
  const offline = error?.kind === 'network';
  return (
    <header class="hdr">
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
      <ProfileLine summary={questions} />
      {fetchedAt !== undefined && onRefresh && (
        error ? (
          <div id={SYNC_ERROR_ID} class="hdr-offline" role="alert" tabIndex={-1}>
            <Freshness text={t(offline ? 'offlineSince' : 'notUpdatedSince', age)} action={t('retry')} loading={loading} onRefresh={onRefresh} />
            {!offline && <p class="small">{error.message}</p>}
          </div>
        ) : (
          <Freshness text={t('updatedAt', age)} action={t('popupRefresh')} loading={loading} onRefresh={onRefresh} />
        )
      )}
    </header>
  );
}

/**
 * How old the points are, and the way to fresh ones: "Updated 2 min ago · Refresh", or, after a
 * failed refresh, "Offline — points from 1 min ago · Retry" (a network failure needs no more words).
 */
function Freshness({ text, action, loading, onRefresh }: { text: string; action: string; loading?: boolean | undefined; onRefresh: () => void }) {
  return (
    <p class="muted hdr-updated">
      {text}
      {' · '}
      <button type="button" class="btn-link" onClick={onRefresh} aria-busy={loading}>
        {action}
      </button>
      {loading && <span class="spinner" aria-hidden="true" />}
    </p>
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
