import { parseApiTimestamp } from './format';
import type { Redemption } from './types';

/** Balance over time, for the pace and the chart: pure, shared by the background (recording) and the pages (reading). */

/** The balance when it changed (epoch ms, points), oldest first. */
export interface BalanceSample {
  at: number;
  points: number;
  /**
   * Read once and not yet corroborated by a following read: only ever the newest sample, and
   * counted in no total until the next read agrees.
   */
  tentative?: true;
}

export const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** How far back samples are kept, and at most how many (a few thousand: about 100 KB of storage). */
export const KEPT_MS = 365 * DAY_MS;
export const KEPT_SAMPLES = 3_000;
/** Below this much history, or this few gains, a pace would be a guess: none is given. */
export const PACE_MIN_SPAN_MS = 7 * DAY_MS;
export const PACE_MIN_GAINS = 2;
/** The days of the one earning figure the pages show (the same on both pages), and so of the pace worked out from it. */
export const EARN_DAYS = 30;

/**
 * `samples` with `points` at `at` added when it differs from the last one; trimmed to a year, with
 * the newest older sample kept as the year's starting point, and to {@link KEPT_SAMPLES}.
 * Returns the same array when nothing changed, so the caller can skip the write.
 *
 * One bad read never poisons the history: a new balance enters it *tentative*,
 * and becomes a point of the history only when the following read agrees. When the following read
 * says something else, the tentative point is dropped — a lone spike (2,500 → 123,456,789,012 →
 * 2,500) leaves no trace — and the new read is the tentative one. Totals ("points earned"), the pace
 * and the chart count trusted points only ({@link trustedSamples}), so one odd answer is never
 * "123,456,787,778 points earned". The cost: a real change counts one read later (a refresh, an
 * alarm, the popup opening), and of two real changes with no read between them agreeing, the first is
 * skipped — the rises and falls between trusted points still add up to the same totals.
 */
export function withSample(samples: readonly BalanceSample[], points: number, at: number): readonly BalanceSample[] {
  const last = samples[samples.length - 1];
  if (last?.tentative) {
    // Corroborated, it keeps the time it was first seen; contradicted, it goes.
    const earlier = samples.slice(0, -1);
    if (last.points === points) return [...earlier, { at: last.at, points }];
    const next = withSample(earlier, points, at);
    return next === earlier ? [...earlier] : next;
  }
  if (last && last.points === points) return samples;
  // A clock set back must not put samples out of order.
  const next: BalanceSample[] = [...samples, { at: Math.max(at, last?.at ?? at), points, tentative: true }];
  const firstKept = next.findIndex((s) => s.at >= at - KEPT_MS);
  const fromAge = Math.max(0, firstKept - 1);
  return next.slice(Math.max(fromAge, next.length - KEPT_SAMPLES));
}

/**
 * The samples every total, pace and chart is drawn from: the corroborated ones (see
 * {@link withSample}), and only points the interface can mean (whole, 0 or more), so a history
 * stored before such balances were refused with a balance below zero in it does not count it either.
 */
export function trustedSamples(samples: readonly BalanceSample[]): BalanceSample[] {
  return samples.filter((s) => s.tentative !== true && Number.isSafeInteger(s.points) && s.points >= 0);
}

/**
 * Points the panel gave back: a redemption the history shows refunded, at the time the
 * panel last changed it (`updated_at`), for its cost. The rise it caused is not points earned.
 */
export interface PointsReturn {
  at: number;
  points: number;
}

/** How far a refund's time and the read that first saw its rise may disagree: the panel's clock, off by minutes. */
export const RETURN_SLACK_MS = 15 * 60_000;

/** The returns a history holds (newest first, as the panel lists it), at most `max` of them. */
export function returnsOf(redemptions: readonly Redemption[] | null | undefined, max = 50): PointsReturn[] {
  const out: PointsReturn[] = [];
  for (const r of redemptions ?? []) {
    if (out.length >= max) break;
    const at = r.refunded ? (parseApiTimestamp(r.updated_at) ?? parseApiTimestamp(r.created_at)) : null;
    const points = r.reward_point_cost;
    if (at !== null && points !== null && Number.isSafeInteger(points) && points > 0) out.push({ at, points });
  }
  return out;
}

