// @vitest-environment node
/**
 * The panel API client's failures against the sandbox over real HTTP: every error class, what is
 * retried and what is not (counted from the sandbox's recorded requests), and that no message
 * ever carries the token.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPanelApi, type PanelClient } from '../../utils/api/client';
import { UNAUTHORIZED_MESSAGE } from '../../utils/api/http';
import { AppErrorException, type AppError } from '../../utils/errors';
import { startSandbox, type Sandbox } from '../sandbox/server';
import {
  clearFaults,
  client,
  control,
  fault,
  patchState,
  recorded,
  resetSandbox,
  startApiSandbox,
  type Recorded,
} from './api-fixtures';
import { rid } from './test-ids';
import type { RewardId } from '../../utils/ids';

let sandbox: Sandbox;
let api: PanelClient;
/** Every failure seen in this file, to check none carries the token. */
const seen: AppError[] = [];

const count = async (path: string) => (await recorded()).filter((r) => r.path === path).length;

/** The AppError a promise rejects with (fails the test if it resolves or throws anything else). */
async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppErrorException);
    const appError = (error as AppErrorException).error;
    expect((error as AppErrorException).message).toBe(appError.message);
    seen.push(appError);
    return appError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  sandbox = await startApiSandbox();
});

afterAll(async () => {
  await sandbox.close();
  // Whatever failed in this file, no message or field carried the token.
  for (const error of seen) expect(JSON.stringify(error)).not.toContain(sandbox.token);
});

beforeEach(async () => {
  await resetSandbox();
  api = client();
});

afterEach(async () => {
  await clearFaults();
});

describe('401 / 403', () => {
  it('a wrong token is unauthorized, asks to reconnect, and is not retried', async () => {
    const wrong = client({ token: 'not-the-token-1234' });
    const error = await failureOf(wrong.listRewards());
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, endpoint: '/v1/panel/rewards' });
    expect(error.message).toBe(UNAUTHORIZED_MESSAGE);
    expect(error.message).toBe('Your personal key was not accepted. Reconnect in Settings.');
    expect(error.message).not.toContain('not-the-token-1234');
    expect(await count('/v1/panel/rewards')).toBe(1);
  });

  it("403 is not a rejected token: not_allowed with the panel's own message, not retried", async () => {
    await fault({
      path: '/v1/panel/variables/meta',
      status: 403,
      body: JSON.stringify({ message: `  Profile editing is\n closed for   your account (${sandbox.token}).  ` }),
    });
    const error = await failureOf(api.listVariables());
    expect(error).toMatchObject({ kind: 'not_allowed', status: 403, endpoint: '/v1/panel/variables/meta' });
    expect(error.message).toBe('Profile editing is closed for your account ([token]).');
    expect(error.message).not.toBe(UNAUTHORIZED_MESSAGE);
    expect(await count('/v1/panel/variables/meta')).toBe(1);
  });

  it('a 403 without a message says the panel does not allow it and what to do', async () => {
    await fault({ path: '/v1/panel/rewards', status: 403, body: '<html>Forbidden</html>' });
    const error = await failureOf(api.listRewards());
    expect(error).toMatchObject({ kind: 'not_allowed', status: 403 });
    expect(error.message).toBe(
      'The panel does not allow this action for your account (HTTP 403). If you think this should be allowed, contact your panel’s support.',
    );
  });

  it('a long 403 message is cut like every server message', async () => {
    await fault({ path: '/v1/panel/rewards', status: 403, body: JSON.stringify({ message: 'No. '.repeat(200) }) });
    const error = await failureOf(api.listRewards());
    expect(error.kind).toBe('not_allowed');
    expect(error.message.length).toBeLessThanOrEqual(300);
    expect(error.message.endsWith('…')).toBe(true);
  });

  it('a redeem answered 403 is not_allowed, sent once, and nothing is redeemed', async () => {
    await fault({
      path: '/v1/panel/redemption',
      status: 403,
      body: '{"message":"Redemptions are paused for your account."}',
    });
    const error = await failureOf(api.redeem(rid(101)));
    expect(error).toMatchObject({
      kind: 'not_allowed',
      status: 403,
      message: 'Redemptions are paused for your account.',
      panelWords: true,
    });
    expect(await count('/v1/panel/redemption')).toBe(1);
    expect(sandbox.state.balance).toBe(2500);
  });

  it('a refusal is marked as the panel’s own words only when they are: a bare status gets the client’s, unmarked', async () => {
    await fault({
      path: '/v1/panel/redemption',
      status: 422,
      body: '{"message":"This reward is temporarily unavailable."}',
    });
    expect(await failureOf(api.redeem(rid(101)))).toMatchObject({
      kind: 'rejected',
      message: 'This reward is temporarily unavailable.',
      panelWords: true,
    });
    await fault({ path: '/v1/panel/redemption', status: 422, body: '' });
    const bare = await failureOf(api.redeem(rid(101)));
    expect(bare).toMatchObject({ kind: 'rejected', status: 422 });
    expect(bare.panelWords).toBeUndefined();
    await fault({ path: '/v1/panel/rewards', status: 403, body: '<html>Forbidden</html>' });
    expect((await failureOf(api.listRewards())).panelWords).toBeUndefined();
  });
});

