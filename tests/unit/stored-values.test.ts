// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppErrorException } from '../../utils/errors';
import {
  coerceStoredValues,
  coerceValue,
  normaliseValue,
  readStoredValues,
  toStoredValues,
} from '../../utils/stored-values';
import type { VariableDefinition } from '../../utils/types';
import { expectedRead, readMismatch } from './stored-value-rule';

function failureOf(fn: () => unknown): AppErrorException {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppErrorException) return error;
    throw error;
  }
  throw new Error('expected an AppErrorException');
}

const def = (name: string, type: string, optionIds: number[] = []): VariableDefinition => ({
  id: 1,
  name,
  text: name,
  uuid: '',
  type,
  writable: true,
  options: optionIds.map((id) => ({ id, name: `o${id}`, text: `Option ${id}`, exclusive: false })),
});

describe('toStoredValues: records shape', () => {
  it('reads name/value records', () => {
    expect(
      toStoredValues([
        { name: 'FIRST_NAME', value: 'Jordan' },
        { name: 'HOBBIES', value: [131, 133] },
        { name: 'EMPLOYMENT', value: 141 },
      ]),
    ).toEqual({ FIRST_NAME: 'Jordan', HOBBIES: [131, 133], EMPLOYMENT: 141 });
  });

  it('accepts variable_name / var_name and values, ignoring other fields', () => {
    expect(
      toStoredValues([
        { variable_name: 'A', value: 'x', id: 7, updated_at: '2024-01-01' },
        { var_name: 'B', values: [1, 2] },
        { name: 'C', variable_name: 'IGNORED', values: ['Ann'] },
      ]),
    ).toEqual({ A: 'x', B: [1, 2], C: 'Ann' });
  });

  it('prefers value over values, and skips records whose value is null', () => {
    expect(
      toStoredValues([
        { name: 'A', value: 'v', values: ['w'] },
        { name: 'B', value: null },
      ]),
    ).toEqual({ A: 'v' });
  });

  it('lets a later record for the same name win', () => {
    expect(
      toStoredValues([
        { name: 'A', value: '1' },
        { name: 'A', value: '2' },
      ]),
    ).toEqual({ A: '2' });
  });

  it('accepts an empty list', () => {
    expect(toStoredValues([])).toEqual({});
  });

  it('refuses the whole answer when a record names no variable: its answer could be any question’s', () => {
    const good = { name: 'B', value: 'kept' };
    for (const [bad, at] of [
      [{ variable_id: 12, value: '34' }, 'data.1.name: missing'],
      [{ value: 'x' }, 'data.1.name: missing'],
      [{}, 'data.1.name: missing'],
      [{ name: '', value: 'x' }, 'data.1.name: not the documented shape'],
      [{ var_name: 5, value: 'x' }, 'data.1.var_name: not the documented shape'],
      ['AGE=34', 'data.1: expected Object'],
      [[1], 'data.1: expected Object'],
    ] as const) {
      const failure = failureOf(() => readStoredValues([good, bad, good]));
      expect(failure.error, JSON.stringify(bad)).toMatchObject({
        kind: 'unexpected',
        endpoint: '/v1/panel/variables/data',
      });
      expect(failure.error.message).toContain(`Unexpected response from /v1/panel/variables/data: ${at}.`);
    }
  });

  it('passes over a null in the list: it holds nothing', () => {
    expect({ ...toStoredValues([null, { name: 'B', value: 'kept' }]) }).toEqual({ B: 'kept' });
  });

  it('names a record that carries neither value nor values unreadable: an answer held, not "none"', () => {
    const read = readStoredValues([
      { name: 'AGE', answer: '34' },
      { variable_name: 'CITY' },
      { name: 'FIRST_NAME', value: 'Jordan' },
      { name: 'NICKNAME', value: null },
    ]);
    expect(read.values).toEqual({ FIRST_NAME: 'Jordan' });
    expect(read.unreadable).toEqual(['AGE', 'CITY']);
  });
});

