import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  EARN_DAYS,
  flowOver,
  KEPT_SAMPLES,
  paceTo,
  returnsOf,
  roughDuration,
  trustedSamples,
  withSample,
  type PointsReturn,
  type BalanceSample,
} from '../../utils/balance-trend';
import type { Redemption } from '../../utils/types';
import { did, at } from './test-ids';

const NOW = Date.UTC(2026, 10, 23, 12);
const daysAgo = (days: number) => NOW - days * DAY_MS;
const sample = (days: number, points: number): BalanceSample => ({ at: daysAgo(days), points });

const tentative = (days: number, points: number): BalanceSample => ({ ...sample(days, points), tentative: true });

describe('recording the balance', () => {
  it('adds a sample only when the balance changed, tentative until the next read agrees', () => {
    const one = withSample([], 2500, daysAgo(2));
    expect(one).toEqual([tentative(2, 2500)]);
    const two = withSample(one, 2500, daysAgo(1));
    expect(two).toEqual([sample(2, 2500)]);
    expect(withSample(two, 2500, daysAgo(0.5))).toBe(two);
    const three = withSample(two, 2600, daysAgo(1));
    expect(three).toEqual([sample(2, 2500), tentative(1, 2600)]);
    expect(withSample(three, 2600, daysAgo(0.5))).toEqual([sample(2, 2500), sample(1, 2600)]);
  });

  it('keeps a year, with the last older sample as where the year starts', () => {
    const samples = [sample(400, 100), sample(380, 200), sample(300, 300)];
    expect(withSample(samples, 400, NOW)).toEqual([
      sample(380, 200),
      sample(300, 300),
      { at: NOW, points: 400, tentative: true },
    ]);
  });

  it('keeps at most a few thousand samples', () => {
    let samples: readonly BalanceSample[] = [];
    for (let i = 0; i < KEPT_SAMPLES + 10; i += 1) {
      // Each balance read twice, as a refresh and the next one would.
      samples = withSample(samples, i, NOW - (KEPT_SAMPLES + 10 - i) * 60_000);
      samples = withSample(samples, i, NOW - (KEPT_SAMPLES + 10 - i) * 60_000 + 1);
    }
    expect(samples).toHaveLength(KEPT_SAMPLES);
    expect(samples[samples.length - 1]).toEqual({ at: NOW - 60_000, points: KEPT_SAMPLES + 9 });
  });

  it('keeps samples in order when the clock was set back', () => {
    const samples = withSample([sample(1, 10)], 20, daysAgo(3));
    expect(samples[1]!.at).toBe(daysAgo(1));
  });
});

/**
 * One refresh with a balance of 123,456,789,012 stayed in the history for ever
 * ("123,456,787,778 points earned"). A read enters the history only once the next one agrees.
 */
describe('one bad read never poisons the history', () => {
  const steady = [sample(20, 1000), sample(10, 1234)];

  it('a lone spike the next read contradicts leaves no trace', () => {
    const spiked = withSample(steady, 123_456_789_012, daysAgo(2));
    expect(spiked).toEqual([...steady, tentative(2, 123_456_789_012)]);
    // Counted nowhere while it is alone: not earned, not charted, not a pace.
    expect(flowOver(spiked, 30, NOW)).toEqual(flowOver(steady, 30, NOW));
    expect(trustedSamples(spiked)).toEqual(steady);
    expect(paceTo(spiked, 100, NOW)).toEqual(paceTo(steady, 100, NOW));
    const back = withSample(spiked, 1234, daysAgo(1));
    expect(back).toEqual(steady);
    expect(back).not.toBe(steady);
    expect(flowOver(back, 30, NOW)!.earned).toBe(234);
  });

  it('a spike followed by another real change: the spike goes, the change waits for its own second read', () => {
    const spiked = withSample(steady, 123_456_789_012, daysAgo(3));
    const next = withSample(spiked, 1500, daysAgo(2));
    expect(next).toEqual([...steady, tentative(2, 1500)]);
    expect(withSample(next, 1500, daysAgo(1))).toEqual([...steady, sample(2, 1500)]);
  });

  it('a value two reads agree on is the panel’s: it is kept', () => {
    const twice = withSample(withSample(steady, 5000, daysAgo(2)), 5000, daysAgo(1));
    expect(twice).toEqual([...steady, sample(2, 5000)]);
    expect(flowOver(twice, 30, NOW)!.earned).toBe(234 + 3766);
  });

  it('a history stored before (untagged samples) counts no number below zero or beyond 2^53', () => {
    const old = [sample(20, 1000), sample(15, -50), sample(10, 1234), sample(5, 2 ** 60)];
    expect(trustedSamples(old)).toEqual([sample(20, 1000), sample(10, 1234)]);
    expect(flowOver(old, 30, NOW)!.earned).toBe(234);
  });

  it('whatever the reads, every total is made of points two reads agreed on', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(1000, 1234, 2500), fc.nat({ max: 2 ** 40 })), { maxLength: 40 }),
        (reads) => {
          let samples: readonly BalanceSample[] = [];
          reads.forEach((points, i) => (samples = withSample(samples, points, daysAgo(30 - i * 0.5))));
          const agreed = new Set(reads.flatMap((points, i) => (i > 0 && reads[i - 1] === points ? [points] : [])));
          for (const s of trustedSamples(samples)) expect(agreed.has(s.points), String(s.points)).toBe(true);
          expect(samples.filter((s) => s.tentative).length).toBeLessThanOrEqual(1);
          if (samples.some((s) => s.tentative)) expect(samples.at(-1)!.tentative).toBe(true);
        },
      ),
      { seed: 20_261_123 },
    );
  });
});

