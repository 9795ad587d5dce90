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
import { isStoredValue } from './stored-value-rule';

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

  it('passes over a record without a name or without a value by itself, and reads the others', () => {
    const good = { name: 'B', value: 'kept' };
    for (const bad of [
      { value: 'x' },
      { name: 'A' },
      { name: '', value: 'x' },
      { name: 5, value: 'x' },
      'A',
      null,
      [1],
    ])
      expect({ ...toStoredValues([bad, good]) }, JSON.stringify(bad)).toEqual({ B: 'kept' });
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
  it('names them apart from the values; nothing stored (null, no value) is not among them', () => {
    const read = readStoredValues([
      { name: 'HOUSEHOLD', value: { option_id: 3 } },
      { name: 'PETS', value: [{ kind: 'dog' }] },
      { name: 'FIRST_NAME', value: 'Jordan' },
      { name: 'NICKNAME', value: null },
      { name: 'CITY' },
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

  it('never crashes on arbitrary JSON: it returns values or throws an unexpected AppErrorException', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (data) => {
        try {
          const values = toStoredValues(data);
          return Object.values(values).every(isStoredValue);
        } catch (error) {
          return error instanceof AppErrorException && error.error.kind === 'unexpected';
        }
      }),
      // The same cases every run, so a failure in CI is the one a developer replays.
      { seed: 20_261_130 },
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
