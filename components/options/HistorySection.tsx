import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { formatRelative, parseApiTimestamp } from '../../utils/format';
import { sendMessage } from '../../utils/messages';
import { historyItem, syncItem } from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { useStorageItem } from '../../utils/use-storage-item';
import { ask } from './ask';
import { errorText } from './error-text';
import { HistoryRow } from './HistoryRow';

/** Rows rendered per step: thousands of redemptions would otherwise make the page sluggish. */
export const PAGE_SIZE = 50;

/** Newest first by creation time (UTC); unreadable times go last, ties by id so order is stable. */
export function newestFirst(list: readonly Redemption[]): Redemption[] {
  const keyed = list.map((r) => ({ r, at: parseApiTimestamp(r.created_at) ?? -Infinity }));
  keyed.sort((a, b) => b.at - a.at || b.r.id - a.r.id);
  return keyed.map((k) => k.r);
}

export function HistorySection() {
  const history = useStorageItem(historyItem);
  const sync = useStorageItem(syncItem);
  const shown = useSignal(PAGE_SIZE);
  const status = useSignal('');
  const alert = useSignal('');
  const refreshing = useSignal(false);

  async function refresh(force: boolean) {
    refreshing.value = true;
    if (force) status.value = 'Refreshing history…';
    const result = await ask(() => sendMessage('refreshHistory', { force }));
    refreshing.value = false;
    alert.value = result.ok ? '' : errorText(result.error);
    if (force) status.value = result.ok ? 'History is up to date.' : '';
  }

  useEffect(() => {
    void refresh(false);
  }, []);

  const entries = history.value?.data;
  const sorted = useMemo(() => (entries ? newestFirst(entries) : []), [entries]);
  const loading = refreshing.value || Boolean(sync.value?.history.loading);
  const syncError = sync.value?.history.error;
  const shownAlert = alert.value || (syncError && !loading ? errorText(syncError) : '');

  let body;
  if (!entries) {
    body = <p class="muted">{loading || history.value === undefined ? 'Loading your history…' : 'Your history has not been loaded yet.'}</p>;
  } else if (!sorted.length) {
    body = <p class="empty-state">No redemptions yet. Rewards you redeem from the toolbar show up here.</p>;
  } else {
    const visible = sorted.slice(0, shown.value);
    body = (
      <>
        <ul class="history-list" aria-labelledby="history-heading">
          {visible.map((r) => (
            <HistoryRow key={r.id} redemption={r} />
          ))}
        </ul>
        <p class="muted">
          Showing {visible.length} of {sorted.length}
        </p>
        {visible.length < sorted.length && (
          <button type="button" onClick={() => (shown.value += PAGE_SIZE)}>
            Show more
          </button>
        )}
      </>
    );
  }

  return (
    <section class="card" aria-labelledby="history-heading">
      <div class="section-head">
        <h2 id="history-heading">Redemption history</h2>
        <button type="button" disabled={refreshing.value} onClick={() => refresh(true)}>
          Refresh history
        </button>
      </div>
      {history.value && <p class="muted">Updated {formatRelative(history.value.fetchedAt)}</p>}
      <p role="status" class="status">
        {status.value}
      </p>
      {shownAlert && (
        <p role="alert" class="alert">
          {shownAlert}
        </p>
      )}
      {body}
    </section>
  );
}
