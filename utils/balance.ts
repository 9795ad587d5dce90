import type { Balance, StoredValues } from './types';

/** Top-level response fields that may carry the balance, in the order they are tried (design §2). */
export const BALANCE_FIELDS = ['points', 'balance', 'points_balance', 'reward_points'] as const;

const WHOLE = /^\s*-?\d+\s*$/;

/**
 * A balance in points, or null when `value` is not one. Points are whole numbers (design §8): a
 * safe integer, or a string of one ("2500", "-40"). A balance may be below zero (a panel may
 * take back points, e.g. after a refunded survey): it is shown as it is, never as "unknown".
 * Fractions, NaN, infinities, empty or non-numeric strings, booleans, arrays and objects are
 * not points. Costs never come through here: the schemas check `reward_point_cost`.
 */
export function toPoints(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && WHOLE.test(value) ? Number(value.trim()) : NaN;
  // `+ 0` turns -0 (from "-0") into 0, which is what a panelist should read.
  return Number.isSafeInteger(n) ? n + 0 : null;
}

/**
 * The balance carried by a response body's top level: the first of {@link BALANCE_FIELDS} that
 * holds points, or null when none does (also when `body` is not an object).
 */
export function balanceFromBody(body: unknown): number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const record = body as Record<string, unknown>;
  for (const field of BALANCE_FIELDS) {
    const points = toPoints(record[field]);
    if (points !== null) return points;
  }
  return null;
}

/**
 * Design §2: the balance from, in order, the rewards response, the read-variables response, the
 * stored variable named at build time; `unknown` (points null) when none of them holds points.
 * Every input is checked again with {@link toPoints}, so a fractional number is passed over,
 * not shown; a negative one is a balance.
 */
export function resolveBalance(input: {
  rewards: number | null;
  variables: number | null;
  stored: StoredValues | null;
  variableName: string;
}): Balance {
  const fromRewards = toPoints(input.rewards);
  if (fromRewards !== null) return { points: fromRewards, source: 'rewards' };
  const fromVariables = toPoints(input.variables);
  if (fromVariables !== null) return { points: fromVariables, source: 'variables' };
  if (input.stored && input.variableName && Object.hasOwn(input.stored, input.variableName)) {
    const fromStored = toPoints(input.stored[input.variableName]);
    if (fromStored !== null) return { points: fromStored, source: 'stored-variable' };
  }
  return { points: null, source: 'unknown' };
}
