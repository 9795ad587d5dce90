/**
 * The `Idempotency-Key` request header (IETF httpapi draft) on the redeem, as a panel that honours
 * it: the first request with a key is processed and its answer kept; the same key again (a browser
 * re-sending the request) gets that answer back without a second redemption; one arriving while
 * the first is still being processed is refused with 409. `honour` off makes the sandbox a panel
 * that ignores the header, as the interface document's panel does.
 */
import { bearerToken } from './auth';
import { failure } from './http-util';
import type { ApiRequest, ApiResult } from './types';

const REDEEM_PATH = '/v1/panel/redemption';

/** The key as the draft writes it (a Structured Fields string) or bare, as many clients send it. */
export function keyOf(request: ApiRequest): string | null {
  const raw = request.headers['idempotency-key']?.trim();
  if (!raw) return null;
  return /^"[^"]*"$/.test(raw) ? raw.slice(1, -1) : raw;
}

export type Arrival = { answer: ApiResult } | { key: string | null };

export class Idempotency {
  honour = true;
  private answers = new Map<string, ApiResult | 'processing'>();

  reset(): void {
    this.honour = true;
    this.answers.clear();
  }

  /** A request arrives: answered from an earlier one with its key, or let through (and its key held). */
  arrive(request: ApiRequest): Arrival {
    const key = keyOf(request);
    if (!this.honour || key === null || request.path !== REDEEM_PATH) return { key: null };
    // Keys are the panelist's own: another token's key is another request.
    const scoped = `${bearerToken(request.headers) ?? ''} ${key}`;
    const earlier = this.answers.get(scoped);
    if (earlier === 'processing')
      return { answer: failure(409, 'A request with this Idempotency-Key is still being processed.') };
    if (earlier) return { answer: { ...earlier, headers: { ...earlier.headers, 'Idempotent-Replayed': 'true' } } };
    this.answers.set(scoped, 'processing');
    return { key: scoped };
  }

  /** The request of `key` was processed: later ones with its key get this answer. */
  processed(key: string | null, result: ApiResult): ApiResult {
    if (key !== null) this.answers.set(key, result);
    return result;
  }

  /** It ended without being processed (a fault answered instead): the key is free again. */
  abandoned(key: string | null): void {
    if (key !== null && this.answers.get(key) === 'processing') this.answers.delete(key);
  }
}
