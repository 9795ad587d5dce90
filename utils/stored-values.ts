import * as v from 'valibot';
import { VALUE_KEYS, VALUE_NAME_KEYS, describeIssues, storedValuesDataSchema, unexpectedResponse } from './api/schemas';
import { byName, entriesOf } from './by-name';
import { t } from './i18n';
import type { StoredValues, VariableDefinition, VariableValue } from './types';
import { heldChoices } from './variable-values';

/**
 * The stored values of the read-variables response, whose shape the interface document
 * does not show. Two shapes of `data` are accepted:
 *
 * - a list of records, each naming its variable (`name`, `variable_name` or `var_name`, tried in
 *   that order) and carrying its value (`value`, else `values`);
 * - an object from variable name to value.
 *
 * Anything else is an `unexpected` failure naming the endpoint, and so is a list with an element
 * that names no variable (a null aside: it holds nothing): its answer may be any question's, so no
 * question could be told "no answer stored", and what is unknown stays unknown. A named record
 * carrying neither `value` nor `values` holds an answer it does not show: that name is unreadable,
 * never "no answer". Values never fail the read: {@link normaliseValue} keeps what fits
 * {@link VariableValue}; what it cannot mean is an answer held, named unreadable too. Every name is
 * kept as data, `__proto__` included (utils/by-name.ts).
 */

export const READ_VALUES_ENDPOINT = '/v1/panel/variables/data';

const DIGITS = /^\s*\d+\s*$/;

/** An option id given as an integer, a string of digits, or an option object `{ id }`. */
function asOptionId(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined;
  if (typeof raw === 'string' && DIGITS.test(raw)) {
    const n = Number(raw.trim());
    return Number.isSafeInteger(n) ? n : undefined;
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const id = (raw as { id?: unknown }).id;
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
  }
  return undefined;
}

/**
 * One stored value as the extension holds it, or undefined to skip it. Without the definition at
 * hand (see {@link coerceValue} for that):
 *
 * - a string stays a string, numeric or not ("0042" is text until a definition says otherwise);
 * - a number stays a number;
 * - a boolean becomes "true" / "false" (edited as text; never dropped silently);
 * - an array whose elements are all option ids (integers, digit strings, `{ id }` objects)
 *   becomes `number[]`, including the empty array (a checkbox with nothing ticked) and a
 *   one-element array (kept as an array: `values: [3]` may be a checkbox; coerceValue unwraps it
 *   for a single-choice or text variable);
 * - a one-element array holding a non-numeric string is unwrapped to that string (`values: ["Ann"]`);
 * - an array of option ids and non-empty strings is kept as it is: some panels store a checkbox
 *   answer by its options' names (`["DOG", "CAT"]`), which the definition reads (coerceValue);
 * - an option object `{ id }` becomes its id;
 * - null, undefined, other objects and other arrays are skipped.
 */
export function normaliseValue(raw: unknown): VariableValue | undefined {
  switch (typeof raw) {
    case 'string':
      return raw;
    case 'number':
      return Number.isFinite(raw) ? raw : undefined;
    case 'boolean':
      return String(raw);
    case 'object': {
      if (raw === null) return undefined;
      if (Array.isArray(raw)) {
        const ids = raw.map(asOptionId);
        if (ids.every((id): id is number => id !== undefined)) return ids;
        if (raw.length === 1 && typeof raw[0] === 'string') return raw[0];
        const items = raw.map(
          (item, i) => ids[i] ?? (typeof item === 'string' && item.trim() !== '' ? item : undefined),
        );
        return items.every((item) => item !== undefined) ? items : undefined;
      }
      return asOptionId(raw);
    }
    default:
      return undefined;
  }
}

/**
 * The variable a list element names (the first of {@link VALUE_NAME_KEYS} holding a non-empty string),
 * null for a null element, which holds nothing. Any other element may hold the answer to a question
 * no one can tell: the whole read is an `unexpected` failure naming the endpoint.
 */
function recordName(record: unknown, at: string, endpoint: string): string | null {
  if (record === null) return null;
  if (typeof record !== 'object' || Array.isArray(record))
    throw unexpectedResponse(endpoint, `${at}: ${t('issueExpected', 'Object')}`);
  const keys = VALUE_NAME_KEYS.filter((key) => Object.hasOwn(record, key));
  for (const key of keys) {
    const name = (record as Record<string, unknown>)[key];
    if (typeof name === 'string' && name !== '') return name;
  }
  const [key = VALUE_NAME_KEYS[0]] = keys;
  throw unexpectedResponse(endpoint, `${at}.${key}: ${t(keys.length > 0 ? 'issueNotDocumented' : 'issueMissing')}`);
}

