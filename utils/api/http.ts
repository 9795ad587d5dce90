import { ofetch } from 'ofetch';
import { AppErrorException, appError, type AppError } from '../errors';
import { t, uiLocale } from '../i18n';
import { unexpectedResponse } from './schemas';

/**
 * The request core of the panel API client (background only). One call of {@link HttpClient.request}
 * is one logical request: it may send several HTTP requests (read retries), and it resolves with the
 * parsed JSON body of a 2xx answer or rejects with exactly one {@link AppError} in an
 * {@link AppErrorException}. Body shapes are checked by the caller (client.ts).
 *
 * Retry policy (design §5):
 * - reads: 5xx, network failure and time-out are retried `retries` times with exponential backoff
 *   and jitter; a 429 is retried once after `Retry-After` when that is at most
 *   `maxRetryAfterSeconds` (or after the first backoff delay when the header is missing or
 *   unreadable), otherwise it fails at once with `rate_limited` and `retryAfterSeconds`;
 * - writes and redeems are sent exactly once, whatever happens: a redeem is never retried blindly.
 * - 401/403 and other 4xx are never retried.
 */

export type RequestKind = 'read' | 'write' | 'redeem';

export interface HttpConfig {
  /** Panel API base URL (http or https), with or without a path prefix or trailing slash. */
  baseUrl: string;
  token: string;
  /** Per attempt, covering headers and body. Default 10 000. */
  timeoutMs?: number;
  /** Retries of a read after the first attempt. Default 2. */
  retries?: number;
  /** First backoff delay; doubles each retry, with jitter. Default 500. */
  retryBaseDelayMs?: number;
  /** Longest `Retry-After` a read waits for before retrying once. Default 5. */
  maxRetryAfterSeconds?: number;
}

export const HTTP_DEFAULTS = {
  timeoutMs: 10_000,
  retries: 2,
  retryBaseDelayMs: 500,
  maxRetryAfterSeconds: 5,
} as const;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Endpoint path from the interface document, e.g. `/v1/panel/rewards` (already encoded). */
  path: string;
  query?: Record<string, string>;
  /** Sent as JSON, with `Content-Type: application/json`; omit for no body. */
  body?: unknown;
  kind: RequestKind;
}

export interface HttpClient {
  request(req: HttpRequest): Promise<unknown>;
}

export const UNAUTHORIZED_MESSAGE = t('httpTokenNotAccepted');

/** Longest server message passed on to the panelist. */
const MAX_SERVER_MESSAGE = 300;
/** Backoff delays never exceed this, whatever the configuration. */
const MAX_BACKOFF_MS = 30_000;

/** A token that can be sent in a header: visible ASCII, no spaces. */
const TOKEN_RE = /^[\x21-\x7e]+$/;

/**
 * The normalised base URL (origin and path prefix without trailing slash), or an `invalid_input`
 * failure for anything that is not a plain http(s) URL.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new AppErrorException(
      appError('invalid_input', t('httpAddressInvalid')),
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppErrorException(
      appError('invalid_input', t('httpAddressScheme')),
    );
  }
  if (url.username || url.password) {
    throw new AppErrorException(
      appError('invalid_input', t('httpAddressCredentials')),
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `Retry-After` in whole seconds (delta-seconds or an HTTP date), or undefined when unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  // An HTTP date names its day or month ("Wed, 21 Oct 2015 07:28:00 GMT"); "-5" is not a date.
  if (!/[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Backoff before retry number `attempt` (0-based): base·2^attempt, jittered into its upper half. */
export function backoffDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Replaces every occurrence of the token (and of any other secret given), so no message can carry it. */
export function redact(text: string, ...secrets: string[]): string {
  return secrets.reduce((out, secret) => (secret ? out.split(secret).join('[token]') : out), text);
}

function redactError(error: AppError, token: string): AppError {
  const out: AppError = { ...error, message: redact(error.message, token) };
  if (out.field !== undefined) out.field = redact(out.field, token);
  return out;
}

/** Strict JSON (not the lenient parse ofetch uses); undefined for an empty or invalid body. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The server's human message and field from an error body, when it has them. The token is
 * redacted before anything is cut, or a cut through it would leave a piece no later check finds.
 */
function serverDetail(text: string, token: string): { message?: string; field?: string } {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return {};
  const body = parsed.value as { message?: unknown; field?: unknown; error?: unknown };
  const raw = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
  // Collapse whitespace (no line breaks or markup layout in a status line) and cap the length.
  let message = redact(raw, token).replace(/\s+/g, ' ').trim();
  if (message.toLowerCase() === 'success') message = '';
  if (message.length > MAX_SERVER_MESSAGE) message = `${message.slice(0, MAX_SERVER_MESSAGE - 1)}…`;
  const field = typeof body.field === 'string' && body.field.trim() !== '' ? redact(body.field, token).trim().slice(0, MAX_SERVER_MESSAGE) : undefined;
  return { ...(message ? { message } : {}), ...(field ? { field } : {}) };
}

type Attempt =
  | { type: 'response'; status: number; text: string; headers: Headers }
  | { type: 'timeout' }
  | { type: 'network' };

/** Whether a read may try again after this attempt (429 is handled on its own). */
function retryable(attempt: Attempt): boolean {
  return attempt.type !== 'response' || attempt.status >= 500;
}

