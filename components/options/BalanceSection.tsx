import { useSignal } from '@preact/signals';
import {
  DAY_MS,
  flowOver,
  lastReadBefore,
  returnsOf,
  type PointsReturn,
  type BalanceSample,
} from '../../utils/balance-trend';
import { earnedText, periodText } from '../../utils/earned';
import { formatPoints, parseApiTimestamp } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { asSentence, sentences } from '../../utils/sentences';
import { balanceHistoryItem, popupViewItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { BalanceChart, samplesIn, shortDay, type Spend } from './BalanceChart';
import { useHistoryPages } from './use-history-pages';
import { UnreadSection } from './UnreadSection';
import { Joined } from '../popup/Joined';
import { Qty } from '../popup/Qty';

export const RANGES = [30, 90, 365] as const;

/**
 * "1,250 points earned in the last 30 days. You spent 500 points.": the popup's earning figure
 * (the same words on both pages), and what was spent beside it, never netted against it; points the panel gave back for
 * a redemption that did not go through are said apart, never as earned: a refund is not earning.
 * `until`: the balance was last read then, days ago, and the period ends there (`end` is that
 * read): said with its dates.
 */
export function changeSummary(
  samples: readonly BalanceSample[],
  days: number,
  end: number,
  returns: readonly PointsReturn[] = [],
  until?: number,
): string | null {
  const flow = flowOver(samples, days, end, returns);
  if (!flow) return null;
  const earned = earnedText(flow, days, until) ?? t('noneEarned', periodText(flow, days, until));
  const more = [
    flow.spent > 0 ? tp('pointsSpent', flow.spent) : '',
    flow.returned > 0 ? tp('pointsReturned', flow.returned) : '',
  ].filter(Boolean);
  return more.length > 0 ? sentences(asSentence(earned), ...more) : earned;
}

/**
 * "From 1,450 on Oct 27 to 2,500 points today": where the chart starts and ends, as
 * dated values, so the summary's totals add up to them (start + earned + returned − spent = end);
 * never the period's lowest and highest points. `until`: the balance was last read then, days ago
 * (`end` is that read): "… to 2,500 points on Nov 2", never "today".
 */
export function fromToText(
  samples: readonly BalanceSample[],
  days: number,
  end: number,
  until?: number,
): string | null {
  const shown = samplesIn(samples, days, end);
  if (shown.length === 0) return null;
  const [first, last] = [shown[0]!, shown.at(-1)!];
  return until === undefined
    ? tp('balanceFromTo', last.points, formatPoints(first.points), shortDay(first.at))
    : t('balanceFromToOn', tp('points', last.points), formatPoints(first.points), shortDay(first.at), shortDay(until));
}

/** Redemptions the history's first page holds, as the chart marks them. */
const HISTORY_ROWS = 100;

/** The balance over the last 30, 90 or 365 days, drawn with its axes and redemptions, and said in words. */
export function BalanceSection({ now = Date.now() }: { now?: number }) {
  const stored = useStorageItem(balanceHistoryItem);
  const history = useHistoryPages(HISTORY_ROWS);
  const days = useSignal<number>(RANGES[0]);
  // The refunds the background found in the whole history, else those of the rows read here.
  const view = useStorageItem(popupViewItem);
  // Until the samples and the refunds (the view's, else the history's) are read, nothing is said of
  // them: not "the chart starts once your balance changes", nor refunded points counted as earned.
  const refundsRead = view.value?.returns !== undefined || history.fetchedAt !== undefined;
  if (stored.value === undefined || view.value === undefined || !refundsRead) {
    return <UnreadSection id="balance" heading={t('balanceHeading')} />;
  }
  const samples = stored.value;
  // The view's, else those of the cached history's rows read here; neither read, unknown: a rise may
  // then be a refund, so nothing is said earned.
  const returns = view.value?.returns ?? (typeof history.fetchedAt === 'number' ? returnsOf(history.rows) : undefined);
  // Less than a day of it: one line, not a chart whose axis reads "Nov 29 · Nov 29 · Today" and
  // "No points earned since Nov 29" on that very day.
  const firstDay = samples.length > 0 && now - Math.min(...samples.map((s) => s.at)) < DAY_MS;
  // Read days ago (a panel down, a key refused), the period ends at that read, dated: never "today".
  const viewed = view.value?.rewards;
  const until = lastReadBefore(samples, viewed && viewed.balance.points !== null ? viewed.fetchedAt : undefined, now);
  const end = until ?? now;
  // Two samples in the period make a chart; what was earned is said only with the refunds known.
  const drawn = flowOver(samples, days.value, end) !== null;
  const summary = returns ? changeSummary(samples, days.value, end, returns, until) : null;
  const range = fromToText(samples, days.value, end, until);
  // A redemption whose points the panel gave as no number of points is not drawn as a spend (utils/api/records.ts).
  const spends: Spend[] = history.rows.flatMap((r) => {
    const at = parseApiTimestamp(r.created_at);
    const points = r.reward_point_cost;
    return at === null || points === null ? [] : [{ at, name: r.reward?.name ?? t('rewardNumber', r.id), points }];
  });
  return (
    <section class="card" id="balance" aria-labelledby="balance-heading">
      <h2 id="balance-heading">{t('balanceHeading')}</h2>
      {/* No period to choose while there is less than a day to draw. */}
      {!firstDay && (
        <fieldset class="field range-choice">
          <legend>{t('balanceRange')}</legend>
          {RANGES.map((d) => (
            <span class="choice" key={d}>
              <input
                id={`balance-range-${d}`}
                type="radio"
                name="balance-range"
                checked={days.value === d}
                onChange={() => (days.value = d)}
              />
              <label for={`balance-range-${d}`}>{tp('rangeDays', d)}</label>
            </span>
          ))}
        </fieldset>
      )}
      {firstDay ? (
        <p class="balance-first-day">{t('balanceFirstDay', tp('points', samples.at(-1)!.points))}</p>
      ) : drawn ? (
        <>
          <BalanceChart
            samples={samples}
            spends={spends}
            days={days.value}
            now={end}
            lastLabel={until === undefined ? undefined : shortDay(until)}
          />
          <p class="balance-summary joined-line" aria-live="polite">
            {!summary ? (
              <span class="muted">
                <Qty text={range ?? ''} />
              </span>
            ) : range ? (
              <Joined
                first={
                  <strong>
                    <Qty text={summary} />
                  </strong>
                }
                then={
                  <span class="muted">
                    <Qty text={range} />
                  </span>
                }
              />
            ) : (
              <strong>
                <Qty text={summary} />
              </strong>
            )}
          </p>
        </>
      ) : (
        <p class="muted">{t('balanceNoHistory')}</p>
      )}
    </section>
  );
}