describe('Laravel-style 422 bodies', () => {
  it("the sandbox's refusal of several fields at once gives each field its own text", async () => {
    const error = await failureOf(
      api.updateValues({ FIRST_NAME: 'Sam', BIRTH_DATE: '2023-02-29', EMPLOYMENT: 999, PANELIST_COUNTRY: 'DE' }),
    );
    expect(error).toMatchObject({
      kind: 'rejected',
      status: 422,
      field: 'BIRTH_DATE',
      message: '2023-02-29 is not a valid date for BIRTH_DATE (and 2 more errors)',
      fields: {
        BIRTH_DATE: '2023-02-29 is not a valid date for BIRTH_DATE',
        EMPLOYMENT: 'Option 999 is not offered for EMPLOYMENT',
        PANELIST_COUNTRY: 'Variable PANELIST_COUNTRY is not writable',
      },
    });
    expect(Object.keys(error.fields!)).toEqual(['BIRTH_DATE', 'EMPLOYMENT', 'PANELIST_COUNTRY']);
    expect(sandbox.state.values.FIRST_NAME).toBe('Jordan');
  });

  it("joins a field's texts, files nested keys under their variable, redacts and bounds them", async () => {
    await fault({
      method: 'POST',
      path: '/v1/panel/variables/data',
      status: 422,
      body: JSON.stringify({
        message: 'The given data was invalid.',
        errors: {
          FIRST_NAME: ['The first name is required.', `  It may not\n contain ${sandbox.token}. `],
          'HOBBIES.0': ['Option 9 is not offered.'],
          'HOBBIES.1': ['Option 8 is not offered.'],
          POSTAL_CODE: ['x'.repeat(400)],
        },
      }),
    });
    const error = await failureOf(api.updateValues({ FIRST_NAME: '', HOBBIES: [9, 8], POSTAL_CODE: '1' }));
    expect(error).toMatchObject({
      kind: 'rejected',
      status: 422,
      field: 'FIRST_NAME',
      message: 'The given data was invalid.',
    });
    expect(error.fields).toEqual({
      FIRST_NAME: 'The first name is required. It may not contain [token].',
      HOBBIES: 'Option 9 is not offered. Option 8 is not offered.',
      POSTAL_CODE: `${'x'.repeat(299)}…`,
    });
  });

  it('a refusal of a variable whose name holds a dot is filed under that name, not under the part before the dot', async () => {
    await fault({
      method: 'POST',
      path: '/v1/panel/variables/data',
      status: 422,
      body: JSON.stringify({
        message: 'The given data was invalid.',
        errors: {
          'PET.TYPE': ['Choose a pet.'],
          'PET.TYPE.0': ['Option 4 is retired.'],
          'HOBBIES.1': ['Option 8 is not offered.'],
        },
      }),
    });
    const error = await failureOf(api.updateValues({ 'PET.TYPE': [4], PET: 'cat', HOBBIES: [1, 8] }));
    expect(error).toMatchObject({ kind: 'rejected', field: 'PET.TYPE' });
    expect(error.fields).toEqual({
      'PET.TYPE': 'Choose a pet. Option 4 is retired.',
      HOBBIES: 'Option 8 is not offered.',
    });
  });

  it("without a top-level message, the first field's text is the message", async () => {
    await fault({
      method: 'POST',
      path: '/v1/panel/variables/data',
      status: 422,
      body: '{"errors":{"BIRTH_DATE":["Must be in the past."]}}',
    });
    const error = await failureOf(api.updateValues({ BIRTH_DATE: '2999-01-01' }));
    expect(error).toMatchObject({
      kind: 'rejected',
      field: 'BIRTH_DATE',
      message: 'Must be in the past.',
      fields: { BIRTH_DATE: 'Must be in the past.' },
    });
  });

  it('hostile `errors` shapes never crash and never pollute a prototype', async () => {
    const shapes: unknown[] = [
      null,
      'FIRST_NAME is wrong',
      ['FIRST_NAME'],
      42,
      { FIRST_NAME: 5, BIRTH_DATE: null, HOBBIES: { 0: 'x' } },
      { FIRST_NAME: [1, null, {}, ['nested']], '': ['no name'], '   ': ['blank name'] },
      JSON.parse('{"__proto__": ["polluted"], "constructor": ["c"]}'),
      Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`NAME_${i}`, ['bad']])),
    ];
    for (const errors of shapes) {
      await fault({
        method: 'POST',
        path: '/v1/panel/variables/data',
        status: 422,
        body: JSON.stringify({ message: 'Invalid.', errors }),
      });
      const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam' }));
      expect(error).toMatchObject({ kind: 'rejected', status: 422, message: 'Invalid.' });
      if (error.fields !== undefined) {
        expect(Object.keys(error.fields).length).toBeLessThanOrEqual(100);
        for (const [name, text] of Object.entries(error.fields)) {
          expect(name.trim()).not.toBe('');
          expect(typeof text).toBe('string');
          expect(text.trim()).not.toBe('');
        }
      }
      expect(Object.keys(Object.prototype)).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    const proto = await (async () => {
      await fault({
        method: 'POST',
        path: '/v1/panel/variables/data',
        status: 422,
        body: '{"errors":{"__proto__":["p"]}}',
      });
      return failureOf(api.updateValues({ FIRST_NAME: 'Sam' }));
    })();
    expect(Object.hasOwn(proto.fields!, '__proto__')).toBe(true);
    // Null-prototype (utils/by-name.ts): no name a panel gives reaches Object.prototype.
    expect(Object.getPrototypeOf(proto.fields)).toBeNull();
  });
});