export interface Flow {
  /**
   * Points earned: what the panel credited, every rise of the balance but the part that was points
   * given back ({@link PointsReturn}: a refund is not earning, nor a faster pace).
   */
  earned: number;
  /** How many rises earned something. */
  gains: number;
  /** Points given back for redemptions that did not go through, matched to the rises they caused. */
  returned: number;
  /** Points spent or taken back: every fall. Never subtracted from what was earned. */
  spent: number;
  /** Start of what the samples cover: the period's start, or the first sample when they do not reach back that far. */
  since: number;
  /** Whether the samples cover the whole period. */
  whole: boolean;
}

/**
 * What was earned and spent over the last `days` days: the one earning figure the
 * pages show, so a redemption never reads as a loss. Null without two trusted samples to compare.
 *
 * Points the panel gave back (`returns`) are not earned: each return takes its points
 * from the first rises seen from its time on (less {@link RETURN_SLACK_MS} for the panel's clock),
 * so a rise that was only a refund is no gain, and one that was a refund and a survey at once keeps
 * the survey's part. Over the period, start + earned + returned − spent is the balance at its end.
 */
export function flowOver(
  all: readonly BalanceSample[],
  days: number,
  now: number,
  returns: readonly PointsReturn[] = [],
): Flow | null {
  const samples = trustedSamples(all);
  if (samples.length < 2) return null;
  const start = now - days * DAY_MS;
  const whole = samples[0]!.at <= start;
  const since = whole ? start : samples[0]!.at;
  const rises: Array<{ at: number; points: number }> = [];
  let spent = 0;
  for (let i = 1; i < samples.length; i += 1) {
    if (samples[i]!.at <= since) continue;
    const step = samples[i]!.points - samples[i - 1]!.points;
    if (step > 0) rises.push({ at: samples[i]!.at, points: step });
    else spent -= step;
  }
  let returned = 0;
  for (const back of [...returns].sort((a, b) => a.at - b.at)) {
    let left = back.at > since - RETURN_SLACK_MS && back.at <= now ? back.points : 0;
    for (const rise of rises) {
      if (left <= 0) break;
      if (rise.at < back.at - RETURN_SLACK_MS || rise.points <= 0) continue;
      const taken = Math.min(left, rise.points);
      rise.points -= taken;
      left -= taken;
      returned += taken;
    }
  }
  const earning = rises.filter((r) => r.points > 0);
  const earned = earning.reduce((sum, r) => sum + r.points, 0);
  return { earned, gains: earning.length, returned, spent, since, whole };
}

export interface Pace {
  pointsPerWeek: number;
  /** Weeks until `toGo` points are earned at that pace. */
  weeks: number;
}

/**
 * When `toGo` more points will be there at the recent pace: the points earned over the last 30
 * days (or the whole history when shorter; {@link flowOver}, the figure the popup shows, points
 * given back not counted), per week. Null when there is too little to say it honestly: under a week of history, fewer than two
 * gains, or nothing earned; also when nothing is to go.
 */
export function paceTo(
  all: readonly BalanceSample[],
  toGo: number,
  now: number,
  returns: readonly PointsReturn[] = [],
): Pace | null {
  const samples = trustedSamples(all);
  const flow = flowOver(samples, EARN_DAYS, now, returns);
  if (toGo <= 0 || !flow || now - samples[0]!.at < PACE_MIN_SPAN_MS) return null;
  if (flow.gains < PACE_MIN_GAINS || flow.earned <= 0) return null;
  const pointsPerWeek = (flow.earned * WEEK_MS) / (now - flow.since);
  return { pointsPerWeek, weeks: toGo / pointsPerWeek };
}

/**
 * When the balance was last read, if that was a day or more before `now`: its last change recorded,
 * or a later read (`readAt`, one that gave a balance) that found it unchanged. Undefined while it is
 * current. What was earned, and at what pace, is then said up to that read, dated: nothing was read
 * after it, so the days since are not days without points.
 */
export function lastReadBefore(
  samples: readonly BalanceSample[],
  readAt: number | undefined,
  now: number,
): number | undefined {
  const at = Math.max(samples.at(-1)?.at ?? 0, readAt ?? 0);
  return at > 0 && now - at >= DAY_MS ? at : undefined;
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
