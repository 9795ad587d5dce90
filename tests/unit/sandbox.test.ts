// @vitest-environment node
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VariableDefinition } from '../../utils/types';
import type { Redemption, Reward } from '../sandbox/types';
import { makeScaledSeed } from '../sandbox/scale';
import { SANDBOX_TOKEN, startSandbox } from '../sandbox/server';
import type { Sandbox, SandboxState } from '../sandbox/server';
import { validateValue } from '../sandbox/validate';

const NOW = new Date('2025-03-01T12:34:56.789Z');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => NOW });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.reset();
});

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(path: string, init: RequestInit & { auth?: boolean } = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (init.auth !== false && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${sandbox.token}`);
  if (typeof init.body === 'string') headers.set('Content-Type', 'application/json');
  const response = await fetch(`${sandbox.url}${path}`, { ...init, headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

const post = (path: string, body: unknown): Promise<Reply> =>
  call(path, { method: 'POST', body: JSON.stringify(body) });
const writeVariables = (body: unknown): Promise<Reply> => post('/v1/panel/variables/data', body);
const control = (path: string, method = 'GET', body?: unknown): Promise<Reply> =>
  call(`/__sandbox${path}`, { method, auth: false, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/**
 * fetch refuses a GET body, so the documented redeem form goes through node:http. Content-Length
 * must be explicit: Node's client sends a GET body neither chunked nor sized otherwise.
 */
function getWithBody(path: string, body: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${sandbox.url}${path}`,
      {
        method: 'GET',
        headers: {
          Authorization: `Bearer ${sandbox.token}`,
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('sandbox: seed data', () => {
  it('has a balance, both reward kinds with documented meta_data, and costs in three currencies', () => {
    const { balance, rewards } = sandbox.state;
    expect(balance).toBe(2500);
    const giftCards = rewards.filter((reward) => reward.type === 'giftcard_aggregator');
    const wallets = rewards.filter((reward) => reward.type === 'payment_wallet');
    expect(giftCards).toHaveLength(8);
    expect(wallets).toHaveLength(2);
    for (const card of giftCards) {
      const meta = card.meta_data;
      expect(Object.keys(meta.image_urls ?? {}).sort()).toEqual([
        '1200w-326ppi',
        '130w-326ppi',
        '200w-326ppi',
        '278w-326ppi',
        '300w-326ppi',
        '80w-326ppi',
      ]);
      expect(meta.min_value).toMatch(/^\d+\.\d{2}$/);
      expect(meta.max_value).toMatch(/^\d+\.\d{2}$/);
      if (meta.value_type === 'FIXED_VALUE') expect(meta.min_value).toBe(meta.max_value);
      expect(meta.reward_type).toBe('gift card');
      expect(meta.terms).toContain('<a href=');
      expect(Number.isInteger(card.reward_point_cost)).toBe(true);
    }
    expect(new Set(giftCards.map((card) => card.meta_data.value_type))).toEqual(
      new Set(['FIXED_VALUE', 'VARIABLE_VALUE']),
    );
    for (const wallet of wallets) expect(Object.keys(wallet.meta_data)).toEqual(['image_url']);
    expect(new Set(rewards.map((reward) => reward.cost_currency))).toEqual(new Set(['USD', 'EUR', 'GBP']));
    expect(rewards.some((reward) => (reward.reward_point_cost ?? 0) <= balance)).toBe(true);
    expect(rewards.some((reward) => (reward.reward_point_cost ?? 0) > balance)).toBe(true);
  });

  it('has history covering every redemption state', () => {
    const history = sandbox.state.redemptions;
    expect(history.length).toBeGreaterThanOrEqual(9);
    const has = (test: (redemption: Redemption) => boolean): boolean => history.some(test);
    expect(has((r) => !r.approved && !r.processed && !r.failed && !r.refunded && r.partner_status === null)).toBe(true);
    expect(has((r) => r.approved && !r.processed && !r.failed && r.partner_status === null)).toBe(true);
    expect(has((r) => r.processed)).toBe(true);
    expect(has((r) => r.partner_status === 'COMPLETE' && !r.processed)).toBe(true);
    expect(has((r) => r.partner_status === 'UNCLAIMED')).toBe(true);
    expect(has((r) => r.failed && !r.refunded && typeof r.failed_reason === 'string')).toBe(true);
    expect(has((r) => r.refunded)).toBe(true);
    expect(has((r) => r.partner_status === 'IN_REVIEW')).toBe(true);
    for (const redemption of history) {
      expect(redemption.reward.reward_point_cost).toBeNull();
      expect(redemption.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(redemption.transaction_id).toBeNull();
    }
  });
});

describe('sandbox: authentication and CORS', () => {
  it('refuses a missing or wrong token with 401 and the documented body', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer wrong' },
      { Authorization: `Basic ${sandbox.token}` },
    ];
    for (const headers of attempts) {
      const reply = await call('/v1/panel/rewards', { auth: false, headers });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ message: 'Unauthorized: missing or invalid access token' });
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('uses the default token unless told otherwise', async () => {
    expect(sandbox.token).toBe(SANDBOX_TOKEN);
    expect(SANDBOX_TOKEN).toBe('sandbox-token-5f2c9a7e41d8');
    const other = await startSandbox({ token: 'another-token' });
    try {
      const response = await fetch(`${other.url}/v1/panel/rewards`, {
        headers: { Authorization: 'Bearer another-token' },
      });
      expect(response.status).toBe(200);
      expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await other.close();
    }
  });

  it('answers preflights without auth and marks every response for CORS', async () => {
    const response = await fetch(`${sandbox.url}/v1/panel/redemption`, {
      method: 'OPTIONS',
      headers: { Origin: 'chrome-extension://abc', 'Access-Control-Request-Method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'Authorization, Content-Type, Accept, Idempotency-Key',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');

    const reply = await call('/v1/panel/rewards');
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('access-control-expose-headers')).toBe('Retry-After');
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers unknown paths and methods with JSON errors', async () => {
    const missing = await call('/v1/panel/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('/v1/panel/nothing');
    const wrongMethod = await post('/v1/panel/rewards', {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });
});

describe('sandbox: variables', () => {
  it('lists definitions', async () => {
    const reply = await call('/v1/panel/variables/meta');
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('success');
    const names = (reply.body.data as VariableDefinition[]).map((definition) => definition.name);
    expect(names).toEqual([
      'FIRST_NAME',
      'BIRTH_DATE',
      'HOBBIES',
      'EMPLOYMENT',
      'POSTAL_CODE',
      'PANELIST_COUNTRY',
      'PANEL_SOURCE',
      'EDUCATION',
    ]);
  });

  it('reads stored values as records, optionally writable only', async () => {
    const all = await call('/v1/panel/variables/data');
    expect(all.body).toEqual({
      message: 'success',
      data: [
        { name: 'FIRST_NAME', value: 'Jordan' },
        { name: 'BIRTH_DATE', value: '1988-04-17' },
        { name: 'HOBBIES', value: [131, 133] },
        { name: 'EMPLOYMENT', value: 141 },
        { name: 'PANELIST_COUNTRY', value: 'US' },
        { name: 'PANEL_SOURCE', value: 172 },
      ],
    });
    const writable = await call('/v1/panel/variables/data?filter=writable');
    expect((writable.body.data as { name: string }[]).map((record) => record.name)).toEqual([
      'FIRST_NAME',
      'BIRTH_DATE',
      'HOBBIES',
      'EMPLOYMENT',
    ]);
    expect(await call('/v1/panel/variables/data?filter=bogus')).toMatchObject({
      status: 422,
      body: { message: 'The selected filter is invalid.', errors: { filter: ['The selected filter is invalid.'] } },
    });
  });

  it('reads stored values as a map when the state asks for it', async () => {
    sandbox.state.valuesShape = 'map';
    const reply = await call('/v1/panel/variables/data?filter=writable');
    expect(reply.body.data).toEqual({
      FIRST_NAME: 'Jordan',
      BIRTH_DATE: '1988-04-17',
      HOBBIES: [131, 133],
      EMPLOYMENT: 141,
    });
  });

  it('stores valid values of every kind', async () => {
    const reply = await writeVariables({
      FIRST_NAME: 'Alex',
      BIRTH_DATE: '2000-02-29',
      HOBBIES: [132, 134],
      EMPLOYMENT: 144,
      POSTAL_CODE: '94103',
      EDUCATION: 183,
    });
    expect(reply).toMatchObject({ status: 200, body: { message: 'success' } });
    expect(sandbox.state.values).toMatchObject({
      FIRST_NAME: 'Alex',
      BIRTH_DATE: '2000-02-29',
      HOBBIES: [132, 134],
      EMPLOYMENT: 144,
      POSTAL_CODE: '94103',
      EDUCATION: 183,
    });
    await writeVariables({ HOBBIES: 135 });
    expect(sandbox.state.values.HOBBIES).toEqual([135]);
  });

  it.each([
    [{ NICKNAME: 'x' }, 'Unknown variable: NICKNAME', 'NICKNAME'],
    [{ PANELIST_COUNTRY: 'DE' }, 'Variable PANELIST_COUNTRY is not writable', 'PANELIST_COUNTRY'],
    [{ PANEL_SOURCE: 171 }, 'Variable PANEL_SOURCE is not writable', 'PANEL_SOURCE'],
    [{ FIRST_NAME: 42 }, 'Variable FIRST_NAME expects a text value (string)', 'FIRST_NAME'],
    [{ FIRST_NAME: 'a'.repeat(1001) }, 'Variable FIRST_NAME accepts at most 1000 characters', 'FIRST_NAME'],
    [{ BIRTH_DATE: '17/04/1988' }, 'Variable BIRTH_DATE expects a date as YYYY-MM-DD', 'BIRTH_DATE'],
    [{ BIRTH_DATE: '2023-02-29' }, '2023-02-29 is not a valid date for BIRTH_DATE', 'BIRTH_DATE'],
    [{ EMPLOYMENT: 99 }, 'Option 99 is not offered for EMPLOYMENT', 'EMPLOYMENT'],
    [{ EMPLOYMENT: '141' }, 'Variable EMPLOYMENT expects one option id (integer)', 'EMPLOYMENT'],
    [{ EDUCATION: 141 }, 'Option 141 is not offered for EDUCATION', 'EDUCATION'],
    [{ HOBBIES: [131, 99] }, 'Option 99 is not offered for HOBBIES', 'HOBBIES'],
    [{ HOBBIES: ['131'] }, 'Variable HOBBIES expects an array of option ids (integers)', 'HOBBIES'],
    [{ HOBBIES: [131, 131] }, 'Option 131 is given more than once for HOBBIES', 'HOBBIES'],
    [
      { HOBBIES: [131, 135] },
      'Option 135 (None of these) is exclusive and cannot be combined with other options for HOBBIES',
      'HOBBIES',
    ],
  ])('refuses %j with 422, Laravel-style', async (body, message, field) => {
    const reply = await writeVariables(body);
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ message, errors: { [field]: [message] } });
  });

  it('names every refused entry at once, as Laravel does', async () => {
    const reply = await writeVariables({
      FIRST_NAME: 42,
      EDUCATION: 183,
      BIRTH_DATE: '2023-02-29',
      PANELIST_COUNTRY: 'DE',
    });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      message: 'Variable FIRST_NAME expects a text value (string) (and 2 more errors)',
      errors: {
        FIRST_NAME: ['Variable FIRST_NAME expects a text value (string)'],
        BIRTH_DATE: ['2023-02-29 is not a valid date for BIRTH_DATE'],
        PANELIST_COUNTRY: ['Variable PANELIST_COUNTRY is not writable'],
      },
    });
    const two = await writeVariables({ EMPLOYMENT: 99, NICKNAME: 'x' });
    expect(two.body.message).toBe('Option 99 is not offered for EMPLOYMENT (and 1 more error)');
  });

  it('keeps a body key like __proto__ a name in its refusal', async () => {
    const reply = await call('/v1/panel/variables/data', {
      method: 'POST',
      body: '{"__proto__": "x", "FIRST_NAME": "Sam"}',
    });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors as object)).toEqual(['__proto__']);
    expect(sandbox.state.values.FIRST_NAME).toBe('Jordan');
  });

  it('changes nothing when any entry is refused', async () => {
    const before = structuredClone(sandbox.state.values);
    const reply = await writeVariables({ FIRST_NAME: 'Sam', EMPLOYMENT: 99 });
    expect(reply.status).toBe(422);
    expect(sandbox.state.values).toEqual(before);
  });

  it('refuses a body that is not a JSON object with 400', async () => {
    for (const body of ['[1,2]', '"text"', '{not json', '']) {
      const reply = await call('/v1/panel/variables/data', { method: 'POST', body });
      expect(reply.status).toBe(400);
      expect(typeof reply.body.message).toBe('string');
    }
  });

  it('deletes a stored value, idempotently', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const reply = await call('/v1/panel/variables/data/FIRST_NAME', { method: 'DELETE' });
      expect(reply).toMatchObject({ status: 200, body: { message: 'success' } });
    }
    expect(sandbox.state.values).not.toHaveProperty('FIRST_NAME');
  });

  it('refuses deleting unknown and read-only variables', async () => {
    const unknown = await call('/v1/panel/variables/data/NICK%20NAME', { method: 'DELETE' });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Unknown variable: NICK NAME' } });
    const readOnly = await call('/v1/panel/variables/data/PANELIST_COUNTRY', { method: 'DELETE' });
    expect(readOnly).toMatchObject({ status: 422, body: { message: 'Variable PANELIST_COUNTRY is not writable' } });
    expect(sandbox.state.values.PANELIST_COUNTRY).toBe('US');
  });
});