describe('4xx refusals carry the server message', () => {
  it('insufficient points: 402 → rejected with the server message; nothing redeemed', async () => {
    await patchState({ balance: 100 });
    const before = sandbox.state.redemptions.length;
    const error = await failureOf(api.redeem(rid(103)));
    expect(error).toMatchObject({ kind: 'rejected', status: 402, endpoint: '/v1/panel/redemption' });
    expect(error.message).toBe('Insufficient points: this reward needs 2500 points and you have 100.');
    expect(sandbox.state.balance).toBe(100);
    expect(sandbox.state.redemptions).toHaveLength(before);
    expect(await count('/v1/panel/redemption')).toBe(1);
  });

  it('non-writable variable: rejected with the field', async () => {
    const error = await failureOf(api.updateValues({ PANELIST_COUNTRY: 'DE' }));
    expect(error).toMatchObject({
      kind: 'rejected',
      status: 422,
      field: 'PANELIST_COUNTRY',
      message: 'Variable PANELIST_COUNTRY is not writable',
    });
    expect(sandbox.state.values.PANELIST_COUNTRY).toBe('US');
  });

  it('deleting a non-writable value: rejected with the field', async () => {
    const error = await failureOf(api.deleteValue('PANELIST_COUNTRY'));
    expect(error).toMatchObject({ kind: 'rejected', status: 422, field: 'PANELIST_COUNTRY' });
    expect(sandbox.state.values.PANELIST_COUNTRY).toBe('US');
  });

  it('an option that is not offered: rejected with the field and the server message', async () => {
    const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam', EMPLOYMENT: 999 }));
    expect(error).toMatchObject({ kind: 'rejected', status: 422, field: 'EMPLOYMENT' });
    expect(error.message).toBe('Option 999 is not offered for EMPLOYMENT');
    expect(sandbox.state.values.FIRST_NAME).toBe('Jordan');
  });

  it('an exclusive option combined with another: rejected', async () => {
    const hobbies = sandbox.state.variables.find((d) => d.name === 'HOBBIES')!;
    const exclusive = hobbies.options.find((o) => o.exclusive)!;
    const other = hobbies.options.find((o) => !o.exclusive)!;
    const error = await failureOf(api.updateValues({ HOBBIES: [other.id, exclusive.id] }));
    expect(error).toMatchObject({ kind: 'rejected', field: 'HOBBIES' });
    expect(error.message).toContain('exclusive');
  });

  it('without a field in the body, the field is the variable the message names', async () => {
    await fault({
      method: 'POST',
      path: '/v1/panel/variables/data',
      status: 422,
      body: JSON.stringify({ message: 'BIRTH_DATE must be in the past' }),
    });
    const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam', BIRTH_DATE: '2999-01-01' }));
    expect(error).toMatchObject({ kind: 'rejected', field: 'BIRTH_DATE', message: 'BIRTH_DATE must be in the past' });
  });

  it('a 4xx without a human message still says what happened', async () => {
    await fault({ path: '/v1/panel/rewards', status: 400, body: 'Bad Request' });
    const error = await failureOf(api.listRewards());
    expect(error).toMatchObject({
      kind: 'rejected',
      status: 400,
      message: 'The panel refused the request (HTTP 400).',
    });
    expect(await count('/v1/panel/rewards')).toBe(1);
  });

  it('an unknown reward: 404 → rejected with the server message', async () => {
    const error = await failureOf(api.redeem(rid(424242)));
    expect(error).toMatchObject({ kind: 'rejected', status: 404, message: 'Unknown reward: 424242' });
  });
});

