import { describe, expect, it } from 'vitest';
import { parseJsonExactIds } from '../../utils/api/json';
import { canonicalId, compareIds, redemptionIdOf, redemptionKey, rewardIdOf } from '../../utils/ids';
import { withIdDigits } from '../../entrypoints/background/store/stored-ids';

describe('an id is the exact digits of the panel’s integer', () => {
  it('takes a safe integer or a string of decimal digits, in one canonical form', () => {
    expect(canonicalId(5010)).toBe('5010');
    expect(canonicalId(-0)).toBe('0');
    expect(canonicalId(-7)).toBe('-7');
    expect(canonicalId(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
    expect(canonicalId('5010')).toBe('5010');
    expect(canonicalId('005010')).toBe('5010');
    expect(canonicalId('000')).toBe('0');
    expect(canonicalId('-0')).toBe('0');
    expect(canonicalId('-0012')).toBe('-12');
    expect(canonicalId('18446744073709551615')).toBe('18446744073709551615');
    expect(canonicalId('9'.repeat(40))).toBe('9'.repeat(40));
    expect(rewardIdOf('101')).toBe('101');
    expect(redemptionIdOf(5001)).toBe('5001');
  });

  it('refuses what cannot be compared exactly: beyond 2^53 as a number, fractions, other text', () => {
    for (const raw of [
      2 ** 53,
      2 ** 53 + 2,
      1.5,
      Number.NaN,
      Infinity,
      '1.5',
      '1e3',
      ' 5',
      '5 ',
      '+5',
      '',
      '-',
      'abc',
      '9'.repeat(41),
      null,
      undefined,
      true,
      {},
      [5],
    ])
      expect(canonicalId(raw), String(raw)).toBeNull();
  });

  it('orders ids as the integers they are, whatever their length', () => {
    const ids = ['10', '9', '-3', '-20', '0', '18446744073709551615', '1152921504606846977', '100'];
    expect([...ids].sort(compareIds)).toEqual([
      '-20',
      '-3',
      '0',
      '9',
      '10',
      '100',
      '1152921504606846977',
      '18446744073709551615',
    ]);
    expect(compareIds('5', '5')).toBe(0);
    expect(compareIds('-5', '-5')).toBe(0);
    expect(compareIds('12', '13')).toBeLessThan(0);
    expect(compareIds('13', '12')).toBeGreaterThan(0);
    expect(compareIds('-13', '-12')).toBeLessThan(0);
  });

  it('a redemption is its id, reward and date: the same id with another reward or date is another redemption', () => {
    const r = { id: redemptionIdOf(5010)!, reward: { id: rewardIdOf(101)! }, created_at: '2026-11-20T10:00:00' };
    expect(redemptionKey(r)).toBe('5010 101 2026-11-20T10:00:00');
    expect(redemptionKey({ ...r, created_at: '2026-11-20T10:01:00' })).not.toBe(redemptionKey(r));
    expect(redemptionKey({ ...r, reward: { id: rewardIdOf(102)! } })).not.toBe(redemptionKey(r));
  });
});

describe('the panel’s JSON keeps every id exact', () => {
  it('an id beyond 2^53 sent as a number is read from its own digits; other large numbers read as JSON.parse reads them', () => {
    const text =
      '{"redemptions":[{"id":1152921504606846977,"reward":{"id":1152921504606846978},"cost":12345678901234567890}]}';
    const body = parseJsonExactIds(text) as {
      redemptions: Array<{ id: unknown; reward: { id: unknown }; cost: unknown }>;
    };
    expect(body.redemptions[0]!.id).toBe('1152921504606846977');
    expect(body.redemptions[0]!.reward.id).toBe('1152921504606846978');
    expect(body.redemptions[0]!.cost).toBe(JSON.parse('12345678901234567890'));
    // What the plain parse makes of it: 2^60, the id of another redemption.
    expect(JSON.parse(text).redemptions[0].id).toBe(2 ** 60);
  });

  it('reads as JSON.parse does everywhere else: small ids, strings of digits, duplicate keys, __proto__', () => {
    for (const text of [
      '{"id":5,"a":[1,2.5,-3e2,true,null,"x"]}',
      '{"id":"1152921504606846977","note":"0123456789012345678"}',
      '{"id":1,"id":2,"big":9007199254740993}',
      '{"__proto__":{"polluted":1},"id":12345678901234567}',
    ]) {
      const exact = parseJsonExactIds(text) as Record<string, unknown>;
      const plain = JSON.parse(text) as Record<string, unknown>;
      expect(Object.getPrototypeOf(exact)).toBe(Object.prototype);
      expect({ ...exact, id: undefined }).toEqual({ ...plain, id: undefined });
    }
    expect((parseJsonExactIds('{"id":1,"id":2}') as { id: unknown }).id).toBe(2);
    expect((parseJsonExactIds('{"id":12345678901234567}') as { id: unknown }).id).toBe('12345678901234567');
    expect(() => parseJsonExactIds('{"id":1234567890123456789')).toThrow();
    expect(() => parseJsonExactIds('{"id":')).toThrow();
  });
});

describe('storage an earlier version wrote', () => {
  it('its numeric reward and redemption ids read as this version’s digits; what holds none is left as it is', () => {
    const old = {
      rewardId: 101,
      knownRedemptionIds: [5001, 5002],
      redemption: { id: 5010, reward: { id: 101, meta_data: {} }, created_at: 'x' },
      duplicates: [5011],
      redemptionIds: [5010, 5011],
      list: [{ id: 7 }, { id: '8' }],
    };
    expect(withIdDigits(old)).toEqual({
      rewardId: '101',
      knownRedemptionIds: ['5001', '5002'],
      redemption: { id: '5010', reward: { id: '101', meta_data: {} }, created_at: 'x' },
      duplicates: ['5011'],
      redemptionIds: ['5010', '5011'],
      list: [{ id: '7' }, { id: '8' }],
    });
    const current = { rewardId: '101', list: [{ id: '8' }], n: 5, none: null };
    expect(withIdDigits(current)).toBe(current);
    expect(withIdDigits(null)).toBeNull();
    expect(withIdDigits({ id: 2 ** 60 })).toEqual({ id: '1152921504606846976' });
  });
});