describe('sandbox: rewards, history and balance', () => {
  it('lists rewards with the balance as top-level points', async () => {
    const reply = await call('/v1/panel/rewards');
    expect(reply.body.message).toBe('success');
    expect(reply.body.points).toBe(2500);
    expect((reply.body.rewards as Reward[]).map((reward) => reward.id)).toEqual([
      101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
    ]);
  });

  it('lists the history oldest first', async () => {
    const reply = await call('/v1/panel/redemptions');
    expect(reply.body.message).toBe('success');
    expect((reply.body.redemptions as Redemption[]).map((redemption) => redemption.id)).toEqual([
      5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008, 5009,
    ]);
  });

  it('exposes the balance where balanceIn says', async () => {
    const read = async () => ({
      rewards: (await call('/v1/panel/rewards')).body,
      values: (await call('/v1/panel/variables/data')).body,
      writable: (await call('/v1/panel/variables/data?filter=writable')).body,
    });
    sandbox.state.balanceIn = 'variables';
    let replies = await read();
    expect(replies.rewards).not.toHaveProperty('points');
    expect(replies.values.points).toBe(2500);

    sandbox.state.balanceIn = 'stored-variable';
    replies = await read();
    expect(replies.rewards).not.toHaveProperty('points');
    expect(replies.values).not.toHaveProperty('points');
    expect(replies.values.data).toContainEqual({ name: 'POINTS_BALANCE', value: '2500' });
    expect(replies.writable.data).not.toContainEqual(expect.objectContaining({ name: 'POINTS_BALANCE' }));
    sandbox.state.valuesShape = 'map';
    expect((await read()).values.data).toMatchObject({ POINTS_BALANCE: '2500' });

    sandbox.state.balanceIn = 'none';
    replies = await read();
    expect(replies.rewards).not.toHaveProperty('points');
    expect(replies.values).not.toHaveProperty('points');
    expect(replies.values.data).not.toHaveProperty('POINTS_BALANCE');
  });

  it('redeems by query id: deducts points and appends a pending redemption', async () => {
    const reply = await call('/v1/panel/redemption?id=102');
    expect(reply).toMatchObject({ status: 200, body: { message: 'success' } });
    expect(sandbox.state.balance).toBe(1500);
    const added = sandbox.state.redemptions.at(-1);
    const reward = sandbox.state.rewards.find((candidate) => candidate.id === 102);
    expect(added).toEqual({
      id: 5010,
      cost: 10,
      currency: 'USD',
      reward_point_cost: 1000,
      reward: { ...reward, reward_point_cost: null },
      approved: false,
      processed: false,
      created_at: '2025-03-01T12:34:56',
      updated_at: '2025-03-01T12:34:56',
      failed: false,
      refunded: false,
      partner_status: null,
      failed_reason: null,
      transaction_id: null,
    });
    expect((await call('/v1/panel/rewards')).body.points).toBe(1500);
  });

  it('redeems by a JSON body on GET, as documented', async () => {
    const reply = await getWithBody('/v1/panel/redemption', '{"id":104}');
    expect(reply).toEqual({ status: 200, body: { message: 'success' } });
    expect(sandbox.state.balance).toBe(850);
    expect(sandbox.state.redemptions.at(-1)?.currency).toBe('EUR');
  });

  it('lets the balance reach exactly zero', async () => {
    expect((await call('/v1/panel/redemption?id=103')).status).toBe(200);
    expect(sandbox.state.balance).toBe(0);
  });

  it('refuses a reward the balance does not cover with 402, changing nothing', async () => {
    const reply = await call('/v1/panel/redemption?id=106');
    expect(reply).toMatchObject({
      status: 402,
      body: { message: 'Insufficient points: this reward needs 5000 points and you have 2500.' },
    });
    expect(sandbox.state.balance).toBe(2500);
    expect(sandbox.state.redemptions).toHaveLength(9);
  });

  it('refuses missing, invalid and unknown reward ids', async () => {
    expect((await call('/v1/panel/redemption')).status).toBe(400);
    expect((await call('/v1/panel/redemption?id=abc')).status).toBe(400);
    expect((await getWithBody('/v1/panel/redemption', '{"id":"101"}')).status).toBe(400);
    expect((await getWithBody('/v1/panel/redemption', '{id:101')).status).toBe(400);
    const unknown = await call('/v1/panel/redemption?id=999');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Unknown reward: 999' } });
    expect(sandbox.state.balance).toBe(2500);
  });
});

