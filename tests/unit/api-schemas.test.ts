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
  variableDefinitionSchema,
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
    utid: 'U1',
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
  it('parses a documented reward unchanged', () => {
    expect(ok(rewardSchema, giftCard)).toEqual({ ...giftCard, id: '101' });
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

  it('is strict about ids, names and costs', () => {
    // An id is a safe integer or the exact digits of one (a 64-bit panel sends them as strings).
    expect(ok(rewardSchema, { ...giftCard, id: '101' }).id).toBe('101');
    expect(ok(rewardSchema, { ...giftCard, id: '0101' }).id).toBe('101');
    expect(ok(rewardSchema, { ...giftCard, id: '18446744073709551615' }).id).toBe('18446744073709551615');
    expect(fails(rewardSchema, { ...giftCard, id: 1.5 })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: 2 ** 53 + 2 })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: '1e3' })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: 'abc' })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, id: null })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, name: 5 })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, cost: '5.00' })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, cost_currency: undefined })).toBe(true);
    expect(fails(rewardSchema, { ...giftCard, meta_data: 'none' })).toBe(true);
  });

  // Issue 29, item 15: a point cost the panel cannot mean quarantines its reward, not the list.
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

describe('redemptionSchema', () => {
  it('parses a documented redemption, nested reward point cost null', () => {
    expect(ok(redemptionSchema, redemption)).toEqual({
      ...redemption,
      id: String(redemption.id),
      reward: { ...redemption.reward, id: String(redemption.reward.id) },
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

  it('is strict about the state booleans and the points spent', () => {
    expect(fails(redemptionSchema, { ...redemption, failed: 'false' })).toBe(true);
    expect(fails(redemptionSchema, { ...redemption, refunded: undefined })).toBe(true);
    expect(fails(redemptionSchema, { ...redemption, reward_point_cost: null })).toBe(true);
    expect(fails(redemptionSchema, { ...redemption, partner_status: 3 })).toBe(true);
  });
});

describe('variableDefinitionSchema', () => {
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

  it('parses a documented definition unchanged', () => {
    expect(ok(variableDefinitionSchema, definition)).toEqual(definition);
  });

  it('fills what it does not depend on: text, uuid, options, exclusive', () => {
    expect(ok(variableDefinitionSchema, { id: 1, name: 'A', type: 'text', writable: false, options: null })).toEqual({
      id: 1,
      name: 'A',
      text: 'A',
      uuid: '',
      type: 'text',
      writable: false,
      options: [],
    });
    expect(ok(variableDefinitionSchema, { ...definition, options: [{ id: 131, name: 'READING' }] }).options).toEqual([
      { id: 131, name: 'READING', text: 'READING', exclusive: false },
    ]);
  });

  it('is strict about ids, names and writable', () => {
    expect(fails(variableDefinitionSchema, { ...definition, id: '13' })).toBe(true);
    expect(fails(variableDefinitionSchema, { ...definition, name: '' })).toBe(true);
    expect(fails(variableDefinitionSchema, { ...definition, writable: 'true' })).toBe(true);
    expect(fails(variableDefinitionSchema, { ...definition, writable: undefined })).toBe(true);
    expect(fails(variableDefinitionSchema, { ...definition, options: [{ id: 'x' }] })).toBe(true);
    expect(fails(variableDefinitionSchema, { ...definition, options: [{ id: 1, exclusive: 'no' }] })).toBe(true);
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
    const { type: _t, ...noType } = giftCard;
    expect(() => parseBody(rewardSchema, noType, '/v1/panel/rewards')).toThrow(/type: missing/);
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
