import { useState } from 'preact/hooks';
import { DAY_MS, trustedSamples, type BalanceSample } from '../../utils/balance-trend';
import { formatPoints } from '../../utils/format';
import { direction, t, tp, uiLocale } from '../../utils/i18n';
import { Qty } from '../popup/Qty';

const WIDTH = 600;
const HEIGHT = 160;

/** A redemption on the chart: when, what, for how many points. */
export interface Spend {
  at: number;
  name: string;
  points: number;
}

interface Props {
  samples: readonly BalanceSample[];
  spends: readonly Spend[];
  days: number;
  /** Where the chart ends: now, or the balance's last read when that was days ago. */
  now: number;
  /** The end's label when it is not today (that read's date); "Today" otherwise. */
  lastLabel?: string | undefined;
}

/**
 * The trusted samples (utils/balance-trend.ts) of the last `days` days, starting with the balance in
 * effect when the period began: a read no second read has backed yet is not drawn.
 */
export function samplesIn(all: readonly BalanceSample[], days: number, now: number): BalanceSample[] {
  const samples = trustedSamples(all);
  const start = now - days * DAY_MS;
  const before = samples.filter((s) => s.at <= start).pop();
  const inside = samples.filter((s) => s.at > start && s.at <= now);
  return [...(before ? [{ at: start, points: before.points }] : []), ...inside];
}

/** The balance in effect at `at`: the last sample at or before it. */
const balanceAt = (shown: readonly BalanceSample[], at: number) =>
  shown.filter((s) => s.at <= at).pop()?.points ?? shown[0]!.points;

/** "Oct 27": the axis's dates, and the summary's (BalanceSection). */
export const shortDay = (at: number) => new Date(at).toLocaleDateString(uiLocale(), { day: 'numeric', month: 'short' });
const day = shortDay;

/**
 * Round values for the points axis, so its labels read easily: a step of 1, 2, 2.5 or 5 times a power of ten, from a
 * multiple of it at or below `low` to one at or above `high`, about three steps apart: 1,000 / 1,500
 * / 2,000 / 2,500, never 1,190 / 1,845 / 2,500. Whole points only; never below 0.
 */
export function niceTicks(low: number, high: number): number[] {
  const niceStep = (raw: number) => {
    const power = 10 ** Math.floor(Math.log10(raw));
    return Math.max(1, [1, 2, 2.5, 5, 10].map((m) => m * power).find((step) => step >= raw - 1e-9) ?? 10 * power);
  };
  if (high <= low) {
    // A flat line: one step either side of it.
    const step = niceStep(Math.max(1, Math.abs(high) / 4));
    const from = Math.max(0, Math.floor(low / step) * step - step);
    return [from, from + step, from + 2 * step].filter((v, i, all) => i === 0 || v > all[i - 1]!);
  }
  let step = niceStep((high - low) / 3);
  // Round steps of whole points: 2.5 times 1 is not one.
  if (!Number.isInteger(step)) step = Math.ceil(step);
  const from = Math.max(0, Math.floor(low / step) * step);
  const ticks: number[] = [];
  for (let v = from; v < high + step; v += step) {
    ticks.push(v);
    if (v >= high) break;
  }
  return ticks;
}
const moment = (at: number) => new Date(at).toLocaleString(uiLocale(), { dateStyle: 'medium', timeStyle: 'short' });

/** One stop of the readout: a change of the balance, or a redemption. */
interface Stop {
  at: number;
  points: number;
  text: string;
  spend: boolean;
}

/** A fall of the balance: where the step line goes down, and by how much (marked on the chart). */
export interface Drop {
  at: number;
  from: number;
  to: number;
}

/** Every fall of the balance among `shown`, in time order. */
export function dropsIn(shown: readonly BalanceSample[]): Drop[] {
  return shown
    .slice(1)
    .flatMap((s, i) => (s.points < shown[i]!.points ? [{ at: s.at, from: shown[i]!.points, to: s.points }] : []));
}

/**
 * The balance over the last `days` days as a step line (the balance holds until it changes), with
 * its dates and round values on the axes, each fall of the balance marked, a marker at each
 * redemption the history shows, and a readout: pointing at the
 * chart, or moving along it with the arrow keys (it is a slider over its stops), says the date and
 * the balance, or the redemption, there. Drawn here, no chart library: a few dozen lines
 * against the 40+ KB gzip of one.
 */