describe('429', () => {
  it('a read waits a short Retry-After and retries once', async () => {
    await fault({ path: '/v1/panel/rewards', status: 429, headers: { 'Retry-After': '1' } });
    const started = Date.now();
    const { rewards } = await api.listRewards();
    const elapsed = Date.now() - started;
    expect(rewards).toHaveLength(10);
    expect(await count('/v1/panel/rewards')).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    const [first, second] = (await recorded()) as (Recorded & { at: number })[];
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('a read with a Retry-After above the cap fails at once as rate_limited', async () => {
    await fault({ path: '/v1/panel/rewards', status: 429, headers: { 'Retry-After': '30' } });
    // Waiting out the 30 s would outlast the test's own time-out: failing at once is all it can do.
    const error = await failureOf(api.listRewards());
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterSeconds: 30 });
    expect(error.message).toContain('Try again in 30 s');
    expect(await count('/v1/panel/rewards')).toBe(1);
  });

  it('the cap is configurable, and an HTTP date counts as Retry-After', async () => {
    const date = new Date(Date.now() + 120_000).toUTCString();
    await fault({ path: '/v1/panel/redemptions', status: 429, headers: { 'Retry-After': date } });
    const error = await failureOf(client({ maxRetryAfterSeconds: 60 }).listRedemptions());
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBeGreaterThan(100);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(121);
    expect(await count('/v1/panel/redemptions')).toBe(1);
  });

  it('a read is retried once only: a second 429 fails', async () => {
    await fault({ path: '/v1/panel/variables/meta', status: 429, headers: { 'Retry-After': '0' }, times: 2 });
    const error = await failureOf(api.listVariables());
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 0 });
    expect(await count('/v1/panel/variables/meta')).toBe(2);
  });

  it('a write is not retried even with a short Retry-After', async () => {
    await fault({ method: 'POST', path: '/v1/panel/variables/data', status: 429, headers: { 'Retry-After': '0' } });
    const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam' }));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 0 });
    expect(await count('/v1/panel/variables/data')).toBe(1);
    expect(sandbox.state.values.FIRST_NAME).toBe('Jordan');
  });

  it('a redeem is not retried either', async () => {
    await fault({ path: '/v1/panel/redemption', status: 429, headers: { 'Retry-After': '0' } });
    const error = await failureOf(api.redeem(rid(101)));
    expect(error.kind).toBe('rate_limited');
    expect(await count('/v1/panel/redemption')).toBe(1);
    expect(sandbox.state.balance).toBe(2500);
  });
});

describe('5xx', () => {
  it('a read retries after a 500 and succeeds', async () => {
    await fault({ path: '/v1/panel/rewards', status: 500 });
    const { rewards, balance } = await api.listRewards();
    expect(rewards).toHaveLength(10);
    expect(balance).toBe(2500);
    expect(await count('/v1/panel/rewards')).toBe(2);
  });

  it('a read gives up after the configured retries with a server error', async () => {
    await fault({ path: '/v1/panel/redemptions', status: 503, times: 10 });
    const error = await failureOf(api.listRedemptions());
    expect(error).toMatchObject({ kind: 'server', status: 503, endpoint: '/v1/panel/redemptions' });
    expect(error.message).toContain('Try again later');
    expect(await count('/v1/panel/redemptions')).toBe(3); // 1 + 2 retries (the default)
  });

  it('honours retries: 0', async () => {
    await fault({ path: '/v1/panel/redemptions', status: 500, times: 10 });
    await failureOf(client({ retries: 0 }).listRedemptions());
    expect(await count('/v1/panel/redemptions')).toBe(1);
  });

  it('backs off between retries', async () => {
    await fault({ path: '/v1/panel/redemptions', status: 500, times: 10 });
    await failureOf(client({ retries: 2, retryBaseDelayMs: 100 }).listRedemptions());
    const times = (await recorded()).map((r) => (r as Recorded & { at: number }).at);
    expect(times).toHaveLength(3);
    // base 100: first wait 50–100 ms, second 100–200 ms (jittered into the upper half).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(45);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(95);
  });

  it('a redeem answered 500 is NOT retried and says to check the history', async () => {
    await fault({ path: '/v1/panel/redemption', status: 500, times: 10 });
    const error = await failureOf(api.redeem(rid(101)));
    expect(error).toMatchObject({ kind: 'server', status: 500, endpoint: '/v1/panel/redemption' });
    expect(error.message).toContain('redemption history');
    expect(await count('/v1/panel/redemption')).toBe(1);
  });

  it('a write answered 500 is not retried', async () => {
    await fault({ method: 'DELETE', status: 500, times: 10 });
    const error = await failureOf(api.deleteValue('FIRST_NAME'));
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect(await count('/v1/panel/variables/data/FIRST_NAME')).toBe(1);
  });
});

