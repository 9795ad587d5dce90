// @vitest-environment node
/** The response schemas and the request core's pure helpers (no HTTP here). */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { fieldNamedIn } from '../../utils/api/client';
import { backoffDelay, normaliseBaseUrl, parseRetryAfter } from '../../utils/api/http';
import {
  parseBody,
  redemptionSchema,
  rewardSchema,
  rewardsResponseSchema,
  variablesMetaResponseSchema,
  writeResponseSchema,
} from '../../utils/api/schemas';
import { AppErrorException } from '../../utils/errors';

const giftCard = {
  id: 101,
  name: 'Bluefin Coffee $5 Gift Card',
  cost: 5,
  cost_currency: 'USD',
  type: 'giftcard_aggregator',
  image_url: 'https://img.example/1.png',
  meta_data: {
    terms: '<p>Terms</p>',
    countries: ['US'],
    min_value: '5.00',
    max_value: '5.00',
    image_urls: { '80w-326ppi': 'https://img.example/80.png' },
    value_type: 'FIXED_VALUE',
  },
  reward_point_cost: 500,
};

const redemption = {
  id: 5001,
  cost: 5,
  currency: 'USD',
  reward_point_cost: 500,
  reward: { ...giftCard, reward_point_cost: null },
  approved: true,
  processed: true,
  created_at: '2024-03-01T10:00:00',
  updated_at: '2024-03-01T10:05:00',
  failed: false,
  refunded: false,
  partner_status: 'COMPLETE',
  failed_reason: null,
  transaction_id: null,
};

const ok = <S extends v.GenericSchema>(schema: S, input: unknown) => v.parse(schema, input);
const fails = (schema: v.GenericSchema, input: unknown) => !v.safeParse(schema, input).success;