export function BalanceChart({ samples, spends, days, now, lastLabel }: Props) {
  const shown = samplesIn(samples, days, now);
  const [at, setAt] = useState<number | null>(null);
  if (shown.length === 0) return null;
  const { from, ticks, x, y, path } = scaleOf(shown, now);
  const marks = spends.filter((s) => s.at > from && s.at <= now);
  const drops = dropsIn(shown);
  const stops = stopsOf(shown, marks, drops);
  const index = at === null ? stops.length - 1 : Math.max(0, Math.min(stops.length - 1, at));
  const stop = stops[index]!;

  // Right to left, time runs from the right edge to the left one, and so do the arrow keys.
  const rtl = direction() === 'rtl';
  const onKey = (e: KeyboardEvent) => {
    const by = keyStep(e.key, rtl);
    if (by === undefined) return;
    e.preventDefault();
    setAt(Math.max(0, Math.min(stops.length - 1, index + by)));
  };
  const onPoint = (e: PointerEvent) => {
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const along = rtl ? box.right - e.clientX : e.clientX - box.left;
    const ms = from + (along / Math.max(1, box.width)) * (now - from);
    let nearest = 0;
    stops.forEach((s, i) => Math.abs(s.at - ms) < Math.abs(stops[nearest]!.at - ms) && (nearest = i));
    setAt(nearest);
  };
  // Marks are placed from the start edge, as the drawing's x runs (mirrored by the page's style in RTL).
  const place = (ms: number, points: number) => ({
    insetInlineStart: `${(x(ms) / WIDTH) * 100}%`,
    insetBlockStart: `${(y(points) / HEIGHT) * 100}%`,
  });
  return (
    <figure class="chart">
      <div class="chart-y" aria-hidden="true">
        {[...ticks].reverse().map((v) => (
          <span key={v}>{formatPoints(v)}</span>
        ))}
      </div>
      <div
        class="chart-plot"
        role="slider"
        tabIndex={0}
        aria-label={t('chartLabel')}
        aria-valuemin={0}
        aria-valuemax={stops.length - 1}
        aria-valuenow={index}
        aria-valuetext={stop.text}
        onKeyDown={onKey}
        onPointerMove={onPoint}
        onPointerDown={onPoint}
      >
        <ChartLines ticks={ticks} path={path} drops={drops} cursor={x(stop.at)} y={y} x={x} />
        {marks.map((s) => (
          <span key={s.at} class="chart-mark" style={place(s.at, balanceAt(shown, s.at))} aria-hidden="true" />
        ))}
        {drops.map((d) => (
          <span key={d.at} class="chart-drop" style={place(d.at, d.to)} aria-hidden="true" />
        ))}
        <span
          class={`chart-dot${stop.spend ? ' chart-dot-spend' : ''}`}
          style={place(stop.at, stop.points)}
          aria-hidden="true"
        />
      </div>
      <div class="chart-x" aria-hidden="true">
        <span>{day(from)}</span>
        <span>{day((from + now) / 2)}</span>
        <span>{lastLabel ?? t('chartToday')}</span>
      </div>
      <figcaption class="chart-readout" aria-hidden="true">
        <Qty text={stop.text} />
      </figcaption>
    </figure>
  );
}

/** The drawing's scale: the axis runs between round values, the step line between them. */
function scaleOf(shown: readonly BalanceSample[], now: number) {
  const from = shown[0]!.at;
  const values = shown.map((s) => s.points);
  const ticks = niceTicks(Math.min(...values), Math.max(...values));
  const low = ticks[0]!;
  const high = Math.max(ticks.at(-1)!, low + 1);
  const x = (ms: number) => ((ms - from) / Math.max(1, now - from)) * WIDTH;
  const y = (points: number) => HEIGHT - ((points - low) / (high - low)) * HEIGHT;
  let path = `M ${x(from).toFixed(1)} ${y(shown[0]!.points).toFixed(1)}`;
  for (const s of shown.slice(1)) path += ` H ${x(s.at).toFixed(1)} V ${y(s.points).toFixed(1)}`;
  path += ` H ${WIDTH}`;
  return { from, ticks, x, y, path };
}

/** The readout's stops: every change of the balance (a fall said as one) and every redemption. */
function stopsOf(shown: readonly BalanceSample[], marks: readonly Spend[], drops: readonly Drop[]): Stop[] {
  const fell = new Map(drops.map((d) => [d.at, d]));
  const pointText = (s: BalanceSample) => {
    const drop = fell.get(s.at);
    return drop
      ? t('chartDrop', moment(s.at), tp('points', drop.from - drop.to), tp('points', s.points))
      : t('chartPoint', moment(s.at), tp('points', s.points));
  };
  return [
    ...shown.map((s) => ({ at: s.at, points: s.points, text: pointText(s), spend: false })),
    ...marks.map((s) => ({
      at: s.at,
      points: balanceAt(shown, s.at),
      text: t('chartSpend', moment(s.at), s.name, tp('points', s.points)),
      spend: true,
    })),
    // A redemption comes before the fall of the balance it caused.
  ].sort((a, b) => a.at - b.at || Number(b.spend) - Number(a.spend));
}

/** How far a key moves the readout along its stops; right to left, the arrows run the other way. */
function keyStep(key: string, rtl: boolean): number | undefined {
  const later = rtl ? 'ArrowLeft' : 'ArrowRight';
  const earlier = rtl ? 'ArrowRight' : 'ArrowLeft';
  const step: Record<string, number> = {
    [later]: 1,
    ArrowUp: 1,
    [earlier]: -1,
    ArrowDown: -1,
    Home: -Infinity,
    End: Infinity,
    PageUp: 5,
    PageDown: -5,
  };
  return step[key];
}

interface LinesProps {
  ticks: readonly number[];
  path: string;
  drops: readonly Drop[];
  /** Where the readout's stop is, along x. */
  cursor: number;
  x(ms: number): number;
  y(points: number): number;
}

/** The chart's lines: the grid, the step line, each fall of the balance, and the readout's cursor. */
function ChartLines({ ticks, path, drops, cursor, x, y }: LinesProps) {
  return (
    <svg
      class="balance-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      {ticks.slice(1, -1).map((v) => (
        <line key={v} class="chart-grid" x1={0} x2={WIDTH} y1={y(v)} y2={y(v)} vector-effect="non-scaling-stroke" />
      ))}
      <path class="balance-chart-line" d={path} fill="none" vector-effect="non-scaling-stroke" />
      {/* Each fall of the balance drawn apart: where the points went. */}
      {drops.map((d) => (
        <line
          key={d.at}
          class="balance-chart-drop"
          x1={x(d.at)}
          x2={x(d.at)}
          y1={y(d.from)}
          y2={y(d.to)}
          vector-effect="non-scaling-stroke"
        />
      ))}
      <line class="chart-cursor" x1={cursor} x2={cursor} y1={0} y2={HEIGHT} vector-effect="non-scaling-stroke" />
    </svg>
  );
}