describe('earned and spent over a period', () => {
  const samples = [sample(100, 1000), sample(40, 1500), sample(20, 900), sample(5, 2150)];

  it('earned is every rise, spent every fall, never netted', () => {
    expect(flowOver(samples, 30, NOW)).toEqual({
      earned: 1250,
      gains: 1,
      returned: 0,
      spent: 600,
      since: daysAgo(30),
      whole: true,
    });
    expect(flowOver(samples, 90, NOW)).toEqual({
      earned: 1750,
      gains: 2,
      returned: 0,
      spent: 600,
      since: daysAgo(90),
      whole: true,
    });
    // Shorter history than the period: from the first sample.
    expect(flowOver(samples, 365, NOW)).toEqual({
      earned: 1750,
      gains: 2,
      returned: 0,
      spent: 600,
      since: daysAgo(100),
      whole: false,
    });
  });

  it('right after redeeming, what was earned is unchanged: spending is not a loss', () => {
    const before = [sample(20, 1000), sample(10, 1600), sample(2, 2100)];
    const after = [...before, sample(0.1, 1600)];
    expect(flowOver(after, 30, NOW)?.earned).toBe(flowOver(before, 30, NOW)?.earned);
    expect(flowOver(after, 30, NOW)?.spent).toBe(500);
  });

  it('says nothing with fewer than two samples', () => {
    expect(flowOver([], 30, NOW)).toBeNull();
    expect(flowOver([sample(3, 10)], 30, NOW)).toBeNull();
  });
});

describe('points given back are not earned', () => {
  // 1,450 thirty days ago; a survey (+300); a redemption (−500) the panel refunded (+500); another survey (+250).
  const samples = [sample(40, 1450), sample(25, 1750), sample(12, 1250), sample(9, 1750), sample(3, 2000)];
  const refund: PointsReturn = { at: daysAgo(9) - 60_000, points: 500 };

  it('a refund’s rise is returned, not earned; start + earned + returned − spent is the end', () => {
    expect(flowOver(samples, 30, NOW)).toMatchObject({ earned: 1050, gains: 3, returned: 0, spent: 500 });
    const flow = flowOver(samples, 30, NOW, [refund])!;
    expect(flow).toMatchObject({ earned: 550, gains: 2, returned: 500, spent: 500 });
    expect(1450 + flow.earned + flow.returned - flow.spent).toBe(2000);
  });

  it('a rise that was a refund and a survey at once keeps the survey’s part as earned', () => {
    const both = [sample(40, 1000), sample(12, 500), sample(9, 1100)];
    expect(flowOver(both, 30, NOW, [refund])).toMatchObject({ earned: 100, gains: 1, returned: 500 });
  });

  it('the panel’s clock may be minutes off; a refund outside the period, or with no rise after it, takes nothing', () => {
    // The read that saw the rise came 10 minutes before the refund's time, by the panel's clock.
    expect(flowOver(samples, 30, NOW, [{ at: daysAgo(9) + 10 * 60_000, points: 500 }])?.earned).toBe(550);
    expect(flowOver(samples, 30, NOW, [{ at: daysAgo(60), points: 500 }])?.earned).toBe(1050);
    expect(flowOver(samples, 30, NOW, [{ at: daysAgo(1), points: 500 }])?.earned).toBe(1050);
  });

  it('the pace counts what the panel credited: a refund does not speed it up', () => {
    const pace = paceTo(samples, 1000, NOW, [refund])!;
    expect(pace.pointsPerWeek).toBeCloseTo((550 * 7) / 30);
    expect(paceTo(samples, 1000, NOW)!.pointsPerWeek).toBeGreaterThan(pace.pointsPerWeek);
  });

  it('the returns are the refunded redemptions of the history, at the time the panel changed them', () => {
    const base = {
      id: 1,
      cost: 5,
      currency: 'USD',
      reward: {} as Redemption['reward'],
      approved: true,
      processed: false,
      failed: true,
      partner_status: null,
      failed_reason: null,
      transaction_id: null,
    };
    const history: Redemption[] = [
      {
        ...base,
        id: did(3),
        reward_point_cost: 500,
        created_at: at('2026-11-10T08:00:00'),
        updated_at: '2026-11-14T11:59:00',
        refunded: true,
      },
      {
        ...base,
        id: did(2),
        reward_point_cost: 700,
        created_at: at('2026-11-01T08:00:00'),
        updated_at: '2026-11-02T08:00:00',
        refunded: false,
      },
    ];
    expect(returnsOf(history)).toEqual([{ at: Date.UTC(2026, 10, 14, 11, 59), points: 500 }]);
    expect(returnsOf(null)).toEqual([]);
  });
});

