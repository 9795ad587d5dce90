// @vitest-environment node
/**
 * Every answer body is read with a size limit. A panel stands in here as a raw
 * 127.0.0.1 server that can stream without end (the sandbox's control API caps what a fault may
 * carry), counting what it managed to send before the client hung up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { credentialsItem } from '../../entrypoints/background/store/credentials';
import { renew } from '../../entrypoints/background/auth/tokens';
import { MAX_API_BODY_BYTES, MAX_OAUTH_BODY_BYTES } from '../../utils/api/body-limit';
import { createPanelApi } from '../../utils/api/client';
import { AppErrorException, type AppError } from '../../utils/errors';
import { settings } from '../../utils/settings';
import { sessionItem } from '../../utils/storage-items';
import { rid } from './test-ids';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_, res) => res.end();
let server: Server;
let base: string;
/** Bytes of body the current answer had written when the connection closed, and whether it finished. */
let sent = { bytes: 0, finished: false };

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const CHUNK = Buffer.alloc(64 * 1024, 'a');

/** Streams `total` bytes of JSON-looking padding, as fast as the client takes them. */
function stream(status: number, total: number, headers: Record<string, string> = {}): Handler {
  return (_, res) => {
    sent = { bytes: 0, finished: false };
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.on('close', () => (sent.finished = res.writableFinished));
    const next = (): void => {
      while (sent.bytes < total) {
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, total - sent.bytes));
        sent.bytes += piece.length;
        if (!res.write(piece)) return void res.once('drain', next);
      }
      res.end();
    };
    next();
  };
}

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppErrorException);
  return (error as AppErrorException).error;
}

const api = () => createPanelApi({ baseUrl: base, token: 'token-1234', retries: 2, retryBaseDelayMs: 1 });
let requests = 0;
const counting =
  (inner: Handler): Handler =>
  (req, res) => {
    requests += 1;
    inner(req, res);
  };

describe('the API client reads at most 25 MB of an answer', () => {
  it('a 2xx body that grows past the limit is cut off there and refused, naming the endpoint; not retried', async () => {
    requests = 0;
    handler = counting(stream(200, 60_000_000));
    const error = await failureOf(api().listRewards());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/rewards', status: 200 });
    expect(error.message).toBe(
      'Unexpected response from /v1/panel/rewards: the answer is larger than 25 MB, more than the extension reads. The panel may have changed; try again later, and tell the panel if it keeps happening.',
    );
    expect(requests).toBe(1);
    await expect.poll(() => sent.finished).toBe(false);
    // The client hung up soon after the limit, well before the 60 MB the server meant to send.
    expect(sent.bytes).toBeLessThan(45_000_000);
  });

  it('a declared Content-Length over the limit is refused before the body is read', async () => {
    handler = stream(200, 30_000_000, { 'Content-Length': '30000000' });
    const error = await failureOf(api().listRedemptions());
    expect(error).toMatchObject({ kind: 'unexpected', endpoint: '/v1/panel/redemptions' });
    expect(error.message).toContain('larger than 25 MB');
    await expect.poll(() => sent.finished).toBe(false);
    expect(sent.bytes).toBeLessThan(20_000_000);
  });

  it('an answer just under the limit is read whole', async () => {
    const padding = 'x'.repeat(MAX_API_BODY_BYTES - 200);
    handler = (_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'success', points: 1, rewards: [], padding }));
    };
    const answer = await api().listRewards();
    expect(answer.rewards).toEqual([]);
    expect(answer.balance).toBe(1);
  });

  it('an error answer over the limit still counts by its status: a 401 is a refused token', async () => {
    handler = stream(401, 40_000_000);
    expect(await failureOf(api().listRewards())).toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('a redeem answered with an endless 2xx is not a refusal', async () => {
    requests = 0;
    handler = counting(stream(200, 40_000_000));
    const error = await failureOf(api().redeem(rid(7)));
    expect(error.kind).toBe('unexpected');
    expect(error.kind).not.toBe('rejected');
    expect(requests).toBe(1);
  });
});

describe('the token endpoint is read with a limit too', () => {
  it('a renewal answered with more than 1 MB fails as unexpected, naming the server, and keeps the credentials', async () => {
    const saved = settings.oauth;
    fakeBrowser.reset();
    try {
      settings.oauth = {
        ...saved,
        tokenEndpoint: `${base}/oauth/token`,
        clientId: 'panel-rewards-extension',
        issuer: base,
      };
      handler = stream(200, MAX_OAUTH_BODY_BYTES * 5);
      const stale = { baseUrl: base, token: 'old-access', refreshToken: 'refresh-1', expiresAt: 0, session: 'S1' };
      await credentialsItem.setValue(stale);
      await sessionItem.setValue({
        connected: true,
        baseUrl: base,
        origin: base,
        tokenHint: 'cess',
        rejected: false,
        id: 'S1',
      });
      const error = await failureOf(renew(stale));
      expect(error).toMatchObject({ kind: 'unexpected', endpoint: 'token' });
      expect(error.message).toBe(
        `The panel’s sign-in server at ${base} sent an answer larger than 1 MB, more than the extension reads. Try again later, and tell the panel if it keeps happening.`,
      );
      expect(await credentialsItem.getValue()).toEqual(stale);
      await expect.poll(() => sent.finished).toBe(false);
    } finally {
      settings.oauth = saved;
    }
  });
});