/** Marks a named record that carries neither `value` nor `values`: an answer held that it does not show. */
const NOT_SHOWN = Symbol('not shown');

/**
 * A named record's value: the first of {@link VALUE_KEYS} it carries that is not null; null (nothing
 * stored) when all it carries are null; {@link NOT_SHOWN} when it carries neither.
 */
function recordValue(record: object): unknown {
  const keys = VALUE_KEYS.filter((key) => Object.hasOwn(record, key));
  if (keys.length === 0) return NOT_SHOWN;
  for (const key of keys) {
    const value = (record as Record<string, unknown>)[key];
    if (value !== null) return value;
  }
  return null;
}

/**
 * The `data` of the read-variables response as {@link StoredValues} (a null-prototype record), with
 * the names of the answers the panel holds in a shape no {@link VariableValue} can mean (an object,
 * a list of objects): the panel holds an answer there, so it is never "no answer" nor an open
 * question. Throws an `unexpected` AppErrorException naming `/v1/panel/variables/data` when `data`
 * is neither accepted shape, or a list holds an element that names no variable. A later record for
 * the same name wins.
 */
export function readStoredValues(
  data: unknown,
  endpoint: string = READ_VALUES_ENDPOINT,
): { values: StoredValues; unreadable: string[] } {
  const parsed = v.safeParse(storedValuesDataSchema, data);
  if (!parsed.success) throw unexpectedResponse(endpoint, `data: ${describeIssues(parsed.issues)}`);
  const entries = new Map<string, VariableValue>();
  const unreadable = new Set<string>();
  const add = (name: string, raw: unknown) => {
    if (name === '') return;
    const value = raw === NOT_SHOWN ? undefined : normaliseValue(raw);
    entries.delete(name);
    unreadable.delete(name);
    if (value !== undefined) entries.set(name, value);
    // Null is nothing stored; anything else left unread (a record showing no value included) is an answer held.
    else if (raw !== null && raw !== undefined) unreadable.add(name);
  };
  if (Array.isArray(parsed.output)) {
    for (const [i, record] of parsed.output.entries()) {
      const name = recordName(record, `data.${i}`, endpoint);
      if (name !== null) add(name, recordValue(record as object));
    }
  } else {
    for (const [name, raw] of entriesOf(parsed.output)) add(name, raw);
  }
  return { values: byName(entries), unreadable: [...unreadable] };
}

/** The stored values alone ({@link readStoredValues}). */
export function toStoredValues(data: unknown, endpoint: string = READ_VALUES_ENDPOINT): StoredValues {
  return readStoredValues(data, endpoint).values;
}

/** Whether the definition is edited as a set of option ids (`checkbox` with options). */
function isMultiChoice(def: VariableDefinition): boolean {
  return def.type === 'checkbox' && def.options.length > 0;
}

/**
 * A normalised value in the format its definition calls for (utils/types.ts, VariableValue), or the value unchanged
 * when it cannot be put in that format (the editor then shows it as it came):
 *
 * - `checkbox` with options → option ids (a lone id or digit string becomes a one-element list), an
 *   option held by its name ("DOG") as its id, and one the panel no longer offers as the panel holds it;
 * - another type with options (single choice) → one option id (a one-element list is unwrapped);
 * - a type without options (`text`, `date`, unknown) → a string (numbers are written out, a
 *   one-element list is unwrapped).
 */
export function coerceValue(value: VariableValue, def: VariableDefinition): VariableValue {
  if (isMultiChoice(def)) return value === '' ? value : heldChoices(def, value);
  if (def.options.length > 0) {
    const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
    const id = asOptionId(single);
    return id === undefined ? value : id;
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return value.length === 1 ? String(value[0]) : value;
}

/** {@link coerceValue} for every value whose definition is known; the others are left as they are. */
export function coerceStoredValues(values: StoredValues, definitions: readonly VariableDefinition[]): StoredValues {
  const definitionOf = new Map(definitions.map((d) => [d.name, d]));
  return byName(
    entriesOf(values).map(([name, value]) => {
      const def = definitionOf.get(name);
      return [name, def ? coerceValue(value, def) : value] as const;
    }),
  );
}
