/**
 * Everything the doctor sends goes through here, and nothing else leaves. It stands in for the
 * global `fetch`, which ofetch (the extension's HTTP layer) calls for every request, and:
 *
 * - checks each request before it leaves: from the extension's client, a GET of one of the four
 *   read endpoints at the base URL exactly (with write checks, also the few writes the doctor
 *   allowed one by one); for a redirect the doctor follows itself ({@link Wire.hop}), a GET of a
 *   read endpoint under the base path, on the panel's origin (or one the operator allowed), never
 *   plain http across a network. A path that reaches the redeem endpoint under any reading
 *   (redeem-path.ts: decoded, dot segments resolved, any case) is never sent but for a redemption
 *   a write check asked for. Anything else is not sent, and is named;
 * - never lets fetch follow a redirect (`redirect: 'manual'`): a followed one would leave
 *   unchecked, to a redeem as easily as to a read;
 * - reads each body as it streams, at most the extension's own limit ({@link MAX_API_BODY_BYTES}),
 *   so an endless answer is cut where the extension cuts it, not downloaded whole;
 * - sends `User-Agent: panel-doctor/<version>`, so the panel's logs show whose requests these were;
 * - puts the real key in the `Authorization` header as the request leaves: the client holds a
 *   stand-in ({@link Wire.clientKey}), so its messages are never redacted around a short key;
 * - records each exchange (the URL as sent, status, time, bytes, headers, body, where a redirect
 *   pointed, why an answer was not whole) and tells progress as each request leaves and ends.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MAX_API_BODY_BYTES, readLimited } from '../../../utils/api/body-limit';
import { ENDPOINTS } from '../../../utils/api/client';
import { canonicalOrigin, plainHttpAllowed } from '../../../utils/hosts';
import { reachesRedeem } from './redeem-path';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
export const USER_AGENT = `panel-doctor/${VERSION}`;

/** The four reads; the redeem endpoint is a GET too, and is never one of them. */
export const READ_ENDPOINTS: readonly string[] = [
  ENDPOINTS.rewards,
  ENDPOINTS.redemptions,
  ENDPOINTS.variablesMeta,
  ENDPOINTS.variablesData,
];
/** The only query parameter a read carries. */
const READ_QUERY = new Set(['filter']);
/** A path segment between the base path and a read endpoint: no escapes, no dot segments. */
const PLAIN_SEGMENT = '/[A-Za-z0-9_~-][A-Za-z0-9._~-]*';

export type Failure = { kind: 'timeout' } | { kind: 'network'; cause: string };

export interface Exchange {
  method: string;
  /** The absolute URL as sent. */
  url: string;
  /** Path and query as sent. */
  path: string;
  /** Null when no answer came. */
  status: number | null;
  /** From sending to the whole body read (or to giving up). */
  ms: number;
  /** Headers as name: value lines plus the body bytes read (the status line is not counted). */
  bytes: number;
  headers: Headers | null;
  /** The body as text; '' when none came, or when it went over the limit. */
  body: string;
  /** Where a redirect answer pointed (absolute URL; never followed by fetch), else null. */
  redirectedTo: string | null;
  /** Why no whole answer came: none in time, or no connection. */
  failure: Failure | null;
  /** The body was larger than the extension's limit, so reading stopped there. */
  overLimit: boolean;
  /** A redirect the doctor followed itself, not a request of the extension's client. */
  hop: boolean;
}

export type RefusalKind = 'redeem' | 'scheme' | 'plain-http' | 'origin' | 'method' | 'not-a-read' | 'query';

/** A request the wire did not send, and why. */
export interface Refusal {
  kind: RefusalKind;
  method: string;
  url: string;
  /** A redirect hop the doctor would have followed; else a request of the extension's client. */
  hop: boolean;
}

export interface WireOptions {
  /** The normalised API base URL (utils/base-url.ts). */
  baseUrl: string;
  /** The test panelist's key; only the wire holds it. */
  key: string;
  /** Other origins a redirect may be followed to (the operator's `--allow-origin`). */
  allowOrigins?: readonly string[];
  /** Per request, covering headers and body: the extension's own (10 s) unless a test shortens it. */
  timeoutMs: number;
  /** Told as each request leaves and ends (the CLI writes it to stderr). */
  progress?: (text: string) => void;
}

export interface Wire {
  /** The key to give the extension's client: the wire sends the real one in its place. */
  readonly clientKey: string;
  readonly exchanges: readonly Exchange[];
  /** Requests refused before they left. */
  readonly refused: readonly Refusal[];
  /** Follows one redirect hop as a read: checked first, and not sent when it is not one. */
  hop(url: string): Promise<{ exchange: Exchange } | { refusal: Refusal }>;
  /** Lets the client send `count` more profile saves (POST of the variables endpoint). */
  allowSaves(count: number): void;
  /** Lets the client send `count` redeems (default one) of exactly this reward, then none. */
  allowRedeem(rewardId: number | string, count?: number): void;
  stop(): void;
}

