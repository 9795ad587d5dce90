/**
 * Completeness counted once, from the definitions and the stored values as the background
 * keeps them: the read-variables `data` in every shape design §3 accepts, normalised (toStoredValues)
 * and put in each definition's format (coerceStoredValues), as sync.ts stores them.
 */
import { describe, expect, it } from 'vitest';
import { completeness, isAnswered } from '../../utils/profile-completeness';
import { answerHash, answerTarget } from '../../utils/profile-link';
import { coerceStoredValues, toStoredValues } from '../../utils/stored-values';
import type { VariableDefinition } from '../../utils/types';
import { option, question } from './options-fixtures';

const DEFINITIONS: VariableDefinition[] = [
  question(1, 'FIRST_NAME', 'What is your first name?', 'text', true),
  question(2, 'BIRTH_DATE', 'What is your date of birth?', 'date', true),
  question(3, 'HOBBIES', 'Which hobbies do you enjoy?', 'checkbox', true, [
    option(31, 'Reading'),
    option(32, 'Cooking'),
    option(35, 'None of these', true),
  ]),
  question(4, 'EMPLOYMENT', 'Employment status', 'radio', true, [option(41, 'Full-time'), option(42, 'Student')]),
  question(5, 'POSTAL_CODE', 'POSTAL_CODE', 'zipcode', true),
  question(6, 'COUNTRY', 'Country of residence', 'text', false),
  question(7, 'SOURCE', 'How did you join?', 'radio', false, [option(71, 'Website')]),
];

/** What the background stores for a read-variables `data`, whatever its shape. */
const stored = (data: unknown) => coerceStoredValues(toStoredValues(data), DEFINITIONS);
const count = (data: unknown) => completeness(DEFINITIONS, stored(data));

describe('completeness', () => {
  it('counts writable questions only: read-only answers neither count nor add to the total', () => {
    expect(count({ COUNTRY: 'US', SOURCE: 71 })).toEqual({
      answered: 0,
      total: 5,
      open: ['FIRST_NAME', 'BIRTH_DATE', 'HOBBIES', 'EMPLOYMENT', 'POSTAL_CODE'],
    });
    expect(count({ FIRST_NAME: 'Ann', COUNTRY: 'US' })).toMatchObject({ answered: 1, total: 5 });
  });

  // Each record form of design §3: the name under `name`, `variable_name` or `var_name`; the value under `value` or `values`.
  it.each([
    [
      'records with name and value',
      [
        { name: 'FIRST_NAME', value: 'Ann' },
        { name: 'HOBBIES', value: [31, 32] },
        { name: 'EMPLOYMENT', value: 42 },
      ],
    ],
    [
      'records with variable_name and values',
      [
        { variable_name: 'FIRST_NAME', values: ['Ann'] },
        { variable_name: 'HOBBIES', values: ['31', '32'] },
        { variable_name: 'EMPLOYMENT', values: [42] },
      ],
    ],
    [
      'records with var_name and option objects',
      [
        { var_name: 'FIRST_NAME', value: 'Ann' },
        { var_name: 'HOBBIES', values: [{ id: 31 }, { id: 32 }] },
        { var_name: 'EMPLOYMENT', value: { id: 42 } },
      ],
    ],
    ['an object from name to value', { FIRST_NAME: 'Ann', HOBBIES: [31, 32], EMPLOYMENT: '42' }],
  ])('reads %s', (_shape, data) => {
    expect(count(data)).toEqual({ answered: 3, total: 5, open: ['BIRTH_DATE', 'POSTAL_CODE'] });
  });

  it.each([
    ['an empty checkbox list', { HOBBIES: [] }, false],
    ['empty text', { FIRST_NAME: '' }, false],
    ['text of blanks only', { FIRST_NAME: '   ' }, false],
    ['null', { FIRST_NAME: null }, false],
    ['a record without a usable value', [{ name: 'FIRST_NAME', value: null, values: null }], false],
    ['an empty single choice', { EMPLOYMENT: '' }, false],
    ['a one-element text list', { FIRST_NAME: ['Ann'] }, true],
    ['a number for text (a postal code)', { POSTAL_CODE: 10115 }, true],
    ['a boolean for text', { FIRST_NAME: false }, true],
    ['a lone option id for a checkbox', { HOBBIES: 35 }, true],
    ['a digit string for a single choice', { EMPLOYMENT: ' 41 ' }, true],
    ['a choice no longer offered (the panel holds it)', { EMPLOYMENT: 99 }, true],
    ['a date', { BIRTH_DATE: '1988-04-17' }, true],
  ])('%s', (_value, data, answered) => {
    expect(count(data).answered).toBe(answered ? 1 : 0);
  });

  it('counts a question listed twice once, and a value for a question the panel does not list not at all', () => {
    const twice = [...DEFINITIONS, question(9, 'FIRST_NAME', 'First name again', 'text', true)];
    expect(completeness(twice, { FIRST_NAME: 'Ann', NICKNAME: 'A' })).toMatchObject({ answered: 1, total: 5 });
    // A name like one of Object.prototype's is a name, not an answer.
    const odd = [question(10, 'constructor', 'Constructor', 'text', true)];
    expect(completeness(odd, {})).toEqual({ answered: 0, total: 1, open: ['constructor'] });
  });

  it('is empty without writable questions', () => {
    expect(completeness([], {})).toEqual({ answered: 0, total: 0, open: [] });
    expect(
      completeness(
        DEFINITIONS.filter((d) => !d.writable),
        { COUNTRY: 'US' },
      ),
    ).toEqual({ answered: 0, total: 0, open: [] });
  });

  it('isAnswered follows the same rule for a value alone', () => {
    expect([undefined, '', ' ', []].map(isAnswered)).toEqual([false, false, false, false]);
    expect(['x', 0, [1]].map(isAnswered)).toEqual([true, true, true]);
  });
});

describe('the link to answering', () => {
  it('names the question in the hash and reads it back, whatever the name holds', () => {
    for (const name of ['POSTAL_CODE', 'Q 1/2#?', 'ÄÖÜ']) expect(answerTarget(answerHash(name))).toBe(name);
    expect(answerHash(null)).toBe('#answer');
    expect(answerTarget('#answer')).toBeNull();
    expect(answerTarget('#answer-%E0')).toBeNull();
    expect(answerTarget('#history')).toBeUndefined();
    expect(answerTarget('')).toBeUndefined();
  });
});
