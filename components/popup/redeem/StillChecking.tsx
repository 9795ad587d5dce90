import { useEffect, useState } from 'preact/hooks';
import { formatRelative } from '../../../utils/format';
import { t } from '../../../utils/i18n';
import { recordedAgainText } from '../../../utils/recorded-again';
import { asSentence, sentences } from '../../../utils/sentences';
import { settledItem, type LedgerEntry } from '../../../utils/storage-items';
import { CheckNowButton, useCheckNow } from '../use-check-now';
import { checkSaid, LiveState } from '../LiveState';
import { useItem } from '../use-item';
import { asName } from '../../../utils/qty';
import { Qty } from '../Qty';
import { clockTime } from '../when';
import { notFoundWords, pointsTaken } from '../../../utils/points-taken';
import { notFoundText } from './not-found-text';
import { unreadCheck } from './unread-check';
import { lastCheckAt } from '../../../utils/check-schedule';

interface Props {
  /** Open redemptions the outcome card does not show, newest first (open-entries.ts). */
  entries: readonly LedgerEntry[];
  /** Redemptions that settled unseen since the last opening (redeem/settled-seen-item.ts): listed settled. */
  told?: readonly LedgerEntry[] | undefined;
  now: number;
}

/**
 * Every redemption still being checked that the outcome card no longer shows: one line each, what
 * the panel answered, and "Check now". One that settles while the popup is open stays, saying what
 * it became, so it never just vanishes (the card that told it is gone); one that settled while no
 * popup showed it is listed so at the next opening.
 */
export function StillChecking({ entries, told = [], now }: Props) {
  const settled = useItem(settledItem);
  const [listed, setListed] = useState<readonly LedgerEntry[]>(() => [...entries, ...told]);
  useEffect(() => {
    setListed((before) => {
      const known = new Set(before.map((entry) => entry.requestId));
      const added = entries.filter((entry) => !known.has(entry.requestId));
      return added.length > 0 ? [...before, ...added] : before;
    });
  }, [entries]);
  // One read of the history settles every open redemption it shows.
  const checking = useCheckNow();
  const { busy, checkedAt, error } = checking;

  const open = new Map(entries.map((entry) => [entry.requestId, entry]));
  const outcomes = new Map((settled ?? []).map((entry) => [entry.requestId, entry]));
  // An entry that left for neither (the account changed) is no longer this panelist's to see.
  const rows = listed
    .flatMap((entry) => {
      const current = open.get(entry.requestId) ?? outcomes.get(entry.requestId);
      return current ? [current] : [];
    })
    .sort((a, b) => b.startedAt - a.startedAt);
  if (rows.length === 0) return null;
  return (
    <section class="notice notice-warn still-checking" aria-labelledby="still-checking-title">
      <h2 id="still-checking-title" class="small muted">
        {/* Once none of them is still being checked, the heading no longer says they are. */}
        {t(rows.some((entry) => open.has(entry.requestId)) ? 'stillCheckingHeading' : 'stillCheckingSettledHeading')}
      </h2>
      {/* The lines keep time on screen; what changes state (a check, one settling) is said once, here. */}
      <LiveState
        text={sentences(
          checkSaid(checking),
          ...rows.filter((entry) => !open.has(entry.requestId)).map((entry) => settledText(entry)),
        )}
      />
      <ul class="still-list">
        {rows.map((entry) => (
          <li key={entry.requestId}>
            <p>
              <strong>
                <Qty text={t('stillCheckingEntry', asName(entry.rewardName), clockTime(entry.startedAt, now))} />
              </strong>
            </p>
            {open.has(entry.requestId) ? (
              <>
                {said(entry) && <p class="small">{said(entry)}</p>}
                <p class="small muted">
                  {sentences(
                    checkedAt !== null && !busy
                      ? t('checkedNotYet', formatRelative(checkedAt, now))
                      : unreadCheck(entry),
                    endsAt(entry),
                  )}
                </p>
                <CheckNowButton rewardName={entry.rewardName} state={checking} small />
              </>
            ) : (
              <p class="small">
                <Qty text={settledText(entry)} />
              </p>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p class="error" role="alert">
          {error.message}
        </p>
      )}
    </section>
  );
}

/** By when its checks end, so "being checked" is never without an end in sight. */
function endsAt(entry: LedgerEntry): string {
  const next = entry.checks?.nextAt;
  return next === null ? '' : t('checksEndAt', clockTime(Math.max(lastCheckAt(entry.startedAt), next ?? 0)));
}

/** What the panel answered, when it did: a hint only, the history decides. */
function said(entry: LedgerEntry): string {
  if (entry.answer === 'success') return t('stillCheckingSaidYes');
  if (entry.answer === 'refused') return t(pointsTaken(entry) ? 'stillCheckingPointsTaken' : 'stillCheckingSaidNo');
  return '';
}

/** What a listed redemption became when a history read settled it while the popup was open. */
function settledText(entry: LedgerEntry): string {
  const name = asName(entry.rewardName);
  const copies = 1 + (entry.duplicates?.length ?? 0);
  switch (entry.state) {
    case 'done':
      return sentences(t('notifyFoundText', name), copies > 1 ? recordedAgainText(copies, entry.points) : '');
    case 'failed':
      return sentences(
        asSentence(t('outcomeFailed', name)),
        entry.error?.nothingCharged ? t('nothingCharged') : t('checkHistoryFirst'),
      );
    case 'not_found':
      return notFoundWords(entry) === 'not-made'
        ? t('notifyNotFoundText', name)
        : sentences(asSentence(t('outcomeNotFound', name)), notFoundText(entry));
    default:
      return '';
  }
}
