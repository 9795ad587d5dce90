import { afterEach, describe, expect, it } from 'vitest';
import { installI18n } from './i18n-setup';
import type { VariableDefinition } from '../../utils/types';
import {
  MAX_TEXT_LENGTH,
  dateValue,
  describeValue,
  diffDraft,
  editKind,
  isValidDate,
  toggleOption,
  validateValue,
  validateValues,
  valuesEqual,
} from '../../utils/variable-values';

function def(partial: Partial<VariableDefinition>): VariableDefinition {
  return { id: 1, name: 'X', text: 'X?', uuid: 'u', type: 'text', writable: true, options: [], ...partial };
}

const opt = (id: number, text: string, exclusive = false) => ({ id, name: text.toUpperCase(), text, exclusive });
const checkbox = def({
  name: 'HOBBIES',
  type: 'checkbox',
  options: [opt(1, 'Music'), opt(2, 'Sport'), opt(9, 'None of these', true)],
});
const radio = def({ name: 'GENDER', type: 'radio', options: [opt(10, 'Woman'), opt(11, 'Man')] });
const date = def({ name: 'BIRTH', type: 'date' });
const text = def({ name: 'JOB', type: 'text' });

describe('editKind', () => {
  it('edits each type as design §4 says', () => {
    expect(editKind(text)).toBe('text');
    expect(editKind(date)).toBe('date');
    expect(editKind(checkbox)).toBe('multi');
    expect(editKind(radio)).toBe('single');
    expect(editKind(def({ type: 'select', options: [opt(1, 'a')] }))).toBe('single');
    expect(editKind(def({ type: 'number' }))).toBe('text');
    expect(editKind(def({ type: 'Checkbox', options: [opt(1, 'a')] }))).toBe('multi');
  });
});

describe('toggleOption (exclusive rule)', () => {
  it('adds and removes ordinary options', () => {
    expect(toggleOption(checkbox, [1], 2, true)).toEqual([1, 2]);
    expect(toggleOption(checkbox, [1, 2], 1, false)).toEqual([2]);
  });
  it('checking an exclusive option clears the others', () => {
    expect(toggleOption(checkbox, [1, 2], 9, true)).toEqual([9]);
  });
  it('checking another option clears the exclusive one', () => {
    expect(toggleOption(checkbox, [9], 1, true)).toEqual([1]);
  });
});

describe('validateValue', () => {
  it('accepts well-formed values', () => {
    expect(validateValue(text, 'Nurse')).toBeNull();
    expect(validateValue(text, 'x'.repeat(MAX_TEXT_LENGTH))).toBeNull();
    expect(validateValue(date, '1990-02-28')).toBeNull();
    expect(validateValue(radio, 11)).toBeNull();
    expect(validateValue(checkbox, [1, 2])).toBeNull();
    expect(validateValue(checkbox, [9])).toBeNull();
  });
  it('refuses text over the limit, both counts in the panelist’s number format, in English and German', () => {
    expect(validateValue(text, 'x'.repeat(1234))).toBe('Keep this answer to 1,000 characters or fewer (it has 1,234).');
    installI18n('de');
    expect(validateValue(text, 'x'.repeat(1234))).toMatch(/1\.000 Zeichen.*1\.234/);
    installI18n('en');
  });
  it('refuses dates that are not real calendar dates', () => {
    for (const bad of ['1990-02-30', '1990-13-01', '01/02/1990', '1990-2-3', 'tomorrow']) {
      expect(validateValue(date, bad), bad).toMatch(/real date/);
    }
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
  });
  it('refuses real dates outside the years a profile date can take', () => {
    // In plain words, naming only the side that was crossed ("between 1900 and 2100" read oddly for a birth date).
    expect(validateValue(date, '0199-05-06')).toBe('Check the year: dates before 1900 are not accepted.');
    expect(validateValue(date, '2190-05-06')).toBe('Check the year: dates after 2100 are not accepted.');
    expect(validateValue(date, '1900-01-01')).toBeNull();
    expect(validateValue(date, '2100-12-31')).toBeNull();
  });
  it('refuses options that are not offered, and an exclusive option combined with others', () => {
    expect(validateValue(radio, 99)).toMatch(/options offered/);
    expect(validateValue(radio, '10')).toMatch(/options offered/);
    // One held that the panel no longer offers is named, so the panelist knows which to untick.
    expect(validateValue(checkbox, [1, 99])).toBe('A choice no longer offered is still ticked: untick it, then save.');
    // One the panel holds by its own word is named by it.
    expect(validateValue(checkbox, [1, 'KNITTING'])).toBe('“KNITTING” is no longer offered: untick it, then save.');
    // Several, listed as the page's language lists them.
    installI18n('ja');
    expect(validateValue(checkbox, [1, 'KNITTING', 'SEWING'])).toBe(
      '「KNITTING、SEWING」は現在は選択肢にありません。チェックを外してから保存してください。',
    );
    installI18n('en');
    expect(validateValue(checkbox, [1, 9])).toMatch(/None of these/);
    expect(validateValue(checkbox, [1, 1])).toMatch(/once/);
  });
  it('refuses empty answers, pointing at Remove answer', () => {
    expect(validateValue(text, '  ')).toMatch(/Remove answer/);
    expect(validateValue(checkbox, [])).toMatch(/Remove answer/);
  });
});