describe('rewardSchema', () => {
  it('parses a documented reward unchanged but for the provider fields nothing reads', () => {
    expect(ok(rewardSchema, giftCard)).toEqual({ ...giftCard, id: '101' });
    const provider = { ...giftCard.meta_data, utid: 'U1', brand_key: 'B1', reward_name: 'Bluefin Coffee $5 Gift Card' };
    expect(ok(rewardSchema, { ...giftCard, meta_data: provider }).meta_data).toEqual(giftCard.meta_data);
  });

  it('drops unknown fields, in the reward and in meta_data', () => {
    const parsed = ok(rewardSchema, { ...giftCard, extra: 1, meta_data: { ...giftCard.meta_data, brand_logo: 'x' } });
    expect(parsed).not.toHaveProperty('extra');
    expect(parsed.meta_data).not.toHaveProperty('brand_logo');
  });

  it('treats every meta_data field as optional and drops one of the wrong type', () => {
    expect(ok(rewardSchema, { ...giftCard, meta_data: { image_url: 'https://w.example/p.png' } }).meta_data).toEqual({
      image_url: 'https://w.example/p.png',
    });
    const parsed = ok(rewardSchema, { ...giftCard, meta_data: { utid: 7, countries: 'US', terms: '<b>ok</b>' } });
    expect(parsed.meta_data).toEqual({ terms: '<b>ok</b>' });
  });

  it('reads missing or null image_url as "", meta_data as {}, reward_point_cost as null', () => {
    const { image_url: _i, meta_data: _m, reward_point_cost: _r, ...bare } = giftCard;
    expect(ok(rewardSchema, bare)).toMatchObject({ image_url: '', meta_data: {}, reward_point_cost: null });
    expect(ok(rewardSchema, { ...giftCard, image_url: null, meta_data: null })).toMatchObject({
      image_url: '',
      meta_data: {},
    });
  });

  it('is strict about the id, which identifies the reward: a safe integer or the exact digits of one', () => {
    // A 64-bit panel sends its ids as strings of digits: kept exact, in one canonical form.
    expect(ok(rewardSchema, { ...giftCard, id: '101' }).id).toBe('101');
    expect(ok(rewardSchema, { ...giftCard, id: '0101' }).id).toBe('101');
    expect(ok(rewardSchema, { ...giftCard, id: '18446744073709551615' }).id).toBe('18446744073709551615');
    expect(fails(rewardSchema, { ...giftCard, id: 1.5 })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: 2 ** 53 + 2 })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: '1e3' })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: 'abc' })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: null })).toBe(true);
  });

  // Each record on its own: a defect quarantines its reward, never the whole list.
  it.each([
    ['null', null],
    ['an array', [5]],
    ['a string', '5.00'],
    ['below zero', -5],
    ['1e308', 1e308],
    ['beyond what USD can print exactly', 1e13],
    ['missing', undefined],
  ])('a value (cost) that is %s: the reward is kept, its value unknown and the reward refused', (_, cost) => {
    expect(ok(rewardSchema, { ...giftCard, cost })).toMatchObject({
      id: '101',
      name: giftCard.name,
      cost: null,
      reward_point_cost: 500,
      costRefused: true,
    });
  });

  it('a currency that is not text: the value is not said and the reward refused; one Intl does not know is kept as before', () => {
    expect(ok(rewardSchema, { ...giftCard, cost_currency: 840 })).toMatchObject({
      cost_currency: '',
      costRefused: true,
    });
    expect(ok(rewardSchema, { ...giftCard, cost_currency: undefined })).toMatchObject({ costRefused: true });
    expect(ok(rewardSchema, { ...giftCard, cost_currency: 'ZZZ' })).not.toHaveProperty('costRefused');
  });

  it('the largest value its currency can print exactly is kept', () => {
    expect(ok(rewardSchema, { ...giftCard, cost: 9_999_999_999_999.99 })).not.toHaveProperty('costRefused');
    expect(ok(rewardSchema, { ...giftCard, cost: 999_999_999_999_999, cost_currency: 'JPY' })).not.toHaveProperty(
      'costRefused',
    );
    expect(ok(rewardSchema, { ...giftCard, cost: 1e15, cost_currency: 'JPY' })).toMatchObject({ costRefused: true });
    expect(ok(rewardSchema, { ...giftCard, cost: 0 })).not.toHaveProperty('costRefused');
  });

  it('words and pictures of the wrong type are read as none, and the reward stays offered', () => {
    const parsed = ok(rewardSchema, { ...giftCard, name: 5, type: [], image_url: 7, meta_data: 'none' });
    expect(parsed).toMatchObject({ name: 'Reward #101', type: '', image_url: '', meta_data: {}, cost: 5 });
    expect(parsed).not.toHaveProperty('costRefused');
  });

  it('one broken reward never refuses the list', () => {
    const listed = ok(rewardsResponseSchema, {
      rewards: [giftCard, { ...giftCard, id: 102, cost: null }, { ...giftCard, id: 103, cost_currency: 5 }],
    });
    expect(listed.rewards.map((r) => [r.id, r.costRefused ?? false])).toEqual([
      ['101', false],
      ['102', true],
      ['103', true],
    ]);
  });

  // A point cost the panel cannot mean quarantines its reward, not the list.
  it.each([
    ['below zero', -500],
    ['a fraction', 12.5],
    ['beyond 2^53', 2 ** 53],
    ['huge', 1e300],
    ['a string', '500'],
    ['a boolean', true],
    ['an object', { points: 500 }],
  ])('a reward_point_cost that is %s: the reward is kept, its cost null and refused', (_, cost) => {
    const parsed = ok(rewardSchema, { ...giftCard, reward_point_cost: cost });
    expect(parsed).toMatchObject({ id: '101', name: giftCard.name, reward_point_cost: null, costRefused: true });
  });

  it('a reward_point_cost of 0 (a free reward), or none, is no impossible cost', () => {
    expect(ok(rewardSchema, { ...giftCard, reward_point_cost: 0 })).toEqual({
      ...giftCard,
      id: '101',
      reward_point_cost: 0,
    });
    expect(Object.is(ok(rewardSchema, { ...giftCard, reward_point_cost: -0 }).reward_point_cost, 0)).toBe(true);
    expect(ok(rewardSchema, { ...giftCard, reward_point_cost: null })).not.toHaveProperty('costRefused');
    expect(ok(rewardSchema, { ...giftCard, reward_point_cost: Number.MAX_SAFE_INTEGER }).reward_point_cost).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });
});

