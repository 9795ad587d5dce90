import { useSignal } from '@preact/signals';
import { changeOver } from '../../utils/balance-trend';
import { formatPoints } from '../../utils/format';
import { t, tp, uiLocale } from '../../utils/i18n';
import { balanceHistoryItem, type BalanceSample } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { BalanceChart, samplesIn } from './BalanceChart';

export const RANGES = [30, 90, 365] as const;

/** "+1,250 points in the last 30 days", or since the first sample when the history is shorter. */
export function changeSummary(samples: readonly BalanceSample[], days: number, now: number): string | null {
  const change = changeOver(samples, days, now);
  if (!change) return null;
  const period = change.whole
    ? t('periodLastDays', days)
    : t('periodSince', new Date(change.since).toLocaleDateString(uiLocale(), { dateStyle: 'medium' }));
  if (change.change > 0) return tp('balanceUp', change.change, period);
  if (change.change < 0) return tp('balanceDown', -change.change, period);
  return t('balanceSame', period);
}

/** Issue 11: the balance over the last 30, 90 or 365 days, drawn and said in words. */
export function BalanceSection({ now = Date.now() }: { now?: number }) {
  const stored = useStorageItem(balanceHistoryItem);
  const days = useSignal<number>(RANGES[0]);
  const samples = stored.value ?? [];
  const summary = changeSummary(samples, days.value, now);
  const shown = samplesIn(samples, days.value, now).map((s) => s.points);
  const range = shown.length > 0 ? [Math.min(...shown), Math.max(...shown)] : null;
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
          <BalanceChart samples={samples} days={days.value} now={now} />
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
