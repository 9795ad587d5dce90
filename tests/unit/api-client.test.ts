// @vitest-environment node
/**
 * The panel API client against the sandbox over real HTTP: every endpoint's success path, the
 * requests it really sends, both stored-value shapes and every balance source.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPanelApi, type PanelClient } from '../../utils/api/client';
import { isImpossible, resolveBalance, type BodyBalance } from '../../utils/balance';
import { AppErrorException } from '../../utils/errors';
import type { Reward } from '../../utils/types';
import type { Sandbox } from '../sandbox/server';
import { client, patchState, recorded, resetSandbox, startApiSandbox, type Recorded } from './api-fixtures';
import { parsed, parsedReward, rid } from './test-ids';

let sandbox: Sandbox;
let api: PanelClient;

async function only(): Promise<Recorded> {
  const requests = await recorded();
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

function expectStandardHeaders(request: Recorded, token: string) {
  expect(request.headers['authorization']).toBe(`Bearer ${token}`);
  expect(request.headers['accept']).toBe('application/json');
}

beforeAll(async () => {
  sandbox = await startApiSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(async () => {
  await resetSandbox();
  api = client({ timeoutMs: 2000 });
});

describe('listVariables', () => {
  it('GETs /v1/panel/variables/meta and returns every definition', async () => {
    const definitions = await api.listVariables();
    expect(definitions).toEqual(sandbox.state.variables);
    const names = definitions.map((d) => d.name);
    expect(names).toEqual(
      expect.arrayContaining(['FIRST_NAME', 'BIRTH_DATE', 'HOBBIES', 'EMPLOYMENT', 'PANELIST_COUNTRY']),
    );
    expect(definitions.find((d) => d.name === 'PANELIST_COUNTRY')?.writable).toBe(false);
    expect(definitions.find((d) => d.name === 'HOBBIES')?.options.some((o) => o.exclusive)).toBe(true);

    const request = await only();
    expect(request).toMatchObject({ method: 'GET', path: '/v1/panel/variables/meta', query: {}, body: null });
    expectStandardHeaders(request, sandbox.token);
    expect(request.headers['content-type']).toBeUndefined();
  });
});

describe('readValues', () => {
  it('GETs /v1/panel/variables/data and reads the records shape', async () => {
    await patchState({ valuesShape: 'records' });
    const { values, balance } = await api.readValues();
    expect(values).toEqual(sandbox.state.values);
    expect(values).toMatchObject({
      FIRST_NAME: 'Jordan',
      BIRTH_DATE: '1988-04-17',
      HOBBIES: [131, 133],
      EMPLOYMENT: 141,
    });
    expect(balance).toBeNull(); // the seed exposes the balance in the rewards response only

    const request = await only();
    expect(request).toMatchObject({ method: 'GET', path: '/v1/panel/variables/data', query: {}, body: null });
    expectStandardHeaders(request, sandbox.token);
  });

  it('reads the object-map shape to the same values', async () => {
    await patchState({ valuesShape: 'map' });
    const { values } = await api.readValues();
    expect(values).toEqual(sandbox.state.values);
  });

  it('sends filter=writable when asked and gets writable values only', async () => {
    const { values } = await api.readValues({ writableOnly: true });
    expect(values).not.toHaveProperty('PANELIST_COUNTRY');
    expect(values).toHaveProperty('FIRST_NAME', 'Jordan');
    const request = await only();
    expect(request.query).toEqual({ filter: 'writable' });
  });

  it('normalises odd stored values planted in the state', async () => {
    await patchState({ valuesShape: 'records', values: { FIRST_NAME: '0042', HOBBIES: [], EMPLOYMENT: 142 } });
    const { values } = await api.readValues();
    expect(values).toEqual({ FIRST_NAME: '0042', HOBBIES: [], EMPLOYMENT: 142 });
  });
});

describe('updateValues', () => {
  it('POSTs the values as JSON with Content-Type and stores them', async () => {
    const update = { FIRST_NAME: 'Sam', BIRTH_DATE: '1990-02-28', HOBBIES: [132], EMPLOYMENT: 142 };
    await expect(api.updateValues(update)).resolves.toBeUndefined();

    const request = await only();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/panel/variables/data', body: update });
    expectStandardHeaders(request, sandbox.token);
    expect(request.headers['content-type']).toBe('application/json');
    expect(sandbox.state.values).toMatchObject(update);

    const { values } = await api.readValues();
    expect(values).toMatchObject(update);
  });

  it('accepts an exclusive checkbox option on its own', async () => {
    const hobbies = sandbox.state.variables.find((d) => d.name === 'HOBBIES')!;
    const exclusive = hobbies.options.find((o) => o.exclusive)!;
    await api.updateValues({ HOBBIES: [exclusive.id] });
    expect(sandbox.state.values.HOBBIES).toEqual([exclusive.id]);
  });
});

describe('deleteValue', () => {
  it('DELETEs /v1/panel/variables/data/{name} and the value is gone', async () => {
    await expect(api.deleteValue('FIRST_NAME')).resolves.toBeUndefined();
    const request = await only();
    expect(request).toMatchObject({ method: 'DELETE', path: '/v1/panel/variables/data/FIRST_NAME', body: null });
    expectStandardHeaders(request, sandbox.token);
    expect(request.headers['content-type']).toBeUndefined();
    expect(sandbox.state.values).not.toHaveProperty('FIRST_NAME');
    expect((await api.readValues()).values).not.toHaveProperty('FIRST_NAME');
  });

  it('encodes the name as one path segment', async () => {
    const failure = await api.deleteValue('ODD NAME#1?x=%2e').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppErrorException);
    expect((failure as AppErrorException).error).toMatchObject({
      kind: 'rejected',
      status: 404,
      field: 'ODD NAME#1?x=%2e',
    });
    // The sandbox decoded the whole segment back: nothing leaked into the path, query or fragment.
    expect((failure as AppErrorException).error.message).toBe('Unknown variable: ODD NAME#1?x=%2e');
    const request = await only();
    expect(request.path).toBe('/v1/panel/variables/data/ODD%20NAME%231%3Fx%3D%252e');
    expect(request.query).toEqual({});
  });
});

describe('listRedemptions', () => {
  it('GETs /v1/panel/redemptions and returns the history', async () => {
    const redemptions = await api.listRedemptions();
    expect(redemptions).toEqual(sandbox.state.redemptions.map(parsed));
    expect(redemptions.length).toBeGreaterThan(0);
    expect(redemptions.every((r) => r.reward.reward_point_cost === null)).toBe(true);
    const request = await only();
    expect(request).toMatchObject({ method: 'GET', path: '/v1/panel/redemptions', body: null });
    expectStandardHeaders(request, sandbox.token);
  });

  it('reads missing nullable strings as null', async () => {
    const [first] = sandbox.state.redemptions;
    const trimmed: Record<string, unknown> = { ...first };
    delete trimmed.partner_status;
    delete trimmed.failed_reason;
    delete trimmed.transaction_id;
    await patchState({ redemptions: [trimmed] });
    const [redemption] = await api.listRedemptions();
    expect(redemption).toMatchObject({ partner_status: null, failed_reason: null, transaction_id: null });
  });
});

describe('listRewards', () => {
  it('GETs /v1/panel/rewards and returns both kinds of rewards and the balance', async () => {
    const { rewards, balance } = await api.listRewards();
    expect(rewards).toEqual(sandbox.state.rewards.map(parsedReward));
    expect(rewards).toHaveLength(10);
    expect(rewards.filter((r) => r.type === 'giftcard_aggregator')).toHaveLength(8);
    const wallets = rewards.filter((r) => r.type === 'payment_wallet');
    expect(wallets).toHaveLength(2);
    for (const wallet of wallets) expect(Object.keys(wallet.meta_data)).toEqual(['image_url']);
    expect(rewards.every((r) => Number.isInteger(r.reward_point_cost))).toBe(true);
    expect(balance).toBe(2500);

    const request = await only();
    expect(request).toMatchObject({ method: 'GET', path: '/v1/panel/rewards', body: null });
    expectStandardHeaders(request, sandbox.token);
  });

  it('keeps an unknown reward type, fills a missing image and ignores unknown fields', async () => {
    const base = sandbox.state.rewards[0]!;
    const odd: Record<string, unknown> = { ...base, id: 999, type: 'charity_donation', surprise: { a: 1 } };
    delete odd.image_url;
    delete odd.meta_data;
    await patchState({ rewards: [odd] });
    const { rewards } = await api.listRewards();
    const expected: Reward = { ...base, id: rid(999), type: 'charity_donation', image_url: '', meta_data: {} };
    expect(rewards).toEqual([expected]);
  });

  it('drops image addresses a page may not load, in rewards and in the history, before anything stores them', async () => {
    const base = sandbox.state.rewards[0]!;
    const hostile = {
      ...base,
      image_url: 'javascript:alert(1)',
      meta_data: {
        image_url: 'https://169.254.169.254/latest',
        image_urls: { '80w-326ppi': 'ftp://img.example/a.png' },
      },
    };
    await patchState({
      rewards: [hostile],
      redemptions: [{ ...sandbox.state.redemptions[0]!, reward: { ...hostile, reward_point_cost: null } }],
    });
    const { rewards } = await api.listRewards();
    expect(rewards[0]).toMatchObject({ image_url: '', meta_data: { image_url: '', image_urls: {} } });
    const [redemption] = await api.listRedemptions();
    expect(redemption!.reward).toMatchObject({ image_url: '', meta_data: { image_url: '', image_urls: {} } });
  });
});

describe('redeem', () => {
  it('sends GET /v1/panel/redemption?id=N without a body, and the sandbox redeems', async () => {
    const reward = sandbox.state.rewards.find((r) => r.reward_point_cost === 500)!;
    const before = sandbox.state.redemptions.length;
    await expect(api.redeem(rid(reward.id))).resolves.toBeUndefined();

    const request = await only();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/v1/panel/redemption');
    expect(request.query).toEqual({ id: String(reward.id) });
    expect(request.body).toBeNull();
    expect(request.headers['content-type']).toBeUndefined();
    expect(request.headers['content-length'] ?? '0').toBe('0');
    expectStandardHeaders(request, sandbox.token);

    expect(sandbox.state.balance).toBe(2000);
    expect(sandbox.state.redemptions).toHaveLength(before + 1);
    const history = await api.listRedemptions();
    expect(history.at(-1)).toMatchObject({ reward_point_cost: 500, reward: { id: rid(reward.id) } });
  });
});

describe('base URL', () => {
  it('joins a base URL with a trailing slash without doubling it', async () => {
    const slashed = createPanelApi({ baseUrl: `${sandbox.url}/`, token: sandbox.token });
    await slashed.listVariables();
    expect((await only()).path).toBe('/v1/panel/variables/meta');
  });
});

describe('balance sources (design §2) end to end', () => {
  const variableName = 'POINTS_BALANCE';

  async function resolved() {
    const [fromRewards, fromValues] = await Promise.all([api.listRewards(), api.readValues()]);
    const points = (found: BodyBalance) => {
      if (isImpossible(found)) throw new Error(`an impossible balance: ${found.impossible.message}`);
      return found;
    };
    return resolveBalance({
      rewards: points(fromRewards.balance),
      variables: points(fromValues.balance),
      stored: fromValues.values,
      variableName,
    });
  }

  it('rewards response', async () => {
    await patchState({ balanceIn: 'rewards', balance: 1234 });
    expect(await resolved()).toEqual({ points: 1234, source: 'rewards' });
  });

  // No balance is below zero: one that is is never shown as points owed, nor passed over for a
  // later place; the rest of the answer stands (the catalogue, the stored values).
  it.each([
    ['rewards', '/v1/panel/rewards'],
    ['variables', '/v1/panel/variables/data'],
  ] as const)(
    'a negative balance in the %s answer is told as impossible, naming the endpoint; the answer stands',
    async (balanceIn, endpoint) => {
      await patchState({ balanceIn, balance: -40 });
      const read = balanceIn === 'rewards' ? await api.listRewards() : await api.readValues();
      expect(read.balance).toMatchObject({ impossible: { kind: 'unexpected', endpoint } });
      if ('rewards' in read) expect(read.rewards.length).toBeGreaterThan(0);
      else expect(Object.keys(read.values).length).toBeGreaterThan(0);
    },
  );

  it('a negative stored balance variable is no balance: unknown', async () => {
    await patchState({ balanceIn: 'stored-variable', balance: -40 });
    expect(await resolved()).toEqual({ points: null, source: 'unknown' });
  });

  it('read-variables response', async () => {
    await patchState({ balanceIn: 'variables', balance: 777 });
    expect((await api.listRewards()).balance).toBeNull();
    expect((await api.readValues()).balance).toBe(777);
    expect(await resolved()).toEqual({ points: 777, source: 'variables' });
  });

  it('stored variable, in both value shapes', async () => {
    for (const valuesShape of ['records', 'map'] as const) {
      await patchState({ balanceIn: 'stored-variable', balance: 42, valuesShape });
      const { values, balance } = await api.readValues();
      expect(balance).toBeNull();
      expect(values[variableName]).toBe('42');
      expect(await resolved()).toEqual({ points: 42, source: 'stored-variable' });
    }
  });

  it('nowhere: unknown', async () => {
    await patchState({ balanceIn: 'none' });
    expect(await resolved()).toEqual({ points: null, source: 'unknown' });
  });
});