describe('sandbox: Idempotency-Key on the redeem', () => {
  const redeemWith = (key: string, token = sandbox.token) =>
    call('/v1/panel/redemption?id=101', { headers: { 'Idempotency-Key': key, Authorization: `Bearer ${token}` } });
  const coffees = () => sandbox.state.redemptions.filter((r) => r.reward.id === 101).length;

  it('answers a repeated key as the first request was answered, without a second redemption', async () => {
    const before = coffees();
    const first = await redeemWith('"key-1"');
    const again = await redeemWith('"key-1"');
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(coffees()).toBe(before + 1);
    // Another key (bare, as many clients send it) is another redemption.
    expect((await redeemWith('key-2')).status).toBe(200);
    expect(coffees()).toBe(before + 2);
  });

  it('refuses a repeat with 409 while the first is still being processed, and forgets a key nothing was done for', async () => {
    await control('/faults', 'POST', { path: '/v1/panel/redemption', delayMs: 150 });
    const first = redeemWith('"slow"');
    await new Promise((r) => setTimeout(r, 30));
    expect((await redeemWith('"slow"')).status).toBe(409);
    expect((await first).status).toBe(200);
    await control('/faults', 'POST', { path: '/v1/panel/redemption', status: 503 });
    const before = coffees();
    expect((await redeemWith('"refused"')).status).toBe(503);
    expect((await redeemWith('"refused"')).status).toBe(200);
    expect(coffees()).toBe(before + 1);
  });

  it('a repeat fault commits the first copy and records the browser’s re-send; ignoring keys makes two redemptions', async () => {
    const before = coffees();
    await control('/faults', 'POST', { path: '/v1/panel/redemption', repeat: true });
    expect((await redeemWith('"once"')).status).toBe(200);
    expect(coffees()).toBe(before + 1);
    const recorded = sandbox.requests.filter((r) => r.path === '/v1/panel/redemption');
    expect(recorded.map((r) => r.repeated ?? false)).toEqual([false, true]);
    expect(recorded.every((r) => r.headers['idempotency-key'] === '"once"')).toBe(true);

    expect((await control('/idempotency', 'PATCH', { honour: false })).body).toMatchObject({ honour: false });
    await control('/faults', 'POST', { path: '/v1/panel/redemption', repeat: true });
    await redeemWith('"twice"');
    expect(coffees()).toBe(before + 3);
    expect((await control('/idempotency', 'PATCH', { honour: 'no' })).status).toBe(400);
    sandbox.reset();
    expect((await control('/idempotency')).body).toMatchObject({ honour: true });
  });

  it('an overlapping repeat is answered 409 by a panel that honours the key, and the first copy commits after that answer', async () => {
    const before = coffees();
    await control('/faults', 'POST', { path: '/v1/panel/redemption', repeat: 'overlapping', delayMs: 80 });
    const answer = await redeemWith('"overlap"');
    expect(answer.status).toBe(409);
    expect(coffees()).toBe(before);
    await sandbox.idle();
    expect(coffees()).toBe(before + 1);
    expect(sandbox.made).toEqual([expect.objectContaining({ rewardId: 101, key: 'overlap', repeated: false })]);
    // Ignoring keys, both copies are handled: the copy answered, then the first committed too.
    await control('/idempotency', 'PATCH', { honour: false });
    await control('/faults', 'POST', { path: '/v1/panel/redemption', repeat: 'overlapping' });
    expect((await redeemWith('"both"')).status).toBe(200);
    await sandbox.idle();
    expect(sandbox.made.slice(1).map((m) => [m.key, m.repeated])).toEqual([
      ['both', true],
      ['both', false],
    ]);
    expect((await control('/faults', 'POST', { repeat: 'sometimes' })).status).toBe(400);
  });

  it('records which request made each redemption: its key, or none (the panel’s website)', async () => {
    await call('/v1/panel/redemption?id=101');
    await redeemWith('"mine"');
    expect(sandbox.made.map((m) => [m.rewardId, m.key, m.repeated])).toEqual([
      [101, null, false],
      [101, 'mine', false],
    ]);
    sandbox.reset();
    expect(sandbox.made).toEqual([]);
  });
});