describe('time-out', () => {
  // The sandbox holds the slow answers until the test lets them through (`held`), so each case is
  // slow by construction, not by a delay a busy machine could outrun; and the answers that must
  // arrive in time have all the time a loaded machine may need.
  const released = () => control('POST', '/release');

  it('a read that takes too long fails as timeout after its retries', async () => {
    await fault({ path: '/v1/panel/rewards', held: true, times: 10 });
    const error = await failureOf(client({ timeoutMs: 80, retries: 1 }).listRewards());
    expect(error).toMatchObject({ kind: 'timeout', endpoint: '/v1/panel/rewards' });
    expect(error.message).toContain('0.1 s');
    expect(await count('/v1/panel/rewards')).toBe(2);
    await released();
  });

  it('a read that times out once is retried and succeeds', async () => {
    await fault({ path: '/v1/panel/variables/meta', held: true });
    const definitions = await client({ timeoutMs: 2_000 }).listVariables();
    expect(definitions.length).toBeGreaterThan(0);
    expect(await count('/v1/panel/variables/meta')).toBe(2);
    await released();
  });

  it('a redeem that times out is not retried: it may still go through', async () => {
    await fault({ path: '/v1/panel/redemption', held: true });
    const error = await failureOf(client({ timeoutMs: 60 }).redeem(rid(101)));
    expect(error).toMatchObject({ kind: 'timeout', endpoint: '/v1/panel/redemption' });
    expect(error.message).toContain('redemption history');
    expect(await count('/v1/panel/redemption')).toBe(1);
    // The panel finishes the redemption after the client gave up: a blind retry would redeem twice.
    expect(await released()).toMatchObject({ released: 1 });
    await vi.waitFor(() => expect(sandbox.state.balance).toBe(2000));
    expect(await count('/v1/panel/redemption')).toBe(1);
  });
});

describe('network', () => {
  it('a dropped connection on a read is retried, then fails as network', async () => {
    await fault({ path: '/v1/panel/rewards', drop: true, times: 10 });
    const error = await failureOf(api.listRewards());
    expect(error).toMatchObject({ kind: 'network', endpoint: '/v1/panel/rewards' });
    expect(error.message).toContain(sandbox.url);
    expect(await count('/v1/panel/rewards')).toBe(3);
  });

  it('a connection dropped once on a read is retried and succeeds', async () => {
    await fault({ path: '/v1/panel/redemptions', drop: true });
    expect((await api.listRedemptions()).length).toBeGreaterThan(0);
    expect(await count('/v1/panel/redemptions')).toBe(2);
  });

  it('a dropped redeem is not retried', async () => {
    await fault({ path: '/v1/panel/redemption', drop: true, times: 10 });
    const error = await failureOf(api.redeem(rid(101)));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('redemption history');
    expect(await count('/v1/panel/redemption')).toBe(1);
  });

  it('nothing listening is a network failure', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failureOf(client({ baseUrl: `http://127.0.0.1:${port}`, retries: 1 }).listVariables());
    expect(error.kind).toBe('network');
  });
});