export class NotSentError extends Error {
  constructor(readonly refusal: Refusal) {
    super(`the doctor did not send ${refusal.method} ${refusal.url} (${refusal.kind})`);
    this.name = 'NotSentError';
  }
}

function requestOf(input: RequestInfo | URL, init?: RequestInit): { url: URL; method: string } {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  return { url, method };
}

/** Seconds as the report says them ("10 s", "0.3 s"). */
export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string' && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** What may leave, and the write allowances the checks gave: the rules of the two kinds of request. */
interface Gate {
  /** A request of the extension's client: the base URL's own endpoints exactly. */
  client(method: string, url: URL): RefusalKind | null;
  /** A redirect hop: a GET of a read endpoint under the base path, on an allowed origin. */
  hop(url: URL): RefusalKind | null;
  allowSaves(count: number): void;
  allowRedeem(rewardId: number | string, count: number): void;
}

function openGate(baseUrl: string, allowOrigins: readonly string[]): Gate {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  // Origins compared with their hosts in one canonical form (utils/hosts.ts): `LOCALHOST.` is localhost.
  const origins = new Set(
    [base, ...allowOrigins.map((o) => new URL(o))].map((url) => canonicalOrigin(url) ?? url.origin),
  );
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const underBase = READ_ENDPOINTS.map((e) => new RegExp(`^${escape(prefix)}(${PLAIN_SEGMENT})*${escape(e)}$`));
  const queryIsARead = (url: URL) => [...url.searchParams.keys()].every((name) => READ_QUERY.has(name));
  let savesLeft = 0;
  let redeemAllowed: { rewardId: number | string; left: number } | null = null;
  return {
    client(method, url) {
      if (url.origin !== base.origin) return 'origin';
      const endpoint = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : null;
      if (endpoint === ENDPOINTS.redemption) {
        const id = url.searchParams.get('id');
        const only = [...url.searchParams.keys()].join() === 'id';
        if (method !== 'GET' || !only || redeemAllowed === null || id !== String(redeemAllowed.rewardId))
          return 'redeem';
        redeemAllowed.left -= 1;
        if (redeemAllowed.left === 0) redeemAllowed = null;
        return null;
      }
      if (reachesRedeem(url.pathname)) return 'redeem';
      if (method === 'POST' && endpoint === ENDPOINTS.variablesData && url.search === '' && savesLeft > 0) {
        savesLeft -= 1;
        return null;
      }
      if (method !== 'GET') return 'method';
      if (endpoint === null || !READ_ENDPOINTS.includes(endpoint)) return 'not-a-read';
      return queryIsARead(url) ? null : 'query';
    },
    hop(url) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'scheme';
      if (reachesRedeem(url.pathname)) return 'redeem';
      // Plain http only where nothing crosses a network, as utils/base-url.ts rules for the address.
      if (url.protocol === 'http:' && !plainHttpAllowed(url)) return 'plain-http';
      if (!origins.has(canonicalOrigin(url) ?? url.origin)) return 'origin';
      if (!underBase.some((pattern) => pattern.test(url.pathname))) return 'not-a-read';
      return queryIsARead(url) ? null : 'query';
    },
    allowSaves: (count) => void (savesLeft += count),
    allowRedeem: (rewardId, count) => void (redeemAllowed = { rewardId, left: count }),
  };
}

/** Where checked requests go out: the real fetch, the real key, and the record of each exchange. */
interface Line {
  fetch: typeof globalThis.fetch;
  key: string;
  clientKey: string;
  exchanges: Exchange[];
  progress: (text: string) => void;
}

/** Sends one checked request and records it; the body is handed on through a counting, capped tap. */
async function send(
  line: Line,
  url: URL,
  method: string,
  init: RequestInit | undefined,
  hop: boolean,
): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.set('User-Agent', USER_AGENT);
  if (headers.get('authorization') === `Bearer ${line.clientKey}`) headers.set('Authorization', `Bearer ${line.key}`);
  line.progress(`  ${method} ${url.href} … `);
  const started = performance.now();
  const exchange: Exchange = {
    method,
    url: url.href,
    path: `${url.pathname}${url.search}`,
    status: null,
    ms: 0,
    bytes: 0,
    headers: null,
    body: '',
    redirectedTo: null,
    failure: null,
    overLimit: false,
    hop,
  };
  line.exchanges.push(exchange);
  const signal = init?.signal ?? undefined;
  const failed = (error: unknown): Failure =>
    signal?.aborted ? { kind: 'timeout' } : { kind: 'network', cause: networkCause(error) };
  const finish = () => {
    exchange.ms = performance.now() - started;
    line.progress(`${outcomeText(exchange)}\n`);
  };
  let response: Response;
  try {
    response = await line.fetch(url.href, { ...init, method, headers, redirect: 'manual' });
  } catch (error) {
    exchange.failure = failed(error);
    finish();
    throw error;
  }
  exchange.status = response.status;
  exchange.headers = response.headers;
  response.headers.forEach((value, name) => (exchange.bytes += name.length + value.length + 4));
  const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
  exchange.redirectedTo = location ? absolute(location, url) : null;
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_API_BODY_BYTES) exchange.overLimit = true;
  const answerInit = { status: response.status, statusText: response.statusText, headers: response.headers };
  if (response.status === 204 || response.status === 205 || response.status === 304 || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    finish();
    return new Response(null, answerInit);
  }
  const body = tap(response.body, {
    chunk(bytes) {
      exchange.bytes += bytes;
    },
    end(result) {
      if (result.overLimit) exchange.overLimit = true;
      if (result.error !== undefined) exchange.failure = failed(result.error);
      exchange.body = exchange.overLimit ? '' : result.text;
      finish();
    },
  });
  return new Response(body, answerInit);
}

