import { hasName, named } from './by-name';
import type { AppError } from './errors';
import type { Balance, StoredValues } from './types';

/**
 * What an answer's balance fields say, as the API client reads them: points, none (null), or a
 * number that cannot be points, with the `unexpected` failure naming the endpoint and field. Such
 * a number is neither shown nor passed over for a later field or source: the balance is not read,
 * and the rest of the answer stands (a record the extension cannot mean never refuses its read).
 */
export type BodyBalance = number | null | { impossible: AppError };

/** Whether `found` is a number that cannot be points ({@link BodyBalance}). */
export function isImpossible(found: BodyBalance): found is { impossible: AppError } {
  return typeof found === 'object' && found !== null;
}

/**
 * The balance not read: the read that carries it failed, or held a number that cannot be points.
 * Points null as on a panel that shows none, but never taken for that: no evidence either way.
 */
export const UNREAD_BALANCE: Balance = { points: null, source: 'unread' };

/** Whether `balance` was not read ({@link UNREAD_BALANCE}): unknown stays unknown, never "none" nor 0. */
export function unread(balance: Balance): boolean {
  return balance.source === 'unread';
}

/** Top-level response fields that may carry the balance, in the order they are tried (no endpoint documents it). */
export const BALANCE_FIELDS = ['points', 'balance', 'points_balance', 'reward_points'] as const;

const WHOLE = /^\s*-?\d+\s*$/;
/** What a panel may send as a number: a JSON number, or a string of one ("2500", "-40", "1.5", "1e3"). */
const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

/**
 * A balance in points, or null when `value` is not one. Points are whole numbers of 0 or more:
 * a safe integer, or a string of one ("2500"). Below zero, fractions,
 * NaN, infinities, empty or non-numeric strings, booleans, arrays and objects are not points. (A balance
 * below zero was once shown as owed points; it is among the numbers the interface cannot mean: a
 * precondition "balance at least the cost" and points spent on rewards leave no room for one.)
 * Costs never come through here: the schemas check `reward_point_cost`.
 */
export function toPoints(value: unknown): number | null {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && WHOLE.test(value) ? Number(value.trim()) : NaN;
  // `+ 0` turns -0 (from "-0") into 0, which is what a panelist should read.
  return Number.isSafeInteger(n) && n >= 0 ? n + 0 : null;
}

/** Whether `value` is sent as a number: a JSON number, or a string that reads as one. */
function numeric(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'string' && NUMERIC.test(value));
}

/**
 * The balance carried by a response body's top level: the first of
 * {@link BALANCE_FIELDS} sent as a number decides. Points: its `points`. A number the interface
 * cannot mean as a balance — below zero, a fraction, beyond 2^53 — is
 * `impossible`, naming the field: the balance is then not read (never shown, stored as points or
 * let into the balance history), and no later field stands in for it. A field of another kind (null, "lots", an object)
 * is not a balance and the next is tried; none: `points` null.
 */
export function balanceFromBody(body: unknown): { points: number | null } | { impossible: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { points: null };
  const record = body as Record<string, unknown>;
  for (const field of BALANCE_FIELDS) {
    if (!numeric(record[field])) continue;
    const points = toPoints(record[field]);
    return points === null ? { impossible: field } : { points };
  }
  return { points: null };
}

/**
 * The balance from, in order, the rewards response, the read-variables response, the
 * stored variable named at build time; `unknown` (points null) when none of them holds points.
 * Every input is checked again with {@link toPoints}, so a number that is not points (a
 * fraction, below zero: in a stored variable, which the client does not refuse) is passed over,
 * not shown.
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
  if (input.stored && input.variableName && hasName(input.stored, input.variableName)) {
    const fromStored = toPoints(named(input.stored, input.variableName));
    if (fromStored !== null) return { points: fromStored, source: 'stored-variable' };
  }
  return { points: null, source: 'unknown' };
}