describe('the pace', () => {
  it('410 points a week: about 3 weeks for 1,230 more', () => {
    // 4 weeks of history, 1,640 points earned in 4 gains.
    const samples = [sample(28, 0), sample(21, 410), sample(14, 820), sample(7, 1230), sample(0, 1640)];
    const pace = paceTo(samples, 1230, NOW);
    expect(pace?.pointsPerWeek).toBeCloseTo(410);
    expect(pace?.weeks).toBeCloseTo(3);
    expect(roughDuration(pace!.weeks)).toEqual({ unit: 'week', count: 3 });
  });

  it('points spent on a redemption are not a slower pace', () => {
    const earning = [sample(28, 1000), sample(21, 1410), sample(14, 1820), sample(0, 2230)];
    const spending = [sample(28, 1000), sample(21, 1410), sample(15, 410), sample(14, 820), sample(0, 1230)];
    expect(paceTo(spending, 500, NOW)?.pointsPerWeek).toBeCloseTo(paceTo(earning, 500, NOW)!.pointsPerWeek);
  });

  it('says nothing with too little history to be honest', () => {
    expect(paceTo([sample(3, 0), sample(1, 500), sample(0, 900)], 100, NOW)).toBeNull(); // under a week
    expect(paceTo([sample(20, 0), sample(0, 900)], 100, NOW)).toBeNull(); // one gain
    expect(paceTo([sample(20, 900), sample(10, 500), sample(0, 100)], 100, NOW)).toBeNull(); // nothing earned
    expect(paceTo([sample(20, 0), sample(10, 500), sample(0, 900)], 0, NOW)).toBeNull(); // nothing to go
  });

  it('only the last 30 days count', () => {
    const samples = [sample(200, 0), sample(100, 10_000), sample(20, 10_100), sample(10, 10_200), sample(0, 10_300)];
    expect(paceTo(samples, 700, NOW)?.pointsPerWeek).toBeCloseTo((300 * 7) / 30);
  });

  it('is worked out from the one earning figure the popup shows: 30 days of its weekly pace are what was earned', () => {
    const samples = [sample(45, 100), sample(25, 400), sample(12, 900), sample(6, 700), sample(1, 1500)];
    const earned = flowOver(samples, EARN_DAYS, NOW)!.earned;
    expect(paceTo(samples, 1000, NOW)!.pointsPerWeek * (EARN_DAYS / 7)).toBeCloseTo(earned);
  });

  it('rounds durations to days, weeks, months and years', () => {
    expect(roughDuration(0.1)).toEqual({ unit: 'day', count: 1 });
    expect(roughDuration(1.5)).toEqual({ unit: 'day', count: 11 });
    expect(roughDuration(6)).toEqual({ unit: 'week', count: 6 });
    expect(roughDuration(26)).toEqual({ unit: 'month', count: 6 });
    expect(roughDuration(200)).toEqual({ unit: 'year', count: 4 });
  });
});
