/**
 * `PATCH /__sandbox/state`: replaces any subset of the state's keys. Checks stay shallow on
 * purpose: tests may plant odd records to see how the client copes, but a typo in a key or a
 * wrong container type is a test bug worth a loud 400.
 */
import { isJsonObject } from './http-util';
import { BALANCE_PLACES, IDS_ON_WIRE, VALUES_SHAPES } from './types';
import type { BalanceIn, IdsOnWire, JsonValue, SandboxState, ValuesShape } from './types';

type Check = (value: JsonValue) => boolean;

const isObjectArray: Check = (value) => Array.isArray(value) && value.every(isJsonObject);

const CHECKS: Record<keyof SandboxState, { check: Check; expected: string }> = {
  balance: { check: (value) => typeof value === 'number' && Number.isFinite(value), expected: 'a finite number' },
  rewards: { check: isObjectArray, expected: 'an array of objects' },
  variables: { check: isObjectArray, expected: 'an array of objects' },
  values: { check: isJsonObject, expected: 'an object from variable name to value' },
  redemptions: { check: isObjectArray, expected: 'an array of objects' },
  valuesShape: {
    check: (value) => VALUES_SHAPES.includes(value as ValuesShape),
    expected: `one of ${VALUES_SHAPES.join(', ')}`,
  },
  balanceIn: {
    check: (value) => BALANCE_PLACES.includes(value as BalanceIn),
    expected: `one of ${BALANCE_PLACES.join(', ')}`,
  },
  validators: { check: (value) => typeof value === 'boolean', expected: 'a boolean' },
  idsOnWire: {
    check: (value) => IDS_ON_WIRE.includes(value as IdsOnWire),
    expected: `one of ${IDS_ON_WIRE.join(', ')}`,
  },
  historyLagMs: {
    check: (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 600_000,
    expected: 'a whole number of milliseconds up to 600000',
  },
  movedTo: {
    check: (value) => value === null || isMoveTarget(value),
    expected: 'null, an http(s) base URL, or a path prefix such as /api',
  },
};

function isMoveTarget(value: JsonValue): boolean {
  if (typeof value !== 'string') return false;
  if (/^\/[\w.-]+(\/[\w.-]+)*$/.test(value)) return true;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function isStateKey(key: string): key is keyof SandboxState {
  return Object.hasOwn(CHECKS, key);
}

/** Applies the patch in place when every key is valid; otherwise changes nothing and says why. */
export function patchState(state: SandboxState, patch: JsonValue): string | null {
  if (!isJsonObject(patch)) return 'The patch must be a JSON object';
  for (const [key, value] of Object.entries(patch)) {
    if (!isStateKey(key)) return `Unknown state key: ${key}`;
    const { check, expected } = CHECKS[key];
    if (!check(value)) return `State key ${key} must be ${expected}`;
  }
  // Each value passed its key's check above, so the cast only restates that.
  Object.assign(state, patch as Partial<SandboxState>);
  return null;
}
