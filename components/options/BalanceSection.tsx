import { useSignal } from '@preact/signals';
import { flowOver } from '../../utils/balance-trend';
import { earnedText, periodText } from '../../utils/earned';
import { formatPoints, parseApiTimestamp } from '../../utils/format';
import { t, tp } from '../../utils/i18n';
import { asSentence, sentences } from '../../utils/sentences';
import { balanceHistoryItem, type BalanceSample } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { BalanceChart, samplesIn, type Spend } from './BalanceChart';
import { useHistoryPages } from './use-history-pages';

export const RANGES = [30, 90, 365] as const;

/**
 * "1,250 points earned in the last 30 days. You spent 500 points.": the popup's earning figure
 * (issue 21), and what was spent beside it, never netted against it.
 */
export function changeSummary(samples: readonly BalanceSample[], days: number, now: number): string | null {
  const flow = flowOver(samples, days, now);
  if (!flow) return null;
  const earned = earnedText(flow, days) ?? t('noneEarned', periodText(flow, days));
  return flow.spent > 0 ? sentences(asSentence(earned), tp('pointsSpent', flow.spent)) : earned;
}

/** Redemptions the history's first page holds, as the chart marks them. */
const HISTORY_ROWS = 100;

/** Issues 11, 21: the balance over the last 30, 90 or 365 days, drawn with its axes and redemptions, and said in words. */
export function BalanceSection({ now = Date.now() }: { now?: number }) {
  const stored = useStorageItem(balanceHistoryItem);
  const history = useHistoryPages(HISTORY_ROWS);
  const days = useSignal<number>(RANGES[0]);
  const samples = stored.value ?? [];
  const summary = changeSummary(samples, days.value, now);
  const shown = samplesIn(samples, days.value, now).map((s) => s.points);
  const range = shown.length > 0 ? [Math.min(...shown), Math.max(...shown)] : null;
  const spends: Spend[] = history.rows.flatMap((r) => {
    const at = parseApiTimestamp(r.created_at);
    return at === null ? [] : [{ at, name: r.reward?.name ?? t('rewardNumber', r.id), points: r.reward_point_cost }];
  });
  return (
    <section class="card" id="balance" aria-labelledby="balance-heading">
      <h2 id="balance-heading">{t('balanceHeading')}</h2>
      <fieldset class="field range-choice">
        <legend>{t('balanceRange')}</legend>
        {RANGES.map((d) => (
          <span class="choice" key={d}>
            <input id={`balance-range-${d}`} type="radio" name="balance-range" checked={days.value === d} onChange={() => (days.value = d)} />
            <label for={`balance-range-${d}`}>{t('rangeDays', d)}</label>
          </span>
        ))}
      </fieldset>
      {summary ? (
        <>
          <BalanceChart samples={samples} spends={spends} days={days.value} now={now} />
          <p class="balance-summary" aria-live="polite">
            <strong>{summary}</strong>
            {range && <span class="muted"> · {t('balanceChartRange', formatPoints(range[0]!), formatPoints(range[1]!))}</span>}
          </p>
        </>
      ) : (
        <p class="muted">{t('balanceNoHistory')}</p>
      )}
    </section>
  );
}