export function createHttp(config: HttpConfig): HttpClient {
  const base = normaliseBaseUrl(config.baseUrl);
  const token = config.token.trim();
  if (!TOKEN_RE.test(token)) {
    throw new AppErrorException(
      appError(
        'invalid_input',
        token ? t('httpTokenUnsendable') : t('httpTokenMissing'),
      ),
    );
  }
  const timeoutMs = config.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
  const retries = Math.max(0, Math.floor(config.retries ?? HTTP_DEFAULTS.retries));
  const baseDelay = Math.max(0, config.retryBaseDelayMs ?? HTTP_DEFAULTS.retryBaseDelayMs);
  const maxRetryAfter = config.maxRetryAfterSeconds ?? HTTP_DEFAULTS.maxRetryAfterSeconds;
  const origin = new URL(base).origin;

  function url(req: HttpRequest): string {
    const query = req.query && Object.keys(req.query).length > 0 ? `?${new URLSearchParams(req.query)}` : '';
    return `${base}${req.path}${query}`;
  }

  /** One HTTP exchange; never throws. */
  async function attempt(req: HttpRequest): Promise<Attempt> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json',
    };
    const hasBody = req.body !== undefined;
    if (hasBody) headers['Content-Type'] = 'application/json';
    try {
      // ofetch with its own retries, time-out and error throwing switched off: the policy above is
      // ours. The body is read as text (inside the time-out) and parsed strictly below.
      const response = await ofetch.raw<string, 'text'>(url(req), {
        method: req.method,
        headers,
        ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
        responseType: 'text',
        ignoreResponseError: true,
        retry: false,
        signal: controller.signal,
        redirect: 'follow',
        credentials: 'omit',
        cache: 'no-store',
      });
      return {
        type: 'response',
        status: response.status,
        text: typeof response._data === 'string' ? response._data : '',
        headers: response.headers,
      };
    } catch {
      return timedOut ? { type: 'timeout' } : { type: 'network' };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The one AppError for a final, unsuccessful attempt. */
  function failure(req: HttpRequest, result: Attempt, retryAfterSeconds?: number): AppError {
    const endpoint = req.path.split('?')[0] ?? req.path;
    const redeem = req.kind === 'redeem';
    const checkHistory = ` ${t('httpMayHaveGoneThrough')}`;
    if (result.type === 'timeout') {
      const seconds = new Intl.NumberFormat(uiLocale()).format(Math.round(timeoutMs / 100) / 10);
      return appError(
        'timeout',
        redeem
          ? `${t('httpRedeemTimeout', seconds)}${checkHistory}`
          : t('httpTimeout', seconds),
        { endpoint },
      );
    }
    if (result.type === 'network') {
      return appError(
        'network',
        redeem
          ? `${t('httpRedeemNetwork', origin)}${checkHistory}`
          : t('httpNetwork', origin),
        { endpoint },
      );
    }
    const { status } = result;
    if (status === 401 || status === 403) return appError('unauthorized', UNAUTHORIZED_MESSAGE, { status, endpoint });
    if (status === 429) {
      const when =
        retryAfterSeconds !== undefined
          ? t('httpRetryInSeconds', Math.max(1, Math.ceil(retryAfterSeconds)))
          : t('httpWaitAMoment');
      return appError('rate_limited', `${t('httpTooManyRequests')} ${when}`, {
        status,
        endpoint,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds: Math.ceil(retryAfterSeconds) } : {}),
      });
    }
    if (status >= 400 && status < 500) {
      const detail = serverDetail(result.text, token);
      const fallback =
        status === 404
          ? t('httpNotFound', endpoint)
          : t('httpRefused', status);
      return appError('rejected', detail.message ?? fallback, {
        status,
        endpoint,
        ...(detail.field ? { field: detail.field } : {}),
      });
    }
    if (status >= 500) {
      return appError(
        'server',
        redeem
          ? `${t('httpRedeemServer', status)}${checkHistory}`
          : t('httpServer', status),
        { status, endpoint },
      );
    }
    // 1xx/3xx that fetch did not resolve itself.
    return unexpectedResponse(endpoint, `HTTP ${status}`, status).error;
  }

  async function run(req: HttpRequest): Promise<unknown> {
    const endpoint = req.path.split('?')[0] ?? req.path;
    const isRead = req.kind === 'read';
    let retriesLeft = isRead ? retries : 0;
    let backoffAttempt = 0;
    let rateLimitRetried = !isRead;
    for (;;) {
      const result = await attempt(req);
      if (result.type === 'response' && result.status >= 200 && result.status < 300) {
        const parsed = parseJson(result.text);
        if (!parsed.ok) {
          throw unexpectedResponse(
            endpoint,
            t(result.text.trim() === '' ? 'httpBodyEmpty' : 'httpBodyNotJson'),
            result.status,
          );
        }
        return parsed.value;
      }
      if (result.type === 'response' && result.status === 429) {
        const retryAfter = parseRetryAfter(result.headers.get('retry-after'));
        if (!rateLimitRetried && (retryAfter === undefined || retryAfter <= maxRetryAfter)) {
          rateLimitRetried = true;
          await sleep(retryAfter === undefined ? backoffDelay(0, baseDelay) : retryAfter * 1000);
          continue;
        }
        throw new AppErrorException(failure(req, result, retryAfter));
      }
      if (retriesLeft > 0 && retryable(result)) {
        retriesLeft -= 1;
        await sleep(backoffDelay(backoffAttempt, baseDelay));
        backoffAttempt += 1;
        continue;
      }
      throw new AppErrorException(failure(req, result));
    }
  }

  return {
    async request(req) {
      try {
        return await run(req);
      } catch (error) {
        if (error instanceof AppErrorException) throw new AppErrorException(redactError(error.error, token));
        // Not expected (attempt() never throws); still one AppError, and never the raw text.
        throw new AppErrorException(
          redactError(appError('network', t('httpIncomplete', req.path)), token),
        );
      }
    },
  };
}
