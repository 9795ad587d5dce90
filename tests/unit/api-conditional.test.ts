// @vitest-environment node
/**
 * Conditional reads against the sandbox over real HTTP: the panel's ETag and Last-Modified come
 * back with each read, a read sent with them is answered 304 without a body while nothing
 * changed, and in full once something did; plain reads never send them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPanelApi, type PanelClient, type ReadName } from '../../utils/api/client';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { client, fault, patchState, recorded, resetSandbox, startApiSandbox } from './api-fixtures';
import { rid } from './test-ids';

let sandbox: Sandbox;
let api: PanelClient;

beforeAll(async () => {
  sandbox = await startApiSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await resetSandbox();
  api = client({ timeoutMs: 2000 });
});

const READS: ReadName[] = ['rewards', 'redemptions', 'variablesMeta', 'variablesData'];

describe('conditional reads', () => {
  it.each(READS)('%s: the answer carries validators; sent back unchanged, it is a 304 without a body', async (name) => {
    const first = await api.revalidate(name, null);
    expect(first.notModified).toBe(false);
    expect(first.validator?.etag).toMatch(/^"[\w-]+"$/);
    expect(Date.parse(first.validator!.lastModified!)).not.toBeNaN();

    const again = await api.revalidate(name, first.validator);
    expect(again).toEqual({ notModified: true, validator: first.validator });
    const [plain, conditional] = await recorded();
    expect(plain!.headers['if-none-match']).toBeUndefined();
    expect(conditional!.headers['if-none-match']).toBe(first.validator!.etag);
    expect(conditional!.headers['if-modified-since']).toBe(first.validator!.lastModified);
  });

  it('a changed resource is sent whole, with a new ETag', async () => {
    const first = await api.revalidate('rewards', null);
    await patchState({ balance: 1234 });
    const changed = await api.revalidate('rewards', first.validator);
    expect(changed.notModified).toBe(false);
    expect(changed.notModified === false && changed.data.balance).toBe(1234);
    expect(changed.validator?.etag).not.toBe(first.validator?.etag);
  });

  it('a redemption changes the history answer: the old validator gets the new list', async () => {
    const first = await api.revalidate('redemptions', null);
    await api.redeem(rid(101));
    const after = await api.revalidate('redemptions', first.validator);
    expect(after.notModified === false && after.data.length).toBe(
      first.notModified === false ? first.data.length + 1 : NaN,
    );
  });

  it('If-Modified-Since alone (a panel without ETags) also gives a 304', async () => {
    const first = await api.revalidate('redemptions', null);
    const again = await api.revalidate('redemptions', { lastModified: first.validator!.lastModified! });
    expect(again.notModified).toBe(true);
  });

  it("another account's validator is never answered 304, even for the same data: the panel's ETag is per token", async () => {
    const other = await startSandbox({ token: 'token-of-another-account' });
    try {
      const mine = await api.revalidate('rewards', null);
      const theirs = createPanelApi({ baseUrl: other.url, token: other.token, timeoutMs: 2000 });
      const answer = await theirs.revalidate('rewards', mine.validator);
      expect(answer.notModified).toBe(false);
      expect(answer.notModified === false && answer.data).toEqual(mine.notModified === false && mine.data);
    } finally {
      await other.close();
    }
  });

  it('plain reads send no validators, and a 304 to one is refused as unexpected', async () => {
    await api.listRewards();
    await api.listRedemptions();
    for (const request of await recorded()) {
      expect(request.headers['if-none-match']).toBeUndefined();
      expect(request.headers['if-modified-since']).toBeUndefined();
    }
    await fault({ path: '/v1/panel/rewards', status: 304 });
    await expect(api.listRewards()).rejects.toMatchObject({ error: { kind: 'unexpected', status: 304 } });
  });

  it('validators longer than 512 characters are not kept', async () => {
    await fault({
      path: '/v1/panel/rewards',
      status: 200,
      headers: { ETag: `"${'x'.repeat(600)}"` },
      body: JSON.stringify({ rewards: [] }),
    });
    const answer = await api.revalidate('rewards', null);
    expect(answer.validator).toBeNull();
  });
});
