/**
 * What the doctor sees on the wire while the extension's own API client talks to the panel: each
 * exchange's method, path, status, time, size, headers and body, and where a redirect pointed. It
 * wraps `fetch`, which ofetch (the client's HTTP layer) calls for every request, refuses any request
 * that is not a read before it leaves, and never lets fetch follow a redirect (a followed one would
 * leave unchecked, to a redeem as easily as to a read), so the doctor cannot redeem, write or delete
 * whatever code runs inside it and whatever the panel answers.
 */
import { ENDPOINTS } from '../../../utils/api/client';

export interface Exchange {
  method: string;
  /** Path and query as sent, from the base URL's origin. */
  path: string;
  status: number;
  /** From sending to the whole body read. */
  ms: number;
  /** Status line is not counted: headers as name: value lines plus the body. */
  bytes: number;
  headers: Headers;
  body: string;
  /** Where a redirect answer pointed (absolute URL; not followed), else null. */
  redirectedTo: string | null;
}

/** The paths a read may go to; the redeem endpoint is a GET too, and is never one of them. */
const READ_PATHS: readonly string[] = [ENDPOINTS.rewards, ENDPOINTS.redemptions, ENDPOINTS.variablesMeta, ENDPOINTS.variablesData];

export class NotAReadError extends Error {}

function requestOf(input: RequestInfo | URL, init?: RequestInit): { url: URL; method: string } {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  return { url, method };
}

/**
 * Installs the recorder as the global `fetch` until `stop()`. Every request must be a GET of one of
 * the four read endpoints under `base` (a path prefix allowed); anything else throws before it leaves.
 */
export function recordWire(base: string): { exchanges: Exchange[]; stop(): void } {
  const original = globalThis.fetch;
  const prefix = new URL(base).pathname.replace(/\/+$/, '');
  const exchanges: Exchange[] = [];

  const recorder = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const { url, method } = requestOf(input, init);
    const endpoint = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
    if (method !== 'GET' || !READ_PATHS.includes(endpoint)) throw new NotAReadError(`the doctor sends reads only, not ${method} ${url.pathname}`);
    const started = performance.now();
    const response = await original(input, { ...init, redirect: 'manual' });
    const body = await response.clone().text();
    const ms = performance.now() - started;
    let headerBytes = 0;
    response.headers.forEach((value, name) => (headerBytes += name.length + value.length + 4));
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    const redirectedTo = location ? absolute(location, url) : null;
    exchanges.push({
      method,
      path: `${url.pathname}${url.search}`,
      status: response.status,
      ms,
      bytes: headerBytes + Buffer.byteLength(body),
      headers: response.headers,
      body,
      redirectedTo,
    });
    return response;
  };
  globalThis.fetch = recorder as typeof fetch;
  return { exchanges, stop: () => void (globalThis.fetch = original) };
}

function absolute(location: string, from: URL): string | null {
  try {
    return new URL(location, from).href;
  } catch {
    return null;
  }
}