describe('unexpected responses', () => {
  it('malformed JSON names the endpoint and is not retried', async () => {
    await fault({ path: '/v1/panel/rewards', status: 200, body: '{"message":"success","rewards":[{"id":1,' });
    const error = await failureOf(api.listRewards());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/rewards' });
    expect(error.message).toMatch(/^Unexpected response from \/v1\/panel\/rewards: the body is not JSON\./);
    expect(await count('/v1/panel/rewards')).toBe(1);
  });

  it('an empty 200 body is unexpected', async () => {
    await fault({ path: '/v1/panel/redemptions', status: 200, body: '' });
    const error = await failureOf(api.listRedemptions());
    expect(error.kind).toBe('unexpected');
    expect(error.message).toContain('/v1/panel/redemptions: the body is empty');
  });

  it('a body of the wrong shape names the endpoint and the place', async () => {
    await fault({ path: '/v1/panel/rewards', status: 200, body: '{"message":"success","rewards":"none"}' });
    const error = await failureOf(api.listRewards());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/rewards' });
    expect(error.message).toMatch(/^Unexpected response from \/v1\/panel\/rewards: rewards: expected Array/);
  });

  it('a reward with a non-integer id is unexpected', async () => {
    await patchState({ rewards: [{ ...sandbox.state.rewards[0], id: 'abc' }] });
    const error = await failureOf(api.listRewards());
    expect(error.kind).toBe('unexpected');
    expect(error.message).toContain('rewards.0.id');
  });

  it('a redemption with a non-boolean flag is read alone, its state left unread; the rest of the history reads', async () => {
    const [first, ...rest] = sandbox.state.redemptions;
    await patchState({ redemptions: [{ ...first, processed: 'yes' }, ...rest] });
    const history = await api.listRedemptions();
    expect(history).toHaveLength(rest.length + 1);
    expect(history[0]).toMatchObject({ id: String(first!.id), processed: false, stateUnreadable: true });
    for (const r of history.slice(1)) expect(r).not.toHaveProperty('stateUnreadable');
  });

  it('a redemption without an id refuses the history: the ledger could not tell it apart', async () => {
    const { id: _id, ...noId } = sandbox.state.redemptions[0]!;
    await patchState({ redemptions: [noId, ...sandbox.state.redemptions.slice(1)] as never });
    const error = await failureOf(api.listRedemptions());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/redemptions' });
    expect(error.message).toContain('redemptions.0.id');
  });

  it('a definition list that is not a list is unexpected', async () => {
    await fault({ path: '/v1/panel/variables/meta', status: 200, body: '{"message":"success","data":{}}' });
    const error = await failureOf(api.listVariables());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/variables/meta' });
  });

  it('stored values in neither accepted shape are unexpected', async () => {
    await fault({
      path: '/v1/panel/variables/data',
      status: 200,
      body: '{"message":"success","data":"FIRST_NAME=Jordan"}',
    });
    const error = await failureOf(api.readValues());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/variables/data' });
    expect(error.message).toMatch(/^Unexpected response from \/v1\/panel\/variables\/data: data/);
  });

  it('a stored-value record that names no variable makes the whole read unexpected, never "no answers"', async () => {
    await fault({
      path: '/v1/panel/variables/data',
      status: 200,
      body: '{"message":"success","data":[{"name":"FIRST_NAME","value":"Ann"},{"variable_id":12,"value":"34"}]}',
    });
    const error = await failureOf(api.readValues());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/variables/data' });
    expect(error.message).toMatch(/^Unexpected response from \/v1\/panel\/variables\/data: data\.1\.name: missing\./);
  });

  it('a named stored-value record without a value is an answer held, named unreadable; a null is passed over', async () => {
    await fault({
      path: '/v1/panel/variables/data',
      status: 200,
      body: '{"message":"success","data":[{"name":"AGE","answer":"34"},null,{"name":"FIRST_NAME","value":"Ann"}]}',
    });
    // The read the background makes (entrypoints/background/sync/revalidate.ts), which gives the names held.
    const answer = await api.revalidate('variablesData', null);
    expect(answer).toMatchObject({ notModified: false, data: { unreadable: ['AGE'] } });
    expect({ ...(answer.notModified ? {} : answer.data.values) }).toEqual({ FIRST_NAME: 'Ann' });
  });
});

describe('a write whose message is not success', () => {
  it('update: unexpected, quoting the server', async () => {
    await fault({
      method: 'POST',
      path: '/v1/panel/variables/data',
      status: 200,
      body: '{"message":"queued for review"}',
    });
    const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam' }));
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/variables/data' });
    expect(error.message).toContain('“queued for review”');
    expect(error.message).toContain('Reload');
  });

  it('delete: a body without message is unexpected', async () => {
    await fault({ method: 'DELETE', status: 200, body: '{}' });
    const error = await failureOf(api.deleteValue('FIRST_NAME'));
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/variables/data/FIRST_NAME' });
    expect(error.message).toContain('Unexpected response from /v1/panel/variables/data/FIRST_NAME: message');
  });

  it('redeem: unexpected, telling to check the history', async () => {
    await fault({ path: '/v1/panel/redemption', status: 200, body: '{"message":"error"}' });
    const error = await failureOf(api.redeem(rid(101)));
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/redemption' });
    expect(error.message).toContain('“error”');
    expect(error.message).toContain('redemption history');
    expect(await count('/v1/panel/redemption')).toBe(1);
  });
});