describe('the available list: a cost nobody gave is never offered', () => {
  it('a reward listed without a points cost is quarantined for that reason, the rest as sent', () => {
    const { reward_point_cost: _none, ...unpriced } = giftCard;
    const listed = ok(rewardsResponseSchema, {
      rewards: [giftCard, { ...giftCard, id: 102, reward_point_cost: null }, { ...unpriced, id: 103 }],
    });
    expect(listed.rewards.map((r) => [r.id, r.reward_point_cost, r.costRefused ?? false, r.costReason])).toEqual([
      ['101', 500, false, undefined],
      ['102', null, true, 'missing'],
      ['103', null, true, 'missing'],
    ]);
  });

  it('one id listed twice with different costs quarantines both: the panel would charge one of them for the id sent', () => {
    const listed = ok(rewardsResponseSchema, {
      rewards: [
        { ...giftCard, reward_point_cost: 50 },
        { ...giftCard, id: 102 },
        { ...giftCard, reward_point_cost: 500 },
        { ...giftCard, id: 103 },
        { ...giftCard, id: 103 },
      ],
    });
    expect(listed.rewards.map((r) => [r.id, r.reward_point_cost, r.costRefused ?? false, r.costReason])).toEqual([
      ['101', null, true, 'conflicting'],
      ['102', 500, false, undefined],
      ['101', null, true, 'conflicting'],
      // The same record twice asks one cost: nothing to choose between.
      ['103', 500, false, undefined],
      ['103', 500, false, undefined],
    ]);
  });

  it('a cost that cannot be right keeps its own reason, beside a missing one', () => {
    const listed = ok(rewardsResponseSchema, {
      rewards: [
        { ...giftCard, reward_point_cost: -5 },
        { ...giftCard, id: 102, reward_point_cost: null, cost: -1 },
        { ...giftCard, id: 103, reward_point_cost: -5, cost: null },
      ],
    });
    expect(listed.rewards.map((r) => [r.costRefused, r.costReason])).toEqual([
      [true, undefined],
      [true, undefined],
      [true, undefined],
    ]);
  });

  it('a value in money left out is said as missing, after a points cost left out', () => {
    const { cost: _c, cost_currency: _cc, ...bare } = giftCard;
    const listed = ok(rewardsResponseSchema, {
      rewards: [
        { ...giftCard, cost: null },
        { ...bare, id: 102 },
        { ...giftCard, id: 103, cost_currency: null },
        { ...giftCard, id: 104, reward_point_cost: null, cost: null },
        { ...giftCard, id: 105, cost: null, cost_currency: 840 },
      ],
    });
    expect(listed.rewards.map((r) => [r.id, r.costRefused, r.costReason])).toEqual([
      ['101', true, 'unpriced'],
      ['102', true, 'unpriced'],
      ['103', true, 'unpriced'],
      ['104', true, 'missing'],
      // A currency given that cannot be right is said as that, though the value is missing too.
      ['105', true, undefined],
    ]);
  });
});

describe('redemptionSchema', () => {
  it('parses a documented redemption, nested reward point cost null', () => {
    expect(ok(redemptionSchema, redemption)).toEqual({
      ...redemption,
      id: String(redemption.id),
      reward: { ...redemption.reward, id: String(redemption.reward.id) },
      // Its instant, UTC to the second (utils/instants.ts).
      created_at: `${redemption.created_at.slice(0, 19)}Z`,
    });
  });

  it('reads missing partner_status, failed_reason and transaction_id as null', () => {
    const { partner_status: _p, failed_reason: _f, transaction_id: _t, ...bare } = redemption;
    expect(ok(redemptionSchema, bare)).toMatchObject({
      partner_status: null,
      failed_reason: null,
      transaction_id: null,
    });
  });

  it('is strict about what identifies it: its id, its reward and when it was made', () => {
    expect(fails(redemptionSchema, { ...redemption, id: '5001.5' })).toBe(true);
    expect(fails(redemptionSchema, { ...redemption, id: 2 ** 53 + 2 })).toBe(true);
    expect(fails(redemptionSchema, { ...redemption, reward: null })).toBe(true);
    expect(fails(redemptionSchema, { ...redemption, reward: { ...giftCard, id: 'x' } })).toBe(true);
    expect(fails(redemptionSchema, { ...redemption, created_at: 5 })).toBe(true);
    // A time of no moment, or in no spelling it accepts, identifies nothing (utils/instants.ts).
    for (const created_at of ['yesterday', '2024-04-31T10:00:00', '', '14/09/2024 08:12'])
      expect(fails(redemptionSchema, { ...redemption, created_at }), created_at).toBe(true);
    // Another spelling of the same moment is the same instant.
    expect(ok(redemptionSchema, { ...redemption, created_at: '2024-03-01 11:00:00+01:00' }).created_at).toBe(
      '2024-03-01T10:00:00Z',
    );
  });

  it.each([-500, 1.5, 2 ** 53, '500', null])('points spent of %s are kept as unknown, never a figure', (points) => {
    expect(ok(redemptionSchema, { ...redemption, reward_point_cost: points })).toMatchObject({
      id: '5001',
      reward_point_cost: null,
    });
  });

  it('a value or currency it cannot mean is unknown; state flags that are not booleans leave the state unread', () => {
    expect(ok(redemptionSchema, { ...redemption, cost: 1e308, currency: 5 })).toMatchObject({
      cost: null,
      currency: '',
    });
    const unread = ok(redemptionSchema, { ...redemption, failed: 'false', refunded: undefined, partner_status: 3 });
    expect(unread).toMatchObject({ failed: false, refunded: false, partner_status: null, stateUnreadable: true });
    expect(ok(redemptionSchema, redemption)).not.toHaveProperty('stateUnreadable');
  });
});