/** Installs the wire as the global `fetch` until `stop()`. */
export function openWire(options: WireOptions): Wire {
  const original = globalThis.fetch;
  const gate = openGate(options.baseUrl, options.allowOrigins ?? []);
  const clientKey = `panel-doctor-key-${randomUUID()}`;
  const exchanges: Exchange[] = [];
  const refused: Refusal[] = [];
  const progress = options.progress ?? (() => undefined);
  const line: Line = { fetch: original, key: options.key, clientKey, exchanges, progress };

  const refuse = (kind: RefusalKind, method: string, url: URL, hop: boolean): Refusal => {
    const refusal = { kind, method, url: url.href, hop };
    refused.push(refusal);
    progress(`  not sent: ${method} ${url.href} (${kind})\n`);
    return refusal;
  };

  const recorder = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const { url, method } = requestOf(input, init);
    const kind = gate.client(method, url);
    if (kind) throw new NotSentError(refuse(kind, method, url, false));
    return send(line, url, method, init, false);
  };

  async function hop(target: string): Promise<{ exchange: Exchange } | { refusal: Refusal }> {
    const url = new URL(target);
    const kind = gate.hop(url);
    if (kind) return { refusal: refuse(kind, 'GET', url, true) };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    const before = exchanges.length;
    const headers = { Authorization: `Bearer ${clientKey}`, Accept: 'application/json' };
    try {
      const response = await send(line, url, 'GET', { headers, signal: controller.signal }, true);
      await readLimited(response.body, response.headers, MAX_API_BODY_BYTES);
    } catch {
      // Recorded on the exchange: no answer in time, or no connection.
    } finally {
      clearTimeout(timer);
    }
    return { exchange: exchanges[before]! };
  }

  globalThis.fetch = recorder;
  return {
    clientKey,
    exchanges,
    refused,
    hop,
    allowSaves: (count) => gate.allowSaves(count),
    allowRedeem: (rewardId, count = 1) => gate.allowRedeem(rewardId, count),
    stop: () => void (globalThis.fetch = original),
  };
}

/** What became of an exchange, in a few words (progress, and the reports' chains). */
export function outcomeText(exchange: Exchange): string {
  const time = `${Math.round(exchange.ms)} ms`;
  if (exchange.failure?.kind === 'timeout') return `no answer within ${seconds(exchange.ms)}`;
  if (exchange.failure) return `no connection (${exchange.failure.cause})`;
  if (exchange.overLimit)
    return `${exchange.status}, body over ${MAX_API_BODY_BYTES.toLocaleString('en')} bytes: stopped reading there, ${time}`;
  if (exchange.redirectedTo) return `${exchange.status} to ${exchange.redirectedTo}`;
  return `${exchange.status}, ${exchange.bytes.toLocaleString('en')} bytes, ${time}`;
}

interface TapEvents {
  chunk(bytes: number): void;
  end(result: { text: string; overLimit: boolean; error?: unknown }): void;
}

/**
 * The body, handed on chunk by chunk as the reader asks (no read-ahead), counted and kept as text
 * up to the limit. Past the limit it stops: the rest is cancelled, which ends the download.
 */
function tap(body: ReadableStream<Uint8Array>, events: TapEvents): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let parts: string[] = [];
  let size = 0;
  let ended = false;
  const end = (result: { overLimit: boolean; error?: unknown }) => {
    if (ended) return;
    ended = true;
    events.end({
      text: result.overLimit || result.error !== undefined ? '' : parts.join('') + decoder.decode(),
      ...result,
    });
    parts = [];
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          end({ overLimit: false, error });
          controller.error(error);
          return;
        }
        if (chunk.done) {
          end({ overLimit: false });
          controller.close();
          return;
        }
        size += chunk.value.byteLength;
        events.chunk(chunk.value.byteLength);
        controller.enqueue(chunk.value);
        if (size > MAX_API_BODY_BYTES) {
          end({ overLimit: true });
          await reader.cancel().catch(() => undefined);
          controller.close();
          return;
        }
        parts.push(decoder.decode(chunk.value, { stream: true }));
      },
      async cancel(reason) {
        end({ overLimit: size > MAX_API_BODY_BYTES });
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

function absolute(location: string, from: URL): string | null {
  try {
    return new URL(location, from).href;
  } catch {
    return null;
  }
}