describe('toStoredValues: map shape', () => {
  it('reads an object from name to value', () => {
    expect(toStoredValues({ FIRST_NAME: 'Jordan', HOBBIES: [131, 133], EMPLOYMENT: 141, POSTAL: '02134' })).toEqual({
      FIRST_NAME: 'Jordan',
      HOBBIES: [131, 133],
      EMPLOYMENT: 141,
      POSTAL: '02134',
    });
  });

  it('skips values it cannot hold instead of failing', () => {
    expect(toStoredValues({ A: null, B: { nested: true }, C: [1, { x: 1 }, 2], D: true, E: 'ok', F: [1, ''] })).toEqual(
      {
        D: 'true',
        E: 'ok',
      },
    );
  });

  it('keeps a variable named __proto__ as data, never as the prototype, in both shapes', () => {
    const fromMap = toStoredValues(JSON.parse('{"__proto__": "x", "constructor": [1], "A": "y"}'));
    expect(Object.getPrototypeOf(fromMap)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(fromMap, '__proto__')?.value).toBe('x');
    expect(Object.keys(fromMap)).toEqual(['__proto__', 'constructor', 'A']);
    // An object is not a value: skipped, and nothing reaches Object.prototype.
    expect(Object.keys(toStoredValues(JSON.parse('{"__proto__": {"polluted": 1}, "A": "y"}')))).toEqual(['A']);
    const fromRecords = toStoredValues([
      { name: '__proto__', value: [1] },
      { name: 'A', value: 'y' },
    ]);
    expect(Object.getPrototypeOf(fromRecords)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(fromRecords, '__proto__')?.value).toEqual([1]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('readStoredValues: answers held in a shape no value can mean', () => {
  it('names them apart from the values; nothing stored (null) is not among them', () => {
    const read = readStoredValues([
      { name: 'HOUSEHOLD', value: { option_id: 3 } },
      { name: 'PETS', value: [{ kind: 'dog' }] },
      { name: 'FIRST_NAME', value: 'Jordan' },
      { name: 'NICKNAME', value: null },
      { name: 'TOWN', value: null, values: null },
    ]);
    expect(read.values).toEqual({ FIRST_NAME: 'Jordan' });
    expect(read.unreadable).toEqual(['HOUSEHOLD', 'PETS']);
    expect(readStoredValues({ HOUSEHOLD: { option_id: 3 }, AGE: 41, NOTE: null }).unreadable).toEqual(['HOUSEHOLD']);
  });

  it('a later record for the same name wins, held or read', () => {
    expect(
      readStoredValues([
        { name: 'A', value: { x: 1 } },
        { name: 'A', value: 'read' },
        { name: 'B', value: 'read' },
        { name: 'B', value: { x: 1 } },
      ]),
    ).toEqual({ values: { A: 'read' }, unreadable: ['B'] });
  });
});

describe('toStoredValues: anything else', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'FIRST_NAME=Jordan'],
    ['a number', 3],
  ])('refuses %s as unexpected', (_label, data) => {
    const failure = failureOf(() => toStoredValues(data));
    expect(failure.error.kind).toBe('unexpected');
    expect(failure.error.message).toMatch(/^Unexpected response from \/v1\/panel\/variables\/data/);
  });

  /** The answer as the oracle rule says it must be read (./stored-value-rule.ts), or why it is not. */
  function judged(data: unknown): string | null {
    const said = expectedRead(data);
    try {
      const read = readStoredValues(data);
      return said === 'refused' ? 'resolved where it must be refused' : readMismatch(read, said);
    } catch (error) {
      if (!(error instanceof AppErrorException)) throw error;
      if (error.error.kind !== 'unexpected' || error.error.endpoint !== '/v1/panel/variables/data')
        return `refused as ${error.error.kind} naming ${error.error.endpoint}`;
      return said === 'refused' ? null : `refused: ${error.error.message}`;
    }
  }

  /** Records naming their variable in each accepted form, with or without a value, and other fields beside. */
  const value = fc.oneof(fc.constant(null), fc.jsonValue());
  const namedRecord = fc
    .tuple(
      fc.constantFrom('name', 'variable_name', 'var_name'),
      fc.constantFrom('A', 'B', '__proto__'),
      fc.subarray(['value', 'values']),
      fc.tuple(value, value),
      fc.record(
        { name: fc.jsonValue(), variable_name: fc.jsonValue(), variable_id: fc.integer(), answer: fc.jsonValue() },
        { requiredKeys: [] },
      ),
    )
    .map(([key, name, shown, [first, second], rest]) => {
      const record: Record<string, unknown> = { ...rest, [key]: name };
      for (const [i, valueKey] of shown.entries()) record[valueKey] = i === 0 ? first : second;
      return record;
    });
  /** Lists of such records, now and then with an element that names no variable. */
  const recordLists = fc.array(
    fc.oneof({ weight: 8, arbitrary: namedRecord }, { weight: 1, arbitrary: fc.jsonValue() }),
    {
      maxLength: 5,
    },
  );

  it('never crashes: it reads what the oracle rule says, or refuses as unexpected naming the endpoint', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), recordLists), (data) => judged(data) === null),
      // The same cases every run, so a failure in CI is the one a developer replays.
      { seed: 20_261_130, numRuns: 200 },
    );
  });
});

