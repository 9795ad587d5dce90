import type { BalanceSample } from './storage-items';

/** Balance over time (issue 11): pure, shared by the background (recording) and the pages (reading). */

export const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** How far back samples are kept, and at most how many (a few thousand: about 100 KB of storage). */
export const KEPT_MS = 365 * DAY_MS;
export const KEPT_SAMPLES = 3_000;
/** Below this much history, or this few gains, a pace would be a guess: none is given. */
export const PACE_MIN_SPAN_MS = 7 * DAY_MS;
export const PACE_MIN_GAINS = 2;
/** The pace is the gain over at most this recent window. */
export const PACE_WINDOW_MS = 30 * DAY_MS;

/**
 * `samples` with `points` at `at` added when it differs from the last one; trimmed to a year, with
 * the newest older sample kept as the year's starting point, and to {@link KEPT_SAMPLES}.
 * Returns the same array when nothing changed, so the caller can skip the write.
 */
export function withSample(samples: readonly BalanceSample[], points: number, at: number): readonly BalanceSample[] {
  const last = samples[samples.length - 1];
  if (last && last.points === points) return samples;
  // A clock set back must not put samples out of order.
  const next = [...samples, { at: Math.max(at, last?.at ?? at), points }];
  const firstKept = next.findIndex((s) => s.at >= at - KEPT_MS);
  const fromAge = Math.max(0, firstKept - 1);
  return next.slice(Math.max(fromAge, next.length - KEPT_SAMPLES));
}

export interface Change {
  /** Points gained (or lost) over the period. */
  change: number;
  /** Start of what the samples cover: the period's start, or the first sample when they do not reach back that far. */
  since: number;
  /** Whether the samples cover the whole period. */
  whole: boolean;
}

/** The balance change over the last `days` days; null without at least two samples to compare. */
export function changeOver(samples: readonly BalanceSample[], days: number, now: number): Change | null {
  if (samples.length < 2) return null;
  const start = now - days * DAY_MS;
  const last = samples[samples.length - 1]!;
  // The balance at the period's start is the last sample taken at or before it.
  let base: BalanceSample | undefined;
  for (const s of samples) if (s.at <= start) base = s;
  if (base) return { change: last.points - base.points, since: start, whole: true };
  const first = samples[0]!;
  return { change: last.points - first.points, since: first.at, whole: false };
}

/** Points earned: every rise of the balance. A fall is points spent (a redemption), never a slower pace. */
function gains(samples: readonly BalanceSample[], from: number): { points: number; count: number } {
  let points = 0;
  let count = 0;
  for (let i = 1; i < samples.length; i += 1) {
    const rise = samples[i]!.points - samples[i - 1]!.points;
    if (samples[i]!.at > from && rise > 0) {
      points += rise;
      count += 1;
    }
  }
  return { points, count };
}

export interface Pace {
  pointsPerWeek: number;
  /** Weeks until `toGo` points are earned at that pace. */
  weeks: number;
}

/**
 * When `toGo` more points will be there at the recent pace: the points earned over the last 30 days
 * (or the whole history when shorter), per week. Null when there is too little to say it honestly:
 * under a week of history, fewer than two gains, or nothing earned; also when nothing is to go.
 */
export function paceTo(samples: readonly BalanceSample[], toGo: number, now: number): Pace | null {
  if (toGo <= 0 || samples.length < 2) return null;
  const span = now - samples[0]!.at;
  if (span < PACE_MIN_SPAN_MS) return null;
  const window = Math.min(span, PACE_WINDOW_MS);
  const earned = gains(samples, now - window);
  if (earned.count < PACE_MIN_GAINS || earned.points <= 0) return null;
  const pointsPerWeek = (earned.points * WEEK_MS) / window;
  return { pointsPerWeek, weeks: toGo / pointsPerWeek };
}

/** "about N days/weeks/months": the unit and the rounded count for a number of weeks. */
export function roughDuration(weeks: number): { unit: 'day' | 'week' | 'month' | 'year'; count: number } {
  const days = weeks * 7;
  if (days < 13.5) return { unit: 'day', count: Math.max(1, Math.round(days)) };
  if (weeks < 8.5) return { unit: 'week', count: Math.round(weeks) };
  const months = days / 30.44;
  if (months < 23.5) return { unit: 'month', count: Math.round(months) };
  return { unit: 'year', count: Math.round(months / 12) };
}