describe('a redirect answer (none is followed, so no hop leaves before it is checked)', () => {
  /** A second server on 127.0.0.1, standing for wherever a hijacked or misconfigured panel points. */
  let elsewhere: Sandbox;
  const panelHost = () => new URL(sandbox.url).host;
  const redirect = (method: string, path: string, status: number, to = `${elsewhere.url}${path}`) =>
    fault({ method, path, status, headers: { Location: to }, body: '{"message":"Moved"}' });

  beforeAll(async () => {
    elsewhere = await startSandbox({ port: 0, token: sandbox.token });
  });
  beforeEach(() => elsewhere.reset());
  afterAll(() => elsewhere.close());

  it.each([301, 302, 303, 307, 308])(
    'a read answered %i towards another site is refused before anything is sent there, naming both hosts, and not retried',
    async (status) => {
      await redirect('GET', '/v1/panel/rewards', status);
      const error = await failureOf(api.listRewards());
      expect(error).toMatchObject({
        kind: 'unexpected',
        endpoint: '/v1/panel/rewards',
        status,
        redirect: { to: `${elsewhere.url}/v1/panel/rewards` },
      });
      expect(error.message).toBe(
        `The panel at ${panelHost()} pointed the request to another site (${new URL(elsewhere.url).host}), and it was not sent there. ` +
          `The extension only talks to ${panelHost()}: check the API base URL on the options page, or contact your panel.`,
      );
      expect(elsewhere.requests).toEqual([]);
      expect(await count('/v1/panel/rewards')).toBe(1);
    },
  );

  it.each(['http://169.254.169.254/latest/meta-data/', 'https://evil.example/v1/panel/rewards'])(
    'a read pointed to %s is not sent there',
    async (to) => {
      await redirect('GET', '/v1/panel/rewards', 302, to);
      const error = await failureOf(api.listRewards());
      expect(error.redirect).toEqual({ to });
      expect(error.message).toContain(
        `pointed the request to another site (${new URL(to).host}), and it was not sent there`,
      );
      expect(await count('/v1/panel/rewards')).toBe(1);
    },
  );

  it('a read redirected within the panel is not followed either: a browser would hide where it points', async () => {
    await redirect('GET', '/v1/panel/redemptions', 301, `${sandbox.url}/api/v1/panel/redemptions`);
    const error = await failureOf(api.listRedemptions());
    expect(error).toMatchObject({ kind: 'unexpected', status: 301, endpoint: '/v1/panel/redemptions' });
    expect(error.message).toBe(
      `The panel at ${panelHost()} answered with a redirect, which the extension does not follow, so nothing was read. ` +
        'Check the API base URL on the options page (the panel may have moved), or contact your panel.',
    );
    expect(await count('/v1/panel/redemptions')).toBe(1);
  });

  it('a redirect without a Location is refused the same way', async () => {
    await fault({ method: 'GET', path: '/v1/panel/rewards', status: 302, body: '' });
    const error = await failureOf(api.listRewards());
    expect(error).toMatchObject({ kind: 'unexpected', status: 302, redirect: {} });
    expect(await count('/v1/panel/rewards')).toBe(1);
  });

  it.each([307, 308, 302])('a write answered %i is refused and its body never re-sent elsewhere', async (status) => {
    await redirect('POST', '/v1/panel/variables/data', status);
    const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam' }));
    expect(error).toMatchObject({ kind: 'unexpected', status, endpoint: '/v1/panel/variables/data' });
    expect(error.message).toContain(`The panel at ${panelHost()} answered with a redirect`);
    expect(elsewhere.requests).toEqual([]);
    expect(elsewhere.state.values.FIRST_NAME).toBe('Jordan');
    expect(await count('/v1/panel/variables/data')).toBe(1);
  });

  it('a delete answered 307 is refused and not re-sent', async () => {
    await redirect('DELETE', '/v1/panel/variables/data/FIRST_NAME', 307);
    const error = await failureOf(api.deleteValue('FIRST_NAME'));
    expect(error).toMatchObject({ kind: 'unexpected', status: 307 });
    expect(elsewhere.requests).toEqual([]);
    expect(elsewhere.state.values.FIRST_NAME).toBe('Jordan');
  });

  it('a write redirected within the panel is not re-sent either', async () => {
    await redirect('POST', '/v1/panel/variables/data', 307, `${sandbox.url}/v1/panel/variables/data?again=1`);
    const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam' }));
    expect(error.kind).toBe('unexpected');
    expect(await count('/v1/panel/variables/data')).toBe(1);
    expect(sandbox.state.values.FIRST_NAME).toBe('Jordan');
  });

  it.each([307, 308, 303])(
    'a redeem answered %i is ambiguous (unexpected), sent once, and never re-sent elsewhere',
    async (status) => {
      await redirect('GET', '/v1/panel/redemption', status);
      const error = await failureOf(api.redeem(rid(101)));
      expect(error).toMatchObject({ kind: 'unexpected', status, endpoint: '/v1/panel/redemption' });
      expect(error.message).toBe(
        `The panel at ${panelHost()} answered the redemption with a redirect; the request was not sent on anywhere else. ` +
          'It may or may not have gone through: check your redemption history before trying again.',
      );
      expect(elsewhere.requests).toEqual([]);
      expect(elsewhere.state.balance).toBe(2500);
      expect(await count('/v1/panel/redemption')).toBe(1);
    },
  );
});

