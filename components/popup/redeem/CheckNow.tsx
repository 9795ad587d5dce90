import { formatRelative } from '../../../utils/format';
import { t, tp } from '../../../utils/i18n';
import { sentences } from '../../../utils/sentences';
import { CheckNowButton, useCheckNow } from '../use-check-now';
import type { LedgerEntry } from '../../../utils/storage-items';
import { HistoryLink } from '../HistoryLink';
import { checkSaid, LiveState } from '../LiveState';
import { clockTime } from '../when';
import { pointsTaken } from '../../../utils/points-taken';
import { unreadCheck } from './unread-check';
import { lastCheckAt } from '../../../utils/check-schedule';

/**
 * An unknown outcome's body: when it was sent and what the panel answered, when the history was
 * last read and when it is read next (never "did not go through"), and "Check now", which asks the
 * background to read it at once. A check that finds it settles the card (the ledger changes); one
 * that does not says so where the panelist looks, "Checked just now — not in your history yet"
 * (not a message elsewhere), and focus stays on the button.
 */
export function CheckNow({ entry, now }: { entry: LedgerEntry; now: number }) {
  const checking = useCheckNow();
  const { busy, checkedAt, error } = checking;
  return (
    <>
      <p>{intro(entry)}</p>
      {/* The clock on screen; the live region beside it says only what the check did. */}
      <p class="check-when">{busy ? t('checkingNow') : nextCheck(entry, now, checkedAt)}</p>
      <LiveState text={checkSaid(checking)} />
      {error && (
        <p class="error" role="alert">
          {error.message}
        </p>
      )}
      <div class="notice-actions">
        <CheckNowButton rewardName={entry.rewardName} state={checking} />
        <HistoryLink />
      </div>
    </>
  );
}

/** When it was sent, and what the panel answered then: the answer chooses the words, the history decides. */
function intro(entry: LedgerEntry): string {
  const sent = clockTime(entry.startedAt);
  if (entry.answer === 'success') return t('outcomeUnknownSaidYes', sent);
  if (entry.answer === 'refused')
    return pointsTaken(entry)
      ? t('outcomeUnknownPointsTaken', sent, tp('points', -entry.balanceMoved!))
      : t('outcomeUnknownSaidNo', sent);
  return t('outcomeUnknownText', sent);
}

function nextCheck(entry: LedgerEntry, now: number, checkedAt: number | null): string {
  const checks = entry.checks;
  // The panelist's own check, or else the last scheduled one: one that could not read the history says so.
  const last =
    checkedAt !== null && checkedAt >= Math.max(checks?.lastAt ?? 0, checks?.unreadAt ?? 0)
      ? t('checkedNotYet', formatRelative(checkedAt, now))
      : lastCheck(entry);
  // By when the checks end, so "checking" is never without an end in sight.
  if (checks?.nextAt)
    return sentences(
      last,
      checks.nextAt <= now ? t('checkingNow') : nextCheckIn(checks.nextAt - now),
      t('checksEndAt', clockTime(Math.max(lastCheckAt(entry.startedAt), checks.nextAt))),
    );
  return sentences(last, t('noMoreChecks'));
}

/**
 * What the last scheduled check found: not there yet at its time, or that it could not read the
 * history (then nothing was found either way). Empty before the first one.
 */
function lastCheck(entry: LedgerEntry): string {
  const lastAt = entry.checks?.lastAt;
  return unreadCheck(entry) || (lastAt ? t('lastChecked', clockTime(lastAt)) : '');
}

/**
 * How long until the next check, from now: "in about 30 seconds", "in about 2 minutes". A clock
 * time read as past beside the time the redemption was sent, when both fell in the same minute.
 * Rounded (to ten seconds, or the minute): the alarm may fire a few seconds either way.
 */
export function nextCheckIn(ms: number): string {
  const seconds = Math.max(10, Math.round(ms / 10_000) * 10);
  return seconds < 60 ? tp('nextCheckSeconds', seconds) : tp('nextCheckMinutes', Math.max(1, Math.round(ms / 60_000)));
}
