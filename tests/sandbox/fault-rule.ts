/** Checking a fault rule posted to `/__sandbox/faults` before it is stored. */
import { isJsonObject } from './http-util';
import type { FaultRule, JsonValue } from './types';

export type FaultParse = { rule: FaultRule } | { error: string };

const isString = (value: JsonValue): boolean => typeof value === 'string';
const isWhole = (min: number, max: number) => (value: JsonValue) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

const FIELD_CHECKS: Record<keyof FaultRule, { check: (value: JsonValue) => boolean; expected: string }> = {
  method: { check: isString, expected: 'a string' },
  path: { check: (value) => typeof value === 'string' && value.startsWith('/'), expected: 'a path starting with /' },
  status: { check: isWhole(100, 599), expected: 'an HTTP status code' },
  headers: {
    check: (value) => isJsonObject(value) && Object.values(value).every(isString),
    expected: 'an object of header names to strings',
  },
  body: { check: isString, expected: 'a string (sent as is)' },
  delayMs: { check: isWhole(0, 120_000), expected: 'a whole number of milliseconds up to 120000' },
  held: { check: (value) => typeof value === 'boolean', expected: 'a boolean' },
  times: { check: isWhole(1, 1_000_000), expected: 'a positive whole number' },
  drop: { check: (value) => typeof value === 'boolean', expected: 'a boolean' },
  commit: { check: (value) => typeof value === 'boolean', expected: 'a boolean' },
  holdMs: { check: isWhole(0, 120_000), expected: 'a whole number of milliseconds up to 120000' },
  answerHeld: { check: (value) => typeof value === 'boolean', expected: 'a boolean' },
  repeat: {
    check: (value) => typeof value === 'boolean' || value === 'overlapping',
    expected: "a boolean or 'overlapping'",
  },
  copyStatus: { check: isWhole(100, 599), expected: 'an HTTP status code' },
};

function isRuleKey(key: string): key is keyof FaultRule {
  return Object.hasOwn(FIELD_CHECKS, key);
}

export function parseFaultRule(value: JsonValue): FaultParse {
  if (!isJsonObject(value)) return { error: 'A fault rule must be a JSON object' };
  for (const [key, field] of Object.entries(value)) {
    if (!isRuleKey(key)) return { error: `Unknown fault rule key: ${key}` };
    const { check, expected } = FIELD_CHECKS[key];
    if (!check(field)) return { error: `Fault rule key ${key} must be ${expected}` };
  }
  // Committing and then answering normally would make the change twice.
  if (value.commit === true && value.status === undefined && value.body === undefined && value.drop !== true) {
    return { error: 'Fault rule key commit needs status, body or drop: the answer that replaces the real one' };
  }
  // Every key was checked against FaultRule's field types just above.
  return { rule: value };
}