describe('sandbox: control endpoints', () => {
  it('resets over HTTP and in process, keeping the same state object', async () => {
    const state = sandbox.state;
    await call('/v1/panel/redemption?id=101');
    await writeVariables({ FIRST_NAME: 'Changed' });
    expect((await control('/reset', 'POST')).body).toEqual({ message: 'success' });
    expect(sandbox.state).toBe(state);
    expect(state.balance).toBe(2500);
    expect(state.values.FIRST_NAME).toBe('Jordan');
    expect(state.redemptions).toHaveLength(9);
    expect(sandbox.requests).toHaveLength(0);

    state.rewards[0]!.name = 'Mutated';
    sandbox.reset();
    expect(state.rewards[0]!.name).toBe('Bluefin Coffee $5 Gift Card');
  });

  it('returns the whole state and patches any subset of it', async () => {
    const state = (await control('/state')).body as unknown as SandboxState;
    expect(Object.keys(state).sort()).toEqual([
      'balance',
      'balanceIn',
      'historyLagMs',
      'idsOnWire',
      'movedTo',
      'redemptions',
      'rewards',
      'validators',
      'values',
      'valuesShape',
      'variables',
    ]);
    expect(state.values).toMatchObject({ FIRST_NAME: 'Jordan' });

    const patched = await control('/state', 'PATCH', { balance: 10, valuesShape: 'map', redemptions: [] });
    expect(patched.status).toBe(200);
    expect(sandbox.state).toMatchObject({ balance: 10, valuesShape: 'map', redemptions: [], balanceIn: 'rewards' });
    expect((await call('/v1/panel/redemptions')).body.redemptions).toEqual([]);

    expect((await control('/state', 'PATCH', { balanse: 1 })).status).toBe(400);
    expect((await control('/state', 'PATCH', { balanceIn: 'nowhere' })).status).toBe(400);
    expect(sandbox.state.balance).toBe(10);
  });

  it('injects a status, headers and a body instead of the real answer', async () => {
    await control('/faults', 'POST', {
      path: '/v1/panel/redemption',
      status: 429,
      headers: { 'Retry-After': '2' },
      body: '{"message":"Slow down"}',
    });
    const reply = await call('/v1/panel/redemption?id=101');
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('2');
    expect(reply.body).toEqual({ message: 'Slow down' });
    expect(sandbox.state.balance).toBe(2500);
    expect(sandbox.requests.map((recorded) => recorded.path)).toEqual(['/v1/panel/redemption']);
    // One use by default: the next request is real.
    expect((await call('/v1/panel/redemption?id=101')).status).toBe(200);
  });

  it('serves a malformed body as is', async () => {
    await control('/faults', 'POST', { method: 'GET', path: '/v1/panel/rewards', body: '{"message":"succ' });
    const response = await fetch(`${sandbox.url}/v1/panel/rewards`, {
      headers: { Authorization: `Bearer ${sandbox.token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"message":"succ');
  });

  it('matches rules by method and path, in order, for `times` requests', async () => {
    await control('/faults', 'POST', { method: 'POST', path: '/v1/panel/rewards', status: 500 });
    await control('/faults', 'POST', { path: '/v1/panel/rewards', status: 503, times: 2 });
    await control('/faults', 'POST', { status: 502 });
    expect((await call('/v1/panel/rewards')).status).toBe(503);
    expect((await call('/v1/panel/rewards')).status).toBe(503);
    expect((await call('/v1/panel/redemptions')).status).toBe(502);
    expect((await call('/v1/panel/rewards')).status).toBe(200);
    const left = (await control('/faults')).body.faults as { method?: string; remaining: number }[];
    expect(left).toEqual([{ method: 'POST', path: '/v1/panel/rewards', status: 500, remaining: 1 }]);
    await control('/faults', 'DELETE');
    expect((await control('/faults')).body.faults).toEqual([]);
  });

  it('does not spend a method-less rule on a CORS preflight', async () => {
    await control('/faults', 'POST', { path: '/v1/panel/rewards', status: 500 });
    expect((await fetch(`${sandbox.url}/v1/panel/rewards`, { method: 'OPTIONS' })).status).toBe(204);
    expect((await call('/v1/panel/rewards')).status).toBe(500);
  });

  it('delays, then handles the request for real', async () => {
    await control('/faults', 'POST', { path: '/v1/panel/redemption', delayMs: 200 });
    const started = Date.now();
    const reply = await call('/v1/panel/redemption?id=101');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(reply.status).toBe(200);
    expect(sandbox.state.balance).toBe(2000);
  });

  it('holds a request until the test releases it, then handles it for real', async () => {
    await control('/faults', 'POST', { path: '/v1/panel/redemption', held: true });
    let answered = false;
    const reply = call('/v1/panel/redemption?id=101').then((r) => ((answered = true), r));
    await expect.poll(() => sandbox.requests.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    expect(sandbox.state.balance).toBe(2500);
    expect((await control('/release', 'POST')).body).toMatchObject({ released: 1 });
    expect((await reply).status).toBe(200);
    expect(sandbox.state.balance).toBe(2000);
    expect((await control('/release', 'POST')).body).toMatchObject({ released: 0 });
  });

  it('drops the connection without answering', async () => {
    await control('/faults', 'POST', { path: '/v1/panel/rewards', drop: true });
    await expect(call('/v1/panel/rewards')).rejects.toThrow();
    expect(sandbox.requests).toHaveLength(1);
  });

  it('refuses malformed fault rules', async () => {
    for (const rule of [{ status: 'x' }, { path: 'no-slash' }, { times: 0 }, { colour: 'red' }, [1]]) {
      expect((await control('/faults', 'POST', rule)).status).toBe(400);
    }
  });

  it('records API requests, including preflights, but not control calls', async () => {
    await fetch(`${sandbox.url}/v1/panel/variables/data`, { method: 'OPTIONS' });
    await writeVariables({ FIRST_NAME: 'Robin' });
    await call('/v1/panel/variables/data', { method: 'POST', body: '{oops' });
    await call('/v1/panel/variables/data?filter=writable');
    await control('/state');
    const { requests } = (await control('/requests')).body as { requests: typeof sandbox.requests };
    expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'OPTIONS /v1/panel/variables/data',
      'POST /v1/panel/variables/data',
      'POST /v1/panel/variables/data',
      'GET /v1/panel/variables/data',
    ]);
    const [, write, malformed, read] = requests;
    expect(write?.body).toEqual({ FIRST_NAME: 'Robin' });
    expect(write?.headers['content-type']).toBe('application/json');
    expect(write?.headers.authorization).toBe(`Bearer ${sandbox.token}`);
    expect(malformed?.body).toBe('{oops');
    expect(read).toMatchObject({ query: { filter: 'writable' }, body: null });
    expect(typeof read?.at).toBe('number');

    await control('/requests', 'DELETE');
    expect(sandbox.requests).toEqual([]);
  });

  it('answers control preflights with PATCH allowed', async () => {
    const response = await fetch(`${sandbox.url}/__sandbox/state`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
  });
});

describe('sandbox: lifecycle', () => {
  it('closes at once even with keep-alive connections and pending delays open', async () => {
    const other = await startSandbox();
    await fetch(`${other.url}/__sandbox/state`).then((response) => response.text());
    await fetch(`${other.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ delayMs: 60_000 }) });
    const hanging = fetch(`${other.url}/v1/panel/rewards`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A close that waited for the 60 s delay would outlast the test's own time-out.
    await other.close();
    // Node's fetch fails from Node's own context, not the test's, so not an `instanceof` here.
    expect(await hanging).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });
});

describe('sandbox: scaled seeds', () => {
  it('builds the requested counts deterministically, with valid values and ordered history', async () => {
    const seed = makeScaledSeed({ rewards: 500, variables: 200, redemptions: 2000 });
    expect(makeScaledSeed({ rewards: 500, variables: 200, redemptions: 2000 })).toEqual(seed);
    expect(seed.rewards).toHaveLength(500);
    expect(seed.variables).toHaveLength(200);
    expect(seed.redemptions).toHaveLength(2000);
    expect(new Set(seed.rewards.map((reward) => reward.id)).size).toBe(500);
    expect(new Set(seed.variables.map((variable) => variable.name)).size).toBe(200);
    expect(seed.rewards.slice(0, 10)).toEqual(sandbox.state.rewards);

    for (const [name, value] of Object.entries(seed.values)) {
      const definition = seed.variables.find((variable) => variable.name === name);
      expect(definition && validateValue(definition, value).ok).toBe(true);
    }
    const ids = seed.redemptions.map((redemption) => redemption.id);
    expect(ids).toEqual(ids.map((_, index) => index + 1));
    const times = seed.redemptions.map((redemption) => redemption.created_at);
    expect(times).toEqual([...times].sort());

    const small = makeScaledSeed({ rewards: 10, variables: 10, redemptions: 10 });
    expect(small.rewards).toHaveLength(10);
    expect(small.variables).toHaveLength(10);
    expect(small.redemptions).toHaveLength(10);

    const scaled = await startSandbox({ seed });
    try {
      const response = await fetch(`${scaled.url}/v1/panel/rewards`, {
        headers: { Authorization: `Bearer ${scaled.token}` },
      });
      expect(((await response.json()) as { rewards: unknown[] }).rewards).toHaveLength(500);
    } finally {
      await scaled.close();
    }
  });
});
