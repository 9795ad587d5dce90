/** Reading requests and writing JSON responses with the headers every sandbox answer carries. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRequest, ApiResult, JsonValue } from './types';
import { withWireIds } from './wire-ids';

/** Far above any real request; a guard against a runaway test filling memory. */
const MAX_BODY_BYTES = 1024 * 1024;

export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  // Lets page-context callers read Retry-After on 429/503, which design §5 relies on.
  'Access-Control-Expose-Headers': 'Retry-After',
  'Cache-Control': 'no-store',
};

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseRequest(req: IncomingMessage, rawBody: string): ApiRequest {
  // The Host header is irrelevant here; a fixed origin only lets URL split path and query.
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  let body: JsonValue = null;
  let bodyIsJson = true;
  if (rawBody.trim() !== '') {
    try {
      body = JSON.parse(rawBody) as JsonValue;
    } catch {
      body = rawBody;
      bodyIsJson = false;
    }
  }
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    headers: lowerCaseHeaders(req),
    rawBody,
    body,
    bodyIsJson,
  };
}

function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function isJsonObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function json(status: number, body: unknown, headers?: Record<string, string>): ApiResult {
  return headers ? { status, body, headers } : { status, body };
}

export function success(extra: Record<string, unknown> = {}): ApiResult {
  return json(200, { message: 'success', ...extra });
}

export function failure(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): ApiResult {
  return json(status, { message, ...extra }, headers);
}

/** Writes a handler's result; a socket already gone (client aborted, sandbox closed) is ignored. */
export function writeResult(res: ServerResponse, result: ApiResult, extraHeaders: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  if (result.body === undefined && result.text === undefined) {
    res.writeHead(result.status, mergeHeaders(BASE_HEADERS, result.headers, extraHeaders)).end();
    return;
  }
  const text = result.text ?? (result.wireIds ? withWireIds(result.body, result.wireIds) : JSON.stringify(result.body));
  writeRaw(res, result.status, text, mergeHeaders(result.headers, extraHeaders));
}

/** Sends text exactly as given, so faults can serve malformed JSON. */
export function writeRaw(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  if (res.destroyed || res.writableEnded) return;
  // These statuses cannot carry a body; sending a length for one would stall the client.
  if (status === 204 || status === 304) {
    res.writeHead(status, mergeHeaders(BASE_HEADERS, headers)).end();
    return;
  }
  const base = { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': String(Buffer.byteLength(text)) };
  res.writeHead(status, mergeHeaders(base, BASE_HEADERS, headers)).end(text);
}

/** Later lists win; names compare case-insensitively so an override never duplicates a header. */
function mergeHeaders(...lists: (Readonly<Record<string, string>> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const list of lists) {
    for (const [name, value] of Object.entries(list ?? {})) merged[name.toLowerCase()] = value;
  }
  return merged;
}