describe('validateValues', () => {
  it('names every problem, including unknown and read-only variables', () => {
    const ro = def({ name: 'PANEL_ID', writable: false });
    expect(validateValues([text, date, ro], { JOB: 'ok', BIRTH: 'bad', PANEL_ID: 'x', NOPE: 'x' })).toEqual({
      BIRTH: expect.stringMatching(/real date/),
      PANEL_ID: expect.stringMatching(/Set by your panel/),
      NOPE: expect.stringMatching(/does not ask/),
    });
  });
});

describe('diffDraft', () => {
  it('keeps only drafted values that differ from the stored ones', () => {
    const stored = { JOB: 'Nurse', HOBBIES: [2, 1], GENDER: 10 };
    expect(diffDraft({ JOB: 'Nurse', HOBBIES: [1, 2], GENDER: 11, BIRTH: '1990-01-01' }, stored)).toEqual({
      GENDER: 11,
      BIRTH: '1990-01-01',
    });
    expect(diffDraft({ BIRTH: '' }, stored)).toEqual({});
    expect(diffDraft({ JOB: '' }, stored)).toEqual({ JOB: '' });
  });
  it('treats an id stored as a numeric string as the same answer', () => {
    expect(valuesEqual(10, '10')).toBe(true);
    expect(valuesEqual([1, 2], ['2', '1'])).toBe(true);
  });
});

describe('dateValue', () => {
  it('reads a date stored with a time as the day it names; anything else as it is', () => {
    expect(dateValue('1988-04-17T00:00:00.000000Z')).toBe('1988-04-17');
    expect(dateValue('1988-04-17 00:00:00')).toBe('1988-04-17');
    expect(dateValue('1988-04-17T00:00:00+02:00')).toBe('1988-04-17');
    expect(dateValue('1988-04-17')).toBe('1988-04-17');
    expect(dateValue('17/04/1988')).toBe('17/04/1988');
    expect(dateValue('1988-04-17 and more')).toBe('1988-04-17 and more');
    expect(valuesEqual('1988-04-17T00:00:00.000000Z', '1988-04-17')).toBe(true);
    expect(valuesEqual('1988-04-17T00:00:00.000000Z', '1988-04-18')).toBe(false);
  });
});

describe("describeValue in the panelist's language", () => {
  afterEach(() => installI18n('en'));

  it('a date answer as the panelist writes a date, the stored day whatever the time zone', () => {
    expect(describeValue(date, '1988-04-17T00:00:00.000000Z')).toBe('Apr 17, 1988');
    expect(describeValue(date, '1988-01-01')).toBe('Jan 1, 1988');
    installI18n('de');
    expect(describeValue(date, '1988-04-17')).toBe('17.04.1988');
    // Not a day the extension can read: shown as the panel stored it, never as a guessed date.
    expect(describeValue(date, '17/04/1988')).toBe('17/04/1988');
  });

  it('choices listed as the language lists them', () => {
    installI18n('ja');
    expect(describeValue(checkbox, [2, 1])).toBe('Sport、Music');
  });
});

describe('describeValue', () => {
  it('shows option text rather than ids', () => {
    expect(describeValue(checkbox, [2, 1])).toBe('Sport, Music');
    expect(describeValue(radio, 11)).toBe('Man');
    expect(describeValue(radio, 77)).toBe('A choice no longer offered');
    expect(describeValue(text, 'Nurse')).toBe('Nurse');
    expect(describeValue(text, undefined)).toBe('');
  });

  it('in words where the panel stored an option by its name, or a country by its code', () => {
    expect(describeValue(radio, 'MAN')).toBe('Man');
    expect(describeValue(radio, '10')).toBe('Woman');
    // A panel that stores checkbox answers by name (not the documented shape) still reads in words.
    expect(describeValue(checkbox, ['SPORT', 1] as never)).toBe('Sport, Music');
    const country = def({ name: 'PANELIST_COUNTRY', type: 'text' });
    expect(describeValue(country, 'US')).toBe('United States');
    expect(describeValue(country, 'Atlantis')).toBe('Atlantis');
    // Only a question about a country: "US" elsewhere is an answer as it is.
    expect(describeValue(text, 'US')).toBe('US');
    installI18n('de');
    expect(describeValue(country, 'de')).toBe('Deutschland');
  });
});
