import { DAY_MS } from '../../utils/balance-trend';
import type { BalanceSample } from '../../utils/storage-items';

const WIDTH = 600;
const HEIGHT = 160;

interface Props {
  samples: readonly BalanceSample[];
  days: number;
  now: number;
}

/** The samples of the last `days` days, starting with the balance in effect when the period began. */
export function samplesIn(samples: readonly BalanceSample[], days: number, now: number): BalanceSample[] {
  const start = now - days * DAY_MS;
  const before = samples.filter((s) => s.at <= start).pop();
  const inside = samples.filter((s) => s.at > start && s.at <= now);
  return [...(before ? [{ at: start, points: before.points }] : []), ...inside];
}

/**
 * The balance over the last `days` days as a step line: the balance holds until it changes. Drawn
 * here, no chart library: a few dozen lines against the 40+ KB gzip of one. The section beside it
 * says the same in words, so the picture itself is hidden from screen readers.
 */
export function BalanceChart({ samples, days, now }: Props) {
  const shown = samplesIn(samples, days, now);
  if (shown.length === 0) return null;
  const from = shown[0]!.at;
  const values = shown.map((s) => s.points);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (low === high) {
    low -= 1;
    high += 1;
  }
  const x = (at: number) => ((at - from) / Math.max(1, now - from)) * WIDTH;
  const y = (points: number) => HEIGHT - ((points - low) / (high - low)) * HEIGHT;
  let path = `M ${x(from).toFixed(1)} ${y(shown[0]!.points).toFixed(1)}`;
  for (const s of shown.slice(1)) path += ` H ${x(s.at).toFixed(1)} V ${y(s.points).toFixed(1)}`;
  path += ` H ${WIDTH}`;
  return (
    <svg class="balance-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <path class="balance-chart-line" d={path} fill="none" vector-effect="non-scaling-stroke" />
    </svg>
  );
}
