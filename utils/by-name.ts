import * as v from 'valibot';

/**
 * Records indexed by a name the panel chose: variable names (stored answers, the draft, the texts a
 * refusal gives each field), which are data, never object keys that reach the prototype. A plain
 * object answers `values.constructor` with `Object`, `'toString' in values` with true, and takes
 * `values.__proto__ = […]` as a new prototype; a panel may name a question any of these.
 *
 * So every such record is made here with a null prototype ({@link byName}, {@link namedRecord} at
 * the message door), and read with {@link named} and {@link hasName}, which see own properties only,
 * whatever object they are given (a record read back from storage or a message is a plain object
 * again). Spreading one (`{ ...values }`) makes a plain object: copy with {@link byName} instead.
 */

export type ByName<T> = Record<string, T>;

/** A null-prototype record of `entries` (a later entry of the same name wins). */
export function byName<T>(entries: Iterable<readonly [string, T]> = []): ByName<T> {
  const out = Object.create(null) as ByName<T>;
  // With no prototype there is no `__proto__` setter: every name is an own property.
  for (const [name, value] of entries) out[name] = value;
  return out;
}

/** The own entries of a record (never inherited ones), whatever its prototype. */
export function entriesOf<T>(record: Readonly<ByName<T>> | null | undefined): Array<[string, T]> {
  return record ? Object.keys(record).map((name): [string, T] => [name, record[name] as T]) : [];
}

/** The value named `name`, when the record has one of its own. */
export function named<T>(record: Readonly<ByName<T>> | null | undefined, name: string): T | undefined {
  return record && Object.hasOwn(record, name) ? record[name] : undefined;
}

/** Whether the record has its own entry named `name` (`'constructor' in {}` is true; this is not). */
export function hasName(record: Readonly<ByName<unknown>> | null | undefined, name: string): boolean {
  return Boolean(record) && Object.hasOwn(record!, name);
}

/** A copy of `record` with `name` set to `value`. */
export function withName<T>(record: Readonly<ByName<T>> | null | undefined, name: string, value: T): ByName<T> {
  return byName([...entriesOf(record), [name, value]]);
}

/** A copy of `record` without the entries named in `names`. */
export function without<T>(record: Readonly<ByName<T>> | null | undefined, names: Iterable<string>): ByName<T> {
  const gone = new Set(names);
  return byName(entriesOf(record).filter(([name]) => !gone.has(name)));
}

/**
 * A valibot schema for an object from name to value, as the message door and the answer's readers
 * check one: every own key is kept, `__proto__`, `constructor` and `prototype` included (valibot's
 * own `record` drops those three silently), each checked by `key` and `value`, into a null-prototype
 * record. An entry of the wrong shape fails the whole with its path (`values.HOBBIES.0`).
 */
export function namedRecord<K extends v.GenericSchema<string, string>, T extends v.GenericSchema>(key: K, value: T) {
  return v.pipe(
    v.custom<Record<string, unknown>>(
      (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
      'an object',
    ),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const input = dataset.value;
      const out = byName<v.InferOutput<T>>();
      for (const name of Object.keys(input)) {
        const step = { type: 'object', origin: 'value', input, key: name, value: input[name] } as const;
        const checkedKey = v.safeParse(key, name);
        if (!checkedKey.success) {
          const issue = checkedKey.issues[0];
          addIssue({
            message: issue.message,
            expected: issue.expected ?? undefined,
            path: [{ ...step, origin: 'key' }],
          });
          return NEVER;
        }
        const checked = v.safeParse(value, input[name]);
        if (!checked.success) {
          const issue = checked.issues[0];
          addIssue({
            message: issue.message,
            expected: issue.expected ?? undefined,
            path: [step, ...(issue.path ?? [])],
          });
          return NEVER;
        }
        out[name] = checked.output;
      }
      return out;
    }),
  );
}
