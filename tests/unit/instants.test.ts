// @vitest-environment node
/**
 * A redemption's `created_at` is parsed once into an instant (utils/instants.ts): every accepted
 * spelling of one moment gives the same canonical text, a spelling of no real moment gives none.
 */
import { describe, expect, it } from 'vitest';
import { instantOf } from '../../utils/instants';

describe('instants', () => {
  it('every spelling of one moment is the same instant: UTC, to the second', () => {
    const spellings = [
      '2024-09-14T08:12:45',
      '2024-09-14 08:12:45',
      '2024-09-14t08:12:45',
      '2024-09-14T08:12:45Z',
      '2024-09-14T08:12:45z',
      '2024-09-14T08:12:45.000000Z',
      '2024-09-14T08:12:45,5',
      '2024-09-14T08:12:45.999',
      '  2024-09-14T08:12:45  ',
      '2024-09-14T10:12:45+02:00',
      '2024-09-14T10:12:45+0200',
      '2024-09-14T10:12:45+02',
      '2024-09-14T03:42:45-04:30',
      '2024-09-14T08:12:45+00:00',
      '2024-09-14T08:12:45-00:00',
    ];
    for (const spelling of spellings) expect(instantOf(spelling), spelling).toBe('2024-09-14T08:12:45Z');
    expect(instantOf('2024-09-14T08:12')).toBe('2024-09-14T08:12:00Z');
    expect(instantOf('2024-09-14 08:12+01:00')).toBe('2024-09-14T07:12:00Z');
  });

  it('offsets up to 18 hours and minutes up to 59 are taken', () => {
    expect(instantOf('2024-09-15T02:12:45+18:00')).toBe('2024-09-14T08:12:45Z');
    expect(instantOf('2024-09-14T09:11:45+00:59')).toBe('2024-09-14T08:12:45Z');
  });

  it('an offset across midnight, a month and a year moves the date too', () => {
    expect(instantOf('2024-01-01T00:30:00+01:00')).toBe('2023-12-31T23:30:00Z');
    expect(instantOf('2024-02-29T23:00:00-02:00')).toBe('2024-03-01T01:00:00Z');
  });

  it('different seconds are different instants', () => {
    expect(instantOf('2024-09-14T08:12:46')).not.toBe(instantOf('2024-09-14T08:12:45'));
    expect(instantOf('2024-09-14T08:13:45')).not.toBe(instantOf('2024-09-14T08:12:45'));
  });

  it.each([
    ['no moment: 31 April', '2024-04-31T10:00:00'],
    ['no moment: 29 February of a common year', '2023-02-29T10:00:00'],
    ['no moment: hour 24', '2024-09-14T24:00:00'],
    ['no moment: minute 60', '2024-09-14T08:60:00'],
    ['no moment: second 60', '2024-09-14T08:12:60'],
    ['no moment: month 13', '2024-13-01T08:12:45'],
    ['no moment: day 0', '2024-09-00T08:12:45'],
    ['an offset beyond 18 hours', '2024-09-14T08:12:45+19:00'],
    ['offset minutes beyond 59', '2024-09-14T08:12:45+01:60'],
    ['a date alone', '2024-09-14'],
    ['a time alone', '08:12:45'],
    ['two spaces', '2024-09-14  08:12:45'],
    ['another separator', '2024/09/14 08:12:45'],
    ['a named zone', '2024-09-14T08:12:45 UTC'],
    ['words', 'yesterday'],
    ['words before it', 'on 2024-09-14T08:12:45'],
    ['nothing', ''],
    ['epoch seconds as text', '1726301565'],
    ['a year of two digits', '24-09-14T08:12:45'],
    ['a year before 100', '0024-09-14T08:12:45'],
  ])('refuses %s', (_label, spelling) => {
    expect(instantOf(spelling)).toBeNull();
  });

  it('refuses what is not text', () => {
    for (const value of [1726301565, null, undefined, {}, ['2024-09-14T08:12:45']]) expect(instantOf(value)).toBeNull();
  });
});
