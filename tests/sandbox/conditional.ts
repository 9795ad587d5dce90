/**
 * Validators for the four reads, as a panel behind a usual framework sends them: an `ETag` of the
 * body (per account: the same JSON for two tokens is two resources), a `Last-Modified` from when
 * that body was first served, and `304 Not Modified` without a body when the request's
 * `If-None-Match` (or, without one, `If-Modified-Since`) says the client already has it.
 */
import { createHash } from 'node:crypto';
import type { ApiRequest, ApiResult } from './types';

const READS = new Set([
  '/v1/panel/variables/meta',
  '/v1/panel/variables/data',
  '/v1/panel/redemptions',
  '/v1/panel/rewards',
]);

/** `"abc"`, `W/"abc"`, `*`, comma-separated (RFC 9110 §13.1.2); weak comparison, as for GET. */
function matchesAny(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

export interface Validators {
  apply(req: ApiRequest, result: ApiResult, now: Date): ApiResult;
  clear(): void;
}

export function createValidators(): Validators {
  /** When each ETag was first served, whole seconds (HTTP dates have no finer unit). */
  const firstServed = new Map<string, number>();
  return {
    clear: () => firstServed.clear(),
    apply(req, result, now) {
      if (req.method !== 'GET' || !READS.has(req.path) || result.status !== 200 || result.body === undefined)
        return result;
      const digest = createHash('sha256')
        .update(`${req.headers.authorization ?? ''}\n${req.path}?${req.query}\n${JSON.stringify(result.body)}`)
        .digest('base64url');
      const etag = `"${digest.slice(0, 27)}"`;
      if (!firstServed.has(etag)) firstServed.set(etag, Math.floor(now.getTime() / 1000) * 1000);
      const modified = firstServed.get(etag)!;
      const headers = { ...result.headers, ETag: etag, 'Last-Modified': new Date(modified).toUTCString() };
      const ifNoneMatch = req.headers['if-none-match'];
      const since = Date.parse(req.headers['if-modified-since'] ?? '');
      const unchanged =
        ifNoneMatch !== undefined ? matchesAny(ifNoneMatch, etag) : !Number.isNaN(since) && modified <= since;
      return unchanged ? { status: 304, headers } : { ...result, headers };
    },
  };
}
