/**
 * The oracle's rules for the read-variables answer, written once for the property tests that check
 * what the client keeps from a panel's answer (stored-values.test.ts, api-hostile.test.ts): what one
 * stored value may be, and what the answer as a whole must come to. Not the client's own code.
 */

/**
 * One stored profile value: text, a finite number, or a list of option ids and of the names of
 * options a panel stored by name (normaliseValue in utils/stored-values.ts), never a blank name. Not
 * the client's own check: what Save may send is narrower (ids only, `isVariableValue` in
 * utils/api/client.ts).
 */
export function isStoredValue(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) &&
      value.every((item) => Number.isSafeInteger(item) || (typeof item === 'string' && item.trim() !== '')))
  );
}

/**
 * What the panel's answer says of one variable: `nothing` stored (its value null), an answer it
 * holds but does not show (`hidden`: a record naming it carries no value at all), or an `answer`.
 */
export type Said = 'nothing' | 'hidden' | 'answer';

const NAME_KEYS = ['name', 'variable_name', 'var_name'];
const VALUE_KEYS = ['value', 'values'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a read of the read-variables `data` must come to (design §3; §5, "Unknown stays unknown"):
 *
 * - `refused`, an unexpected response naming the endpoint, when `data` is neither a list nor an
 *   object, or is a list with an element that names no variable (the answer it may hold could be any
 *   question's): no object, or an object with no non-empty string under `name`, `variable_name` or
 *   `var_name`, tried in that order. A null element holds nothing and says nothing.
 * - Otherwise what the last word on each name says: `nothing` when its value is null (in a record:
 *   every one of `value`, `values` it carries), `hidden` when its record carries neither, `answer`
 *   otherwise. No question is named '', so an entry named '' says nothing of any.
 */
export function expectedRead(data: unknown): 'refused' | Map<string, Said> {
  const said = new Map<string, Said>();
  const say = (name: string, what: Said) => {
    said.delete(name);
    if (name !== '') said.set(name, what);
  };
  const of = (value: unknown): Said => (value === null || value === undefined ? 'nothing' : 'answer');
  if (isObject(data)) {
    for (const name of Object.keys(data)) say(name, of(data[name]));
    return said;
  }
  if (!Array.isArray(data)) return 'refused';
  for (const element of data as unknown[]) {
    if (element === null) continue;
    if (!isObject(element)) return 'refused';
    const name = NAME_KEYS.map((key) => (Object.hasOwn(element, key) ? element[key] : undefined)).find(
      (candidate) => typeof candidate === 'string' && candidate !== '',
    );
    if (typeof name !== 'string') return 'refused';
    const carried = VALUE_KEYS.filter((key) => Object.hasOwn(element, key)).map((key) => element[key]);
    say(name, carried.length === 0 ? 'hidden' : of(carried.find((value) => value !== null)));
  }
  return said;
}

/**
 * What is wrong with a read the client resolved (`values`, and `unreadable`: names of answers held
 * that it cannot show) against what the panel said ({@link expectedRead}), or null when nothing is:
 * every value one {@link isStoredValue}; no name the panel did not give; a name with nothing stored
 * in neither list; one whose answer is hidden among the unreadable; one with an answer in exactly
 * one of the two — never in neither, which would tell "no answer" where the panel holds one.
 */
export function readMismatch(
  read: { values: Record<string, unknown>; unreadable: readonly string[] },
  said: ReadonlyMap<string, Said>,
): string | null {
  const held = new Set(read.unreadable);
  const names = new Set([...Object.keys(read.values), ...held]);
  for (const name of names) if (!said.has(name)) return `${JSON.stringify(name)} was not in the answer`;
  for (const [name, what] of said) {
    const valued = Object.hasOwn(read.values, name);
    if (valued && !isStoredValue(read.values[name])) return `${JSON.stringify(name)} has no stored value's form`;
    const where = valued && held.has(name) ? 'both' : valued ? 'values' : held.has(name) ? 'unreadable' : 'neither';
    const allowed = what === 'nothing' ? ['neither'] : what === 'hidden' ? ['unreadable'] : ['values', 'unreadable'];
    if (!allowed.includes(where)) return `${JSON.stringify(name)} (${what} in the answer) is in ${where}`;
  }
  return null;
}
