import { useSignal } from '@preact/signals';
import { redemptionKey } from '../../utils/ids';
import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { formatPoints, formatRelative } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { duplicatesItem, syncItem, type DuplicateRecord } from '../../utils/storage-items';
import { recordedAgainText } from '../../utils/recorded-again';
import { useStorageItem } from '../../utils/use-storage-item';
import { ask } from './ask';
import { alertOf, type Alert } from './error-text';
import { focusLater } from './focus-later';
import { HistoryRow } from './HistoryRow';
import { Qty } from '../popup/Qty';
import { asName } from '../../utils/qty';
import { SectionFeedback } from './SectionFeedback';
import { useHistoryPages } from './use-history-pages';
import { useShowMoreFocus } from '../popup/use-show-more';

/** The fragment that opens this page at the history (`options.html#history`). */
export const HISTORY_ID = 'history';

/** Rows rendered per step: thousands of redemptions would otherwise make the page sluggish. */
export const PAGE_SIZE = 50;

export function HistorySection() {
  const sync = useStorageItem(syncItem);
  const duplicates = useStorageItem(duplicatesItem);
  const shown = useSignal(PAGE_SIZE);
  const history = useHistoryPages(shown.value);
  const status = useSignal('');
  const alert = useSignal<Alert | null>(null);
  const refreshing = useSignal(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const showingMore = useShowMoreFocus(listRef, history.rows.length);

  async function refresh(force: boolean) {
    refreshing.value = true;
    if (force) status.value = t('historyRefreshing');
    const result = await ask(() => sendMessage('refreshHistory', { force }));
    refreshing.value = false;
    alert.value = result.ok ? null : alertOf(result.error);
    if (force) status.value = result.ok ? t('historyUpToDate') : '';
    if (force) focusLater(() => (result.ok ? buttonRef.current : alertRef.current), result.ok);
  }

  useEffect(() => {
    void refresh(false);
  }, []);

  useGoToHistory(headingRef, history.rows.length > 0 || history.fetchedAt === null);
  // Confirms the panel recorded more than once (maybe a request delivered twice): said above the list, and on each row.
  // Whole redemptions (id, reward, time): an id the panel gave again to a later one is not a copy.
  const recordedAgain = useMemo(
    () => new Set<string>((duplicates.value ?? []).flatMap((d) => d.redemptions ?? [])),
    [duplicates.value],
  );
  const loading = refreshing.value || Boolean(sync.value?.history.loading);
  const syncError = sync.value?.history.error;
  const shownAlert = alert.value ?? (syncError && !loading ? alertOf(syncError) : null);

  let body;
  if (!history.fetchedAt || (history.total > 0 && !history.rows.length)) {
    body = <p class="muted">{t(loading || history.fetchedAt !== null ? 'historyLoading' : 'historyNotLoaded')}</p>;
  } else if (!history.total) {
    body = <p class="empty-state">{t('historyEmpty')}</p>;
  } else {
    const visible = history.rows;
    body = (
      <>
        <ul class="history-list" aria-labelledby="history-heading" ref={listRef}>
          {visible.map((r) => (
            <HistoryRow key={r.id} redemption={r} recordedAgain={recordedAgain.has(redemptionKey(r))} />
          ))}
        </ul>
        <p class="muted">{t('historyShowing', formatPoints(visible.length), formatPoints(history.total))}</p>
        {visible.length < history.total && (
          <button
            type="button"
            class="history-more"
            onClick={() => {
              showingMore();
              shown.value += PAGE_SIZE;
            }}
          >
            {tp('showMoreRedemptions', Math.min(PAGE_SIZE, history.total - visible.length))}
          </button>
        )}
      </>
    );
  }

  return (
    <section class="card" id={HISTORY_ID} aria-labelledby="history-heading">
      <div class="section-head">
        <h2 id="history-heading" ref={headingRef} tabIndex={-1}>
          {t('historyHeading')}
        </h2>
        <button type="button" ref={buttonRef} disabled={refreshing.value} onClick={() => void refresh(true)}>
          {t('refreshHistory')}
        </button>
      </div>
      {history.fetchedAt && <p class="muted">{t('updatedAt', formatRelative(history.fetchedAt))}</p>}
      <SectionFeedback status={status.value} alert={shownAlert} alertRef={alertRef} />
      {(duplicates.value ?? []).map((d) => (
        <RecordedAgain key={d.requestId} told={d} />
      ))}
      {body}
    </section>
  );
}

/**
 * The popup's "History" opens this page at #history: the section is rendered only once the
 * session is read, after the browser's own jump to the fragment, so the jump is made here. Before
 * its rows arrive the page may be too short to bring the section to the top; once they are in
 * (`arrived`), it is scrolled there again, unless the panelist has moved on meanwhile.
 */
function useGoToHistory(headingRef: RefObject<HTMLHeadingElement | null>, arrived: boolean) {
  const goingToHistory = useRef(false);
  const arrivedNow = useRef(false);
  const scrollToHistory = () => headingRef.current?.closest('section')?.scrollIntoView?.({ block: 'start' });
  useEffect(() => {
    const go = () => {
      if (location.hash !== `#${HISTORY_ID}`) return;
      goingToHistory.current = true;
      requestAnimationFrame(() => {
        headingRef.current?.focus({ preventScroll: true });
        scrollToHistory();
        // With the rows already shown, this scroll is the last one.
        if (arrivedNow.current) goingToHistory.current = false;
      });
    };
    go();
    addEventListener('hashchange', go);
    return () => removeEventListener('hashchange', go);
  }, []);

  arrivedNow.current = arrived;
  useEffect(() => {
    if (!arrived || !goingToHistory.current) return;
    goingToHistory.current = false;
    if (document.activeElement === headingRef.current) scrollToHistory();
  }, [arrived]);
}

/** A Confirm the panel recorded more than once, in the notification's own title and sentence: no punctuation of ours between a name and words. */
function RecordedAgain({ told }: { told: DuplicateRecord }) {
  return (
    <div class="notice">
      <div class="notice-text">
        <p>
          <strong>
            <Qty text={t('notifyDuplicateTitle', asName(told.rewardName))} />
          </strong>
        </p>
        <p>
          <Qty text={recordedAgainText((told.redemptions ?? told.redemptionIds ?? []).length, told.points)} />
        </p>
      </div>
    </div>
  );
}