describe('normaliseValue', () => {
  it('keeps numeric strings as strings', () => {
    expect(normaliseValue('02134')).toBe('02134');
    expect(normaliseValue('141')).toBe('141');
  });

  it('turns lists of option ids into number[], keeping one-element lists as lists', () => {
    expect(normaliseValue([131, '133'])).toEqual([131, 133]);
    expect(normaliseValue([{ id: 131, name: 'x' }])).toEqual([131]);
    expect(normaliseValue([141])).toEqual([141]);
    expect(normaliseValue([])).toEqual([]);
  });

  it('unwraps a one-element list of text and an option object', () => {
    expect(normaliseValue(['1988-04-17'])).toBe('1988-04-17');
    expect(normaliseValue({ id: 141, text: 'Employed' })).toBe(141);
  });

  it('keeps a list of option names, as some panels store a checkbox answer: the definition reads them', () => {
    expect(normaliseValue(['DOG', 'CAT'])).toEqual(['DOG', 'CAT']);
    expect(normaliseValue(['DOG', 131])).toEqual(['DOG', 131]);
    expect(normaliseValue(['DOG', ''])).toBeUndefined();
    expect(normaliseValue(['DOG', null])).toBeUndefined();
  });

  it('stringifies booleans and skips what it cannot hold', () => {
    expect(normaliseValue(false)).toBe('false');
    expect(normaliseValue(null)).toBeUndefined();
    expect(normaliseValue({ a: 1 })).toBeUndefined();
    expect(normaliseValue([1.5])).toBeUndefined();
  });
});

describe('coerceValue / coerceStoredValues (design §4)', () => {
  const text = def('POSTAL_CODE', 'text');
  const date = def('BIRTH_DATE', 'date');
  const radio = def('EMPLOYMENT', 'radio', [141, 142]);
  const checkbox = def('HOBBIES', 'checkbox', [131, 133]);

  it('gives text and dates as strings', () => {
    expect(coerceValue('02134', text)).toBe('02134');
    expect(coerceValue(2134, text)).toBe('2134');
    expect(coerceValue([2134], text)).toBe('2134');
    expect(coerceValue('1988-04-17', date)).toBe('1988-04-17');
  });

  it('gives a single choice as one option id', () => {
    expect(coerceValue([141], radio)).toBe(141);
    expect(coerceValue('141', radio)).toBe(141);
    expect(coerceValue(141, radio)).toBe(141);
    expect(coerceValue('Employed', radio)).toBe('Employed');
  });

  it('gives a checkbox as a list of ids', () => {
    expect(coerceValue(131, checkbox)).toEqual([131]);
    expect(coerceValue('133', checkbox)).toEqual([133]);
    expect(coerceValue([131, 133], checkbox)).toEqual([131, 133]);
  });

  it('gives a checkbox held by its options’ names as their ids; a name no longer offered stays, as the panel holds it', () => {
    expect(coerceValue('o131', checkbox)).toEqual([131]);
    expect(coerceValue(['O131', 'o133'], checkbox)).toEqual([131, 133]);
    expect(coerceValue(['o131', 'HAMSTER', 139], checkbox)).toEqual([131, 'HAMSTER', 139]);
    // Read from the panel's answer as it comes.
    expect(coerceStoredValues(toStoredValues({ HOBBIES: ['o131', 'o133'] }), [checkbox])).toEqual({
      HOBBIES: [131, 133],
    });
  });

  it('treats a checkbox without options as text', () => {
    expect(coerceValue(5, def('FLAG', 'checkbox'))).toBe('5');
  });

  it('coerces a whole set, leaving unknown variables alone', () => {
    expect(
      coerceStoredValues({ POSTAL_CODE: [2134], EMPLOYMENT: [141], HOBBIES: 131, OTHER: [1] }, [text, radio, checkbox]),
    ).toEqual({ POSTAL_CODE: '2134', EMPLOYMENT: 141, HOBBIES: [131], OTHER: [1] });
  });
});