describe('the token never reaches a message', () => {
  it('a server message echoing the token is redacted', async () => {
    await fault({
      path: '/v1/panel/rewards',
      status: 400,
      body: JSON.stringify({ message: `Token ${sandbox.token} is malformed`, field: sandbox.token }),
    });
    const error = await failureOf(api.listRewards());
    expect(error.kind).toBe('rejected');
    expect(error.message).toBe('Token [token] is malformed');
    expect(error.field).toBe('[token]');
  });

  it('a write quoting the token is redacted', async () => {
    await fault({ method: 'POST', status: 200, body: JSON.stringify({ message: `hello ${sandbox.token}` }) });
    const error = await failureOf(api.updateValues({ FIRST_NAME: 'Sam' }));
    expect(error.message).toContain('[token]');
  });
});

describe('refused before sending', () => {
  it('variable names that could step out of the path or break the body are refused, with nothing sent', async () => {
    for (const name of ['.', '..', '', 'A/B', '../rewards', 'FIRST\u0000NAME', 'FIRST_NAME\n', '\u007f', 'A\u0085B']) {
      const deleted = await failureOf(api.deleteValue(name));
      expect(deleted.kind, JSON.stringify(name)).toBe('invalid_input');
      const updated = await failureOf(api.updateValues({ FIRST_NAME: 'Sam', [name]: 'x' }));
      expect(updated.kind, JSON.stringify(name)).toBe('invalid_input');
    }
    expect((await failureOf(api.deleteValue('..'))).message).toBe(
      '“..” is not a variable name the extension can send. Reload your profile and try again.',
    );
    expect((await failureOf(api.deleteValue('A\u0000B'))).message).toContain('“A\uFFFDB”');
    expect(await recorded()).toHaveLength(0);
    // Dots inside a name are fine: only a whole `.` or `..` segment is a path step.
    await failureOf(api.deleteValue('A..B'));
    expect((await recorded()).map((r) => r.path)).toEqual(['/v1/panel/variables/data/A..B']);
  });

  it('invalid ids, names and values are invalid_input and send nothing', async () => {
    // Only an id the catalogue gave reaches the client; anything else is refused before sending.
    expect((await failureOf(api.redeem('1.5' as RewardId))).kind).toBe('invalid_input');
    expect((await failureOf(api.redeem('-1' as RewardId))).kind).toBe('invalid_input');
    expect((await failureOf(api.redeem(1 as unknown as RewardId))).kind).toBe('invalid_input');
    expect((await failureOf(api.deleteValue(' '))).kind).toBe('invalid_input');
    const badValue = await failureOf(api.updateValues({ FIRST_NAME: Number.NaN }));
    expect(badValue).toMatchObject({ kind: 'invalid_input', field: 'FIRST_NAME' });
    expect(await recorded()).toHaveLength(0);
  });

  it('a bad base URL or token throws invalid_input at creation', () => {
    const creation = (config: Parameters<typeof createPanelApi>[0]) => {
      try {
        createPanelApi(config);
      } catch (error) {
        expect(error).toBeInstanceOf(AppErrorException);
        seen.push((error as AppErrorException).error);
        return (error as AppErrorException).error;
      }
      throw new Error('expected creation to fail');
    };
    expect(creation({ baseUrl: 'not a url', token: 't' }).kind).toBe('invalid_input');
    expect(creation({ baseUrl: 'ftp://panel.example', token: 't' }).kind).toBe('invalid_input');
    expect(creation({ baseUrl: 'https://user:pw@panel.example', token: 't' }).kind).toBe('invalid_input');
    const spaced = creation({ baseUrl: sandbox.url, token: 'secret token\nX' });
    expect(spaced.kind).toBe('invalid_input');
    expect(spaced.message).not.toContain('secret');
    expect(creation({ baseUrl: sandbox.url, token: '' }).kind).toBe('invalid_input');
  });
});
