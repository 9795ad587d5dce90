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

  it('a balance below zero is a balance, not "unknown"', () => {
    expect(toPoints(-1)).toBe(-1);
    expect(toPoints(-2500)).toBe(-2500);
    expect(toPoints('-40')).toBe(-40);
    expect(toPoints(' -7 ')).toBe(-7);
    expect(toPoints(-Number.MAX_SAFE_INTEGER)).toBe(-Number.MAX_SAFE_INTEGER);
    expect(Object.is(toPoints('-0'), 0)).toBe(true);
    expect(Object.is(toPoints(-0), 0)).toBe(true);
  });

  it('refuses fractions, NaN, infinities and non-numbers', () => {
    for (const value of [1.5, -1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1.5', '-', '--5', '- 5', '+5', '', 'abc', '12abc', true, null, undefined, [1], { points: 1 }, 2 ** 60, -(2 ** 60), '-99999999999999999999']) {
      expect(toPoints(value), String(value)).toBeNull();
    }
  });

  it('never returns anything but null or a safe integer', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const points = toPoints(value);
        return points === null || Number.isSafeInteger(points);
      }),
    );
  });
});

describe('balanceFromBody', () => {
  it('reads the first field holding points, in the order points, balance, points_balance, reward_points', () => {
    expect(balanceFromBody({ points: 10, balance: 20 })).toBe(10);
    expect(balanceFromBody({ balance: 20, points_balance: 30 })).toBe(20);
    expect(balanceFromBody({ points_balance: 30, reward_points: 40 })).toBe(30);
    expect(balanceFromBody({ reward_points: 40 })).toBe(40);
    expect(balanceFromBody({ points: 'lots', balance: 2.5, points_balance: '75' })).toBe(75);
    expect(balanceFromBody({ points: 'lots', balance: -3, points_balance: '75' })).toBe(-3);
  });

  it('is null without a usable field or for a non-object body', () => {
    expect(balanceFromBody({ message: 'success', rewards: [] })).toBeNull();
    expect(balanceFromBody({ points: null })).toBeNull();
    expect(balanceFromBody(null)).toBeNull();
    expect(balanceFromBody([1])).toBeNull();
    expect(balanceFromBody('2500')).toBeNull();
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
    expect(resolveBalance({ rewards: Number.NaN, variables: 0.5, stored: { [VAR]: '12' }, variableName: VAR })).toEqual({
      points: 12,
      source: 'stored-variable',
    });
    expect(resolveBalance({ rewards: null, variables: null, stored: { [VAR]: [12] }, variableName: VAR }).source).toBe(
      'unknown',
    );
  });

  it('a negative balance is shown from its source, never as unknown', () => {
    expect(resolveBalance({ rewards: -5, variables: 10, stored: null, variableName: VAR })).toEqual({ points: -5, source: 'rewards' });
    expect(resolveBalance({ rewards: null, variables: -1, stored: null, variableName: VAR })).toEqual({ points: -1, source: 'variables' });
    expect(resolveBalance({ rewards: null, variables: null, stored: { [VAR]: '-300' }, variableName: VAR })).toEqual({
      points: -300,
      source: 'stored-variable',
    });
  });

  it('zero is a balance, not a missing one', () => {
    expect(resolveBalance({ rewards: 0, variables: 10, stored: null, variableName: VAR })).toEqual({
      points: 0,
      source: 'rewards',
    });
  });
});
