// @vitest-environment node
/** The sandbox's switches for how a panel answers (the doctor is tested against each). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.url}${path}`, {
    headers: { Authorization: `Bearer ${sandbox.token}`, ...headers },
    redirect: 'manual',
  });

const patch = (body: unknown) =>
  fetch(`${sandbox.url}/__sandbox/state`, { method: 'PATCH', body: JSON.stringify(body) });

describe('validators', () => {
  it('are sent, and honoured with a 304, unless switched off', async () => {
    const first = await get('/v1/panel/rewards');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await get('/v1/panel/rewards', { 'If-None-Match': etag! })).status).toBe(304);

    expect((await patch({ validators: false })).status).toBe(200);
    const plain = await get('/v1/panel/rewards', { 'If-None-Match': etag! });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('etag')).toBeNull();
    expect(plain.headers.get('last-modified')).toBeNull();
  });
});

describe('movedTo', () => {
  it('answers every API request 301 to the same path under a prefix, and serves it there', async () => {
    await patch({ movedTo: '/api' });
    const moved = await get('/v1/panel/variables/data?filter=writable');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/api/v1/panel/variables/data?filter=writable');
    const served = await get('/api/v1/panel/rewards');
    expect(served.status).toBe(200);
    expect(((await served.json()) as { rewards: unknown[] }).rewards.length).toBeGreaterThan(0);
    // The OAuth pages stay where they are.
    expect((await fetch(`${sandbox.url}/oauth/authorize`, { redirect: 'manual' })).status).not.toBe(301);
  });

  it('sends them to another origin when given one, and refuses what is neither', async () => {
    await patch({ movedTo: 'http://127.0.0.1:9/panel' });
    const moved = await get('/v1/panel/rewards');
    expect([moved.status, moved.headers.get('location')]).toEqual([301, 'http://127.0.0.1:9/panel/v1/panel/rewards']);
    expect((await patch({ movedTo: 'ftp://x' })).status).toBe(400);
    sandbox.reset();
    expect(sandbox.state.movedTo).toBeNull();
  });
});