describe('variablesMetaResponseSchema', () => {
  const definition = {
    id: 13,
    name: 'HOBBIES',
    text: 'Your hobbies?',
    uuid: 'u-13',
    type: 'checkbox',
    writable: true,
    options: [
      { id: 131, name: 'READING', text: 'Reading', exclusive: false },
      { id: 135, name: 'NONE', text: 'None of these', exclusive: true },
    ],
  };
  const one = (d: unknown) => ok(variablesMetaResponseSchema, { data: [d] }).data;

  it('parses a documented definition unchanged', () => {
    expect(one(definition)).toEqual([definition]);
  });

  it('fills what it does not depend on: text, uuid, options, exclusive', () => {
    expect(one({ id: 1, name: 'A', type: 'text', writable: false, options: null })).toEqual([
      { id: 1, name: 'A', text: 'A', uuid: '', type: 'text', writable: false, options: [] },
    ]);
    expect(one({ ...definition, options: [{ id: 131, name: 'READING' }] })[0]!.options).toEqual([
      { id: 131, name: 'READING', text: 'READING', exclusive: false },
    ]);
  });

  it.each([
    ['an id that is not an integer', { id: '13' }],
    ['writable that is not a boolean', { writable: 'true' }],
    ['writable missing', { writable: undefined }],
    ['a type that is not text', { type: 5 }],
    ['an option without an integer id', { options: [{ id: 'x' }] }],
    ['an option whose exclusive is not a boolean', { options: [{ id: 1, exclusive: 'no' }] }],
    ['options that are not a list', { options: 'READING' }],
  ])('a question with %s is kept, unreadable: never writable here', (_, defect) => {
    expect(one({ ...definition, ...defect })).toMatchObject([{ name: 'HOBBIES', writable: false, unreadable: true }]);
  });

  it('a question without a name it can be asked by is left out alone; the others stay', () => {
    const { data } = ok(variablesMetaResponseSchema, {
      data: [definition, { ...definition, name: '' }, { ...definition, name: 7 }, null, 'x'],
    });
    expect(data.map((d) => d.name)).toEqual(['HOBBIES']);
  });

  it('is strict about the answer’s shape', () => {
    expect(fails(variablesMetaResponseSchema, { data: {} })).toBe(true);
    expect(fails(variablesMetaResponseSchema, {})).toBe(true);
  });
});

describe('parseBody', () => {
  it('throws unexpected naming the endpoint, the place and what was expected', () => {
    try {
      parseBody(writeResponseSchema, { message: 5 }, '/v1/panel/redemption');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppErrorException);
      const { kind, message, endpoint } = (error as AppErrorException).error;
      expect({ kind, endpoint }).toEqual({ kind: 'unexpected', endpoint: '/v1/panel/redemption' });
      expect(message).toMatch(/^Unexpected response from \/v1\/panel\/redemption: message: expected string\. /);
    }
  });

  it('says "missing" for a missing field and never quotes the received value', () => {
    try {
      parseBody(rewardSchema, { ...giftCard, name: 'SECRET-VALUE-123', id: 'SECRET-ID' }, '/v1/panel/rewards');
      expect.unreachable();
    } catch (error) {
      expect((error as AppErrorException).error.message).not.toContain('SECRET');
    }
    const { id: _id, ...noId } = giftCard;
    expect(() => parseBody(rewardSchema, noId, '/v1/panel/rewards')).toThrow(/id: missing/);
    expect(() => parseBody(rewardSchema, { ...giftCard, id: 2.5 }, '/v1/panel/rewards')).toThrow(
      /id: expected an integer/,
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 12 ', now)).toBe(12);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt with jitter in the upper half', () => {
    expect(backoffDelay(0, 100, () => 0)).toBe(50);
    expect(backoffDelay(0, 100, () => 0.999)).toBeLessThanOrEqual(100);
    expect(backoffDelay(1, 100, () => 0)).toBe(100);
    expect(backoffDelay(2, 100, () => 0.5)).toBe(300);
    expect(backoffDelay(30, 100, () => 1)).toBe(30_000);
  });
});

describe('normaliseBaseUrl', () => {
  it('keeps origin and path prefix, without trailing slash, query or hash', () => {
    expect(normaliseBaseUrl('https://panel.example/')).toBe('https://panel.example');
    expect(normaliseBaseUrl(' https://panel.example/api// ')).toBe('https://panel.example/api');
    expect(normaliseBaseUrl('http://127.0.0.1:8787?x=1#y')).toBe('http://127.0.0.1:8787');
  });
});

describe('fieldNamedIn', () => {
  it('finds the variable a message names, preferring the longest whole-word match', () => {
    expect(fieldNamedIn('Variable FIRST_NAME is not writable', ['NAME', 'FIRST_NAME'])).toBe('FIRST_NAME');
    expect(fieldNamedIn('Option 9 is not offered for EMPLOYMENT', ['EMPLOYMENT'])).toBe('EMPLOYMENT');
    expect(fieldNamedIn('LAST_NAMES missing', ['LAST_NAME'])).toBeUndefined();
    expect(fieldNamedIn('Something went wrong', ['A'])).toBeUndefined();
  });
});
