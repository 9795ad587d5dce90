/**
 * The sandbox panel API (design, "The sandbox panel API"): the seven endpoints over in-memory
 * state, on 127.0.0.1 only, plus test-only controls under /__sandbox.
 */
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerToken, isAuthorized, unauthorized } from './auth';
import { handleControl, isControlPath } from './control';
import type { ControlContext } from './control';
import { preflight } from './cors';
import { FaultStore, applyFault } from './faults';
import { BodyTooLargeError, failure, parseRequest, readBody, writeResult } from './http-util';
import { OAuthServer } from './oauth';
import { dispatch, dispatchOpen } from './router';
import { madeAtOf } from './routes-rewards';
import { createValidators } from './conditional';
import { routeMoved } from './moved';
import { Idempotency, keyOf } from './idempotency';
import { loadDefaultSeed, resetState, stateFromSeed } from './state';
import type { ApiRequest, ApiResult, MadeRedemption, RecordedRequest, SandboxSeed, SandboxState } from './types';

export type { FaultRule, MadeRedemption, RecordedRequest, SandboxSeed, SandboxState } from './types';

export const SANDBOX_TOKEN = 'sandbox-token-5f2c9a7e41d8';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  token?: string;
  /** Defaults to tests/sandbox/seed.json. */
  seed?: SandboxSeed;
  /** Clock for new redemptions' timestamps; tests may pin it. Defaults to the real time. */
  now?: () => Date;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  port: number;
  token: string;
  /**
   * Further keys of this same account the panel accepts (a panel that lets a panelist make a new
   * key): tests add to it. Emptied by reset().
   */
  otherKeys: Set<string>;
  close(): Promise<void>;
  /** Restores the seed and clears faults and recorded requests; answers still held back are cut off. */
  reset(): void;
  /** Resolves once no API request is being handled (a held or delayed one included). */
  idle(): Promise<void>;
  /** The live state; the same object for the sandbox's whole life. */
  state: SandboxState;
  /** Live list of API requests received, oldest first. */
  requests: RecordedRequest[];
  /** The sandbox's authorization server (sign-in with OAuth); reset with the rest. */
  oauth: OAuthServer;
  /**
   * What each answered API request cost on the wire: status, and bytes of status line, headers
   * and body (the benchmark's bytes per idle hour), its `Idempotency-Key` and when its answer left.
   * In answer order; cleared with the requests.
   */
  answers: Array<{ method: string; path: string; status: number; bytes: number; key: string | null; at: number }>;
  /**
   * Every redemption made since the last reset, with the request that made it: tests judge what
   * the extension said about a Confirm against what that Confirm's copies really made.
   */
  made: MadeRedemption[];
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = structuredClone(options.seed ?? loadDefaultSeed());
  const token = options.token ?? SANDBOX_TOKEN;
  const otherKeys = new Set<string>();
  const now = options.now ?? (() => new Date());
  const state = stateFromSeed(seed);
  const requests: RecordedRequest[] = [];
  const answers: Sandbox['answers'] = [];
  const made: MadeRedemption[] = [];
  const faults = new FaultStore();
  const oauth = new OAuthServer();
  const validators = createValidators();
  const idempotency = new Idempotency();
  // Aborted on close so that delayed fault responses do not keep the process alive.
  const closing = new AbortController();
  // Aborted on reset: a delayed answer of before the reset never changes the state after it.
  let resetting = new AbortController();
  const interruptible = () => AbortSignal.any([closing.signal, resetting.signal]);
  // API requests being handled, and who waits for there to be none.
  let active = 0;
  let idleWaiters: Array<() => void> = [];

  const control: ControlContext = {
    state,
    faults,
    requests,
    oauth,
    idempotency,
    reset() {
      resetting.abort();
      resetting = new AbortController();
      resetState(state, seed);
      faults.clear();
      oauth.reset();
      validators.clear();
      idempotency.reset();
      requests.length = 0;
      answers.length = 0;
      made.length = 0;
    },
    closeIdleConnections: () => server.closeIdleConnections(),
  };

  async function handleApi(req: IncomingMessage, res: ServerResponse, received: ApiRequest): Promise<void> {
    requests.push(toRecord(received));
    measure(res, received, answers);
    const routed = routeMoved(state, received);
    if ('answer' in routed) return writeResult(res, routed.answer);
    const request = routed.request;
    const fault = faults.take(request.method, request.path);
    const authorized = () =>
      isAuthorized(request.headers, token) ||
      otherKeys.has(bearerToken(request.headers) ?? '') ||
      oauth.accepts(bearerToken(request.headers));
    let arrival = idempotency.arrive(request);
    let committed = false;
    // Handles a request and notes any redemption it made, and which request that was.
    const run = (copy: ApiRequest, at: Date, repeated: boolean): ApiResult => {
      const before = state.redemptions.length;
      const result = dispatch(state, copy, at);
      for (const r of state.redemptions.slice(before))
        made.push({
          id: r.id,
          rewardId: r.reward.id,
          key: keyOf(copy),
          repeated,
          // The instant a lagging history counts from: a copy made a millisecond later shows a millisecond later.
          at: madeAtOf(r) ?? Date.now(),
          createdAt: r.created_at,
        });
      return result;
    };
    const commit = () => {
      if (!authorized() || 'answer' in arrival) return;
      committed = true;
      idempotency.processed(arrival.key, run(request, now(), false));
    };
    const signal = interruptible();
    if (fault?.held) await faults.hold(signal);
    if (fault?.repeat === 'overlapping') {
      // The browser re-sent the request while the panel was still working on the first copy: the
      // copy is answered first (a panel honouring the key says 409), then the first copy commits.
      requests.push({ ...toRecord(request), repeated: true });
      const first = arrival;
      const copy = idempotency.arrive(request);
      // A rate limit (or any proxy) in front of the panel may answer the copy itself.
      if (fault.copyStatus !== undefined && !('answer' in copy)) idempotency.abandoned(copy.key);
      const answer =
        fault.copyStatus !== undefined
          ? failure(fault.copyStatus, 'Too many requests.')
          : 'answer' in copy
            ? copy.answer
            : authorized()
              ? idempotency.processed(copy.key, run(request, now(), true))
              : unauthorized();
      writeResult(res, answer, fault.headers ?? {});
      await sleep(fault.delayMs ?? 0, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      arrival = first;
      commit();
      return;
    }
    if (fault?.repeat) {
      // The first copy is committed and its connection lost before any answer; the browser sends
      // it again on a new connection (Chromium does, on a reused keep-alive one): this is that copy.
      commit();
      if (fault.delayMs) {
        await sleep(fault.delayMs, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return;
      }
      requests.push({ ...toRecord(request), repeated: true });
      arrival = idempotency.arrive(request);
      committed = false;
    } else if (fault && (await applyFault(fault, req, res, signal, commit)) === 'answered') {
      if (!committed && !('answer' in arrival)) idempotency.abandoned(arrival.key);
      return;
    }
    if ('answer' in arrival) return writeResult(res, arrival.answer);
    const extraHeaders = fault?.headers ?? {};
    if (request.method === 'OPTIONS') return writeResult(res, preflight(false), extraHeaders);
    const open = dispatchOpen(oauth, request);
    if (open) {
      // The sign-in server's answer too may be computed on arrival and held back (a rotated refresh token on its way).
      if (fault?.holdMs) await sleep(fault.holdMs, undefined, { signal });
      return writeResult(res, open, extraHeaders);
    }
    if (!authorized()) return writeResult(res, unauthorized(), extraHeaders);
    const at = now();
    const answer = idempotency.processed(arrival.key, run(request, at, fault?.repeat === true));
    const result = state.validators ? validators.apply(request, answer, at) : answer;
    if (fault?.holdMs) await sleep(fault.holdMs, undefined, { signal });
    if (fault?.answerHeld) await faults.hold(signal);
    writeResult(res, result, extraHeaders);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const request = parseRequest(req, await readBody(req));
      if (!isControlPath(request.path)) return await counted(() => handleApi(req, res, request));
      if (request.method === 'OPTIONS') return writeResult(res, preflight(true));
      writeResult(res, handleControl(control, request));
    } catch (error) {
      if (closing.signal.aborted) return;
      if (error instanceof Error && error.name === 'AbortError') return void req.socket.destroy();
      if (error instanceof BodyTooLargeError) return writeResult(res, failure(413, error.message));
      console.error('[sandbox] handler failed:', error);
      writeResult(res, failure(500, `Sandbox internal error: ${String(error)}`));
    }
  }

  async function counted(work: () => Promise<void>): Promise<void> {
    active += 1;
    try {
      await work();
    } finally {
      active -= 1;
      if (active === 0) {
        for (const wake of idleWaiters) wake();
        idleWaiters = [];
      }
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    otherKeys,
    state,
    requests,
    oauth,
    answers,
    made,
    reset: () => {
      otherKeys.clear();
      control.reset();
    },
    idle: () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    // Idempotent, so a test that stops the server (a "dead panel") can still clean up as usual.
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would otherwise hold close() open for seconds after each test file.
        server.closeAllConnections();
      }),
  };
}

/**
 * Counts the answer's bytes as they leave: the body through end(), the head as Node wrote it
 * (status line and every header, Date and Connection included) once finished.
 */
function measure(res: ServerResponse, request: ApiRequest, answers: Sandbox['answers']): void {
  let body = 0;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    const chunk = args[0];
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) body += Buffer.byteLength(chunk);
    return end(...args);
  }) as ServerResponse['end'];
  res.once('finish', () => {
    const head = (res as unknown as { _header?: string | null })._header ?? '';
    answers.push({
      method: request.method,
      path: request.path,
      status: res.statusCode,
      bytes: Buffer.byteLength(head) + body,
      key: keyOf(request),
      at: Date.now(),
    });
  });
}

function toRecord(request: ApiRequest): RecordedRequest {
  return {
    method: request.method,
    path: request.path,
    query: Object.fromEntries(request.query),
    headers: request.headers,
    body: request.body,
    at: Date.now(),
  };
}
