// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balanceFromBody, resolveBalance, toPoints } from '../../utils/balance';

const VAR = 'POINTS_BALANCE';

describe('toPoints', () => {
  it('accepts integers and strings of one', () => {
    expect(toPoints(0)).toBe(0);
    expect(toPoints(2500)).toBe(2500);
    expect(toPoints('2500')).toBe(2500);
    expect(toPoints(' 42 ')).toBe(42);
  });

  // Points are never below zero: such a number is no balance, not a debt.
  it('a number below zero is not points', () => {
    for (const value of [-1, -2500, '-40', ' -7 ', -Number.MAX_SAFE_INTEGER])
      expect(toPoints(value), String(value)).toBeNull();
    expect(Object.is(toPoints('-0'), 0)).toBe(true);
    expect(Object.is(toPoints(-0), 0)).toBe(true);
  });

  it('refuses fractions, NaN, infinities and non-numbers', () => {
    for (const value of [
      1.5,
      -1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      '1.5',
      '-',
      '--5',
      '- 5',
      '+5',
      '',
      'abc',
      '12abc',
      true,
      null,
      undefined,
      [1],
      { points: 1 },
      2 ** 60,
      -(2 ** 60),
      '-99999999999999999999',
    ]) {
      expect(toPoints(value), String(value)).toBeNull();
    }
  });

  it('never returns anything but null or a safe integer', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const points = toPoints(value);
        return points === null || (Number.isSafeInteger(points) && points >= 0);
      }),
      // The same cases every run, so a failure in CI is the one a developer replays.
      { seed: 20_261_130 },
    );
  });
});

describe('balanceFromBody', () => {
  it('reads the first field sent as a number, in the order points, balance, points_balance, reward_points', () => {
    expect(balanceFromBody({ points: 10, balance: 20 })).toEqual({ points: 10 });
    expect(balanceFromBody({ balance: 20, points_balance: 30 })).toEqual({ points: 20 });
    expect(balanceFromBody({ points_balance: 30, reward_points: 40 })).toEqual({ points: 30 });
    expect(balanceFromBody({ reward_points: 40 })).toEqual({ points: 40 });
    expect(balanceFromBody({ points: 'lots', balance: null, points_balance: '75' })).toEqual({ points: 75 });
    expect(balanceFromBody({ points: { total: 5 }, balance: true, reward_points: 0 })).toEqual({ points: 0 });
  });

  // A number the interface cannot mean as a balance is refused, naming its field;
  // no later field stands in for it.
  it('names the field of a number that cannot be a balance: below zero, a fraction, beyond 2^53', () => {
    for (const value of [-50, -1, 2.5, '2.5', '-40', 2 ** 53, 1e21, Number.POSITIVE_INFINITY, Number.NaN, '1e3']) {
      expect(balanceFromBody({ points: 'lots', balance: value, points_balance: '75' }), String(value)).toEqual({
        impossible: 'balance',
      });
    }
    expect(balanceFromBody({ reward_points: -50 })).toEqual({ impossible: 'reward_points' });
    // Only the first number decides: a later field is not read once one held points.
    expect(balanceFromBody({ points: 10, balance: -3 })).toEqual({ points: 10 });
  });

  it('is null without a numeric field or for a non-object body', () => {
    expect(balanceFromBody({ message: 'success', rewards: [] })).toEqual({ points: null });
    expect(balanceFromBody({ points: null })).toEqual({ points: null });
    expect(balanceFromBody({ points: 'lots', balance: '' })).toEqual({ points: null });
    expect(balanceFromBody(null)).toEqual({ points: null });
    expect(balanceFromBody([1])).toEqual({ points: null });
    expect(balanceFromBody('2500')).toEqual({ points: null });
  });
});

describe('resolveBalance (design §2)', () => {
  it('prefers the rewards response', () => {
    expect(resolveBalance({ rewards: 2500, variables: 10, stored: { [VAR]: '7' }, variableName: VAR })).toEqual({
      points: 2500,
      source: 'rewards',
    });
  });

  it('falls back to the read-variables response', () => {
    expect(resolveBalance({ rewards: null, variables: 10, stored: { [VAR]: '7' }, variableName: VAR })).toEqual({
      points: 10,
      source: 'variables',
    });
  });

  it('then to the stored variable, as a numeric string or a number', () => {
    expect(resolveBalance({ rewards: null, variables: null, stored: { [VAR]: '7' }, variableName: VAR })).toEqual({
      points: 7,
      source: 'stored-variable',
    });
    expect(resolveBalance({ rewards: null, variables: null, stored: { [VAR]: 8 }, variableName: VAR })).toEqual({
      points: 8,
      source: 'stored-variable',
    });
  });

  it('uses the configured variable name only', () => {
    const stored = { POINTS_BALANCE: '7', MY_POINTS: '99' };
    expect(resolveBalance({ rewards: null, variables: null, stored, variableName: 'MY_POINTS' }).points).toBe(99);
    expect(resolveBalance({ rewards: null, variables: null, stored: { OTHER: '5' }, variableName: VAR }).source).toBe(
      'unknown',
    );
  });

  it('is unknown when nothing holds points', () => {
    expect(resolveBalance({ rewards: null, variables: null, stored: null, variableName: VAR })).toEqual({
      points: null,
      source: 'unknown',
    });
    expect(resolveBalance({ rewards: null, variables: null, stored: {}, variableName: '' })).toEqual({
      points: null,
      source: 'unknown',
    });
  });

  it('passes over fractional and NaN values to the next source', () => {
    expect(resolveBalance({ rewards: 2.5, variables: 1.5, stored: { [VAR]: 'NaN' }, variableName: VAR }).source).toBe(
      'unknown',
    );
    expect(resolveBalance({ rewards: Number.NaN, variables: 0.5, stored: { [VAR]: '12' }, variableName: VAR })).toEqual(
      {
        points: 12,
        source: 'stored-variable',
      },
    );
    expect(resolveBalance({ rewards: null, variables: null, stored: { [VAR]: [12] }, variableName: VAR }).source).toBe(
      'unknown',
    );
  });

  it('a number below zero is no balance from any source (the client refuses it in an answer; a stored variable is passed over)', () => {
    expect(resolveBalance({ rewards: -5, variables: 10, stored: null, variableName: VAR })).toEqual({
      points: 10,
      source: 'variables',
    });
    expect(resolveBalance({ rewards: null, variables: -1, stored: null, variableName: VAR })).toEqual({
      points: null,
      source: 'unknown',
    });
    expect(resolveBalance({ rewards: null, variables: null, stored: { [VAR]: '-300' }, variableName: VAR })).toEqual({
      points: null,
      source: 'unknown',
    });
  });

  it('zero is a balance, not a missing one', () => {
    expect(resolveBalance({ rewards: 0, variables: 10, stored: null, variableName: VAR })).toEqual({
      points: 0,
      source: 'rewards',
    });
  });
});
