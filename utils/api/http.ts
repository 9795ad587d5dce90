import { ofetch } from 'ofetch';
import { byName, entriesOf } from '../by-name';
import { AppErrorException, appError, type AppError } from '../errors';
import { t, uiLocale } from '../i18n';
import { sentences } from '../sentences';
import { discard, MAX_API_BODY_BYTES, readLimited, sizeText } from './body-limit';
import { unexpectedResponse } from './schemas';
import { parseJsonExactIds } from './json';

/**
 * The request core of the panel API client (background only). One call of {@link HttpClient.request}
 * is one logical request: it may send several HTTP requests (read retries), and it resolves with the
 * parsed JSON body of a 2xx answer or rejects with exactly one {@link AppError} in an
 * {@link AppErrorException}. Body shapes are checked by the caller (client.ts).
 *
 * Retry policy (a read may be repeated; a write or redeem may not, as it could land twice):
 * - reads: 5xx, network failure and time-out are retried `retries` times with exponential backoff
 *   and jitter; a 429 is retried once after `Retry-After` when that is at most
 *   `maxRetryAfterSeconds` (or after the first backoff delay when the header is missing or
 *   unreadable), otherwise it fails at once with `rate_limited` and `retryAfterSeconds`;
 * - writes and redeems are sent exactly once, whatever happens: a redeem is never retried blindly.
 * - 401/403 and other 4xx are never retried.
 *
 * Redirects (an answer from another origin is refused): every request is sent with
 * `redirect: 'manual'` and no redirect is ever
 * followed. Following one by hand would mean checking the next hop before it leaves, but a browser
 * hides a manual redirect's Location (an opaque response), and `redirect: 'follow'` sends the
 * request, token and all, wherever the panel points before anything can look at it. So a redirect
 * answer is refused as `unexpected`, never retried (for a redeem the request reached the panel, so
 * its outcome is unknown). Node's fetch shows the Location, which the error then names.
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
  /**
   * Sends each HTTP request (default: the global fetch). The background's checks, as the request
   * leaves, that its session is still the active one; an AppErrorException it throws means the
   * request was not sent, and is passed on as it is.
   */
  fetch?: typeof fetch;
  /** Other secrets no error text may carry (a refresh token), redacted like the token. */
  secrets?: readonly string[];
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
  /** A read's validator for the copy the caller holds: sent as If-None-Match / If-Modified-Since. */
  validator?: Validator | null;
  /** Further request headers (a redeem's `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/** What the panel said identifies an answer (`ETag`, `Last-Modified`), to ask later whether it changed. */
export interface Validator {
  etag?: string;
  lastModified?: string;
}

/** A read's answer: the body, or `notModified` (304) when the caller's copy is still current. */
export type ReadAnswer =
  { notModified: false; body: unknown; validator: Validator | null } | { notModified: true; validator: Validator };

export interface HttpClient {
  request(req: HttpRequest): Promise<unknown>;
  /** As {@link HttpClient.request}, with the answer's validator, and a 304 when `req.validator` still holds. */
  read(req: HttpRequest): Promise<ReadAnswer>;
}

export const UNAUTHORIZED_MESSAGE = t('httpTokenNotAccepted');

/** Longest server message passed on to the panelist. */
const MAX_SERVER_MESSAGE = 300;
/** Most per-field texts taken from a Laravel-style `errors` object; a profile has far fewer. */
const MAX_FIELDS = 100;
/** Longest variable name taken from an `errors` object. */
const MAX_FIELD_NAME = 100;
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
    throw new AppErrorException(appError('invalid_input', t('httpAddressInvalid')));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppErrorException(appError('invalid_input', t('httpAddressScheme')));
  }
  if (url.username || url.password) {
    throw new AppErrorException(appError('invalid_input', t('httpAddressCredentials')));
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The longest wait a `Retry-After` is taken for. Past it the request is tried again, and a server
 * still busy says so again: an absurd or hostile figure cannot silence the extension for days, and
 * a panelist is never told to wait longer than an hour.
 */
export const LONGEST_RETRY_AFTER_SECONDS = 3_600;

/** `Retry-After` in seconds (delta-seconds or an HTTP date), an hour at most, or undefined when unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(Number(value), LONGEST_RETRY_AFTER_SECONDS);
  // An HTTP date names its day or month ("Wed, 21 Oct 2015 07:28:00 GMT"); "-5" is not a date.
  if (!/[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, Math.ceil((date - now) / 1000)), LONGEST_RETRY_AFTER_SECONDS);
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

function redactError(error: AppError, secrets: readonly string[]): AppError {
  const out: AppError = { ...error, message: redact(error.message, ...secrets) };
  if (out.field !== undefined) out.field = redact(out.field, ...secrets);
  if (out.fields !== undefined) {
    out.fields = byName(
      entriesOf(out.fields).map(([name, text]) => [redact(name, ...secrets), redact(text, ...secrets)]),
    );
  }
  return out;
}

/**
 * Strict JSON (not the lenient parse ofetch uses), with ids exact (json.ts); undefined for an
 * empty or invalid body.
 */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: parseJsonExactIds(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * A server text fit for a status line: the token redacted before anything is cut (a cut through
 * it would leave a piece no later check finds), whitespace collapsed, at most `max` characters.
 */
function tidy(raw: string, secrets: readonly string[], max: number): string {
  const text = redact(raw, ...secrets)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Laravel-style validation texts, `errors: {KEY: ["…", "…"]}`: each key with its texts joined. Keys
 * stay as the panel wrote them: only the client knows which names it sent, so it decides whether
 * `PET.TYPE` is a variable of that name or `HOBBIES.0` an item of `HOBBIES` (client.ts). Anything
 * that is not an object of strings or lists of strings is passed over; undefined when nothing
 * usable is there.
 */
function fieldTexts(errors: unknown, secrets: readonly string[]): Record<string, string> | undefined {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return undefined;
  const texts = new Map<string, string[]>();
  let seen = 0;
  for (const key in errors) {
    if (!Object.hasOwn(errors, key)) continue;
    if ((seen += 1) > MAX_FIELDS) break;
    const name = tidy(key, secrets, MAX_FIELD_NAME);
    const raw = (errors as Record<string, unknown>)[key];
    const list = (Array.isArray(raw) ? raw.slice(0, MAX_FIELDS) : [raw]).filter(
      (x): x is string => typeof x === 'string',
    );
    const parts = list.map((text) => tidy(text, secrets, MAX_SERVER_MESSAGE)).filter(Boolean);
    if (!name || parts.length === 0) continue;
    texts.set(name, [...(texts.get(name) ?? []), ...parts]);
  }
  if (texts.size === 0) return undefined;
  // Null-prototype (utils/by-name.ts): a name like `__proto__` or `constructor` stays a plain key.
  return byName([...texts].map(([name, parts]) => [name, tidy(parts.join(' '), secrets, MAX_SERVER_MESSAGE)]));
}

/** Texts the panel gave about one variable, joined and bounded as each of them was. */
export function joinFieldTexts(texts: readonly string[]): string {
  return tidy(texts.join(' '), [], MAX_SERVER_MESSAGE);
}

interface ServerDetail {
  message?: string;
  field?: string;
  fields?: Record<string, string>;
}

/** The server's human message, field and per-field texts from an error body, when it has them. */
function serverDetail(text: string, secrets: readonly string[]): ServerDetail {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return {};
  const body = parsed.value as { message?: unknown; field?: unknown; error?: unknown; errors?: unknown };
  const raw = typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
  const fields = fieldTexts(body.errors, secrets);
  const [firstField, firstText] = entriesOf(fields)[0] ?? [];
  let message = tidy(raw, secrets, MAX_SERVER_MESSAGE);
  if (message.toLowerCase() === 'success') message = '';
  // Without a top-level message, the first field's own text says best what was wrong.
  if (!message && firstText) message = firstText;
  const named = typeof body.field === 'string' ? tidy(body.field, secrets, MAX_FIELD_NAME) : '';
  const field = named || firstField;
  return { ...(message ? { message } : {}), ...(field ? { field } : {}), ...(fields ? { fields } : {}) };
}

type Attempt =
  | { type: 'response'; status: number; text: string; headers: Headers }
  /**
   * A redirect answer, not followed. A browser hides its status and Location; where they are seen,
   * `to` is the absolute URL it points to.
   */
  | { type: 'redirected'; status?: number; to?: string }
  /** A 2xx whose body is over {@link MAX_API_BODY_BYTES}: not read past the limit. */
  | { type: 'too_large'; status: number }
  | { type: 'timeout' }
  | { type: 'network' };

/** Whether a read may try again after this attempt (429 is handled on its own). */
function retryable(attempt: Attempt): boolean {
  if (attempt.type === 'redirected' || attempt.type === 'too_large') return false;
  return attempt.type !== 'response' || attempt.status >= 500;
}

/** A redirect status that `redirect: 'manual'` hands back instead of following (304 is not one). */
function isRedirectStatus(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

/** A Location header as an absolute URL, or undefined when there is none or it cannot be read. */
function resolvedLocation(location: string | null | undefined, from: string): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, from).href;
  } catch {
    return undefined;
  }
}

/** The origin of the URL a response came from, or undefined when it is not given or unreadable. */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** What every request of one client shares, resolved once from its configuration. */
interface Panel {
  /** The normalised base URL; `origin` and `host` are its. */
  base: string;
  origin: string;
  host: string;
  token: string;
  /** The token and the other secrets no error text may carry. */
  secrets: readonly string[];
  timeoutMs: number;
  retries: number;
  baseDelay: number;
  maxRetryAfter: number;
  send: typeof ofetch;
}

/** The client's settings checked and resolved: an unsendable token is refused before anything is sent. */
function panelOf(config: HttpConfig): Panel {
  const base = normaliseBaseUrl(config.baseUrl);
  const token = config.token.trim();
  if (!TOKEN_RE.test(token)) {
    throw new AppErrorException(appError('invalid_input', token ? t('httpTokenUnsendable') : t('httpTokenMissing')));
  }
  const { origin, host } = new URL(base);
  return {
    base,
    origin,
    host,
    token,
    secrets: [token, ...(config.secrets ?? [])],
    timeoutMs: config.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    retries: Math.max(0, Math.floor(config.retries ?? HTTP_DEFAULTS.retries)),
    baseDelay: Math.max(0, config.retryBaseDelayMs ?? HTTP_DEFAULTS.retryBaseDelayMs),
    maxRetryAfter: config.maxRetryAfterSeconds ?? HTTP_DEFAULTS.maxRetryAfterSeconds,
    send: config.fetch ? ofetch.create({}, { fetch: config.fetch }) : ofetch,
  };
}

function urlOf(panel: Panel, req: HttpRequest): string {
  const query = req.query && Object.keys(req.query).length > 0 ? `?${new URLSearchParams(req.query)}` : '';
  return `${panel.base}${req.path}${query}`;
}

/** One HTTP exchange; throws only when the request was not sent. */
async function attempt(panel: Panel, req: HttpRequest): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, panel.timeoutMs);
  const headers: Record<string, string> = {
    ...req.headers,
    Authorization: `Bearer ${panel.token}`,
    Accept: 'application/json',
  };
  const hasBody = req.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';
  // Set by hand: with cache 'no-store' the browser adds none of its own, and hands a 304 back.
  if (req.validator?.etag) headers['If-None-Match'] = req.validator.etag;
  if (req.validator?.lastModified) headers['If-Modified-Since'] = req.validator.lastModified;
  try {
    // ofetch with its own retries, time-out and error throwing switched off: the policy above is
    // ours. The body is read here as a stream (inside the time-out, up to the size limit) and
    // parsed strictly below.
    const response = await panel.send.raw<ReadableStream<Uint8Array>, 'stream'>(urlOf(panel, req), {
      method: req.method,
      headers,
      ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
      responseType: 'stream',
      ignoreResponseError: true,
      retry: false,
      signal: controller.signal,
      redirect: 'manual',
      credentials: 'omit',
      cache: 'no-store',
    });
    // Browsers hide a manual redirect behind an opaque response (status 0, no Location);
    // Node's fetch gives the 3xx itself.
    if (response.type === 'opaqueredirect' || isRedirectStatus(response.status)) {
      await discard(response._data);
      const to = resolvedLocation(response.headers?.get('location'), urlOf(panel, req));
      return { type: 'redirected', ...(response.status ? { status: response.status } : {}), ...(to ? { to } : {}) };
    }
    // A fetch that followed after all (one not honouring `manual`) is refused as well, unless it
    // stayed within the panel: its answer is the panel's own.
    const landed = originOf(response.url);
    if (landed !== undefined && landed !== panel.origin) {
      await discard(response._data);
      return { type: 'redirected', to: response.url };
    }
    const body = await readLimited(response._data, response.headers, MAX_API_BODY_BYTES);
    const ok = response.status >= 200 && response.status < 300;
    if (!body.complete && ok) return { type: 'too_large', status: response.status };
    // An error answer that large says nothing more than its status does.
    return {
      type: 'response',
      status: response.status,
      text: body.complete ? body.text : '',
      headers: response.headers,
    };
  } catch (error) {
    // The request never left (its session had ended): not a network failure, said as it is.
    const cause = (error as { cause?: unknown } | null)?.cause;
    if (cause instanceof AppErrorException) throw cause;
    return timedOut ? { type: 'timeout' } : { type: 'network' };
  } finally {
    clearTimeout(timer);
  }
}

/** The one AppError for a final, unsuccessful attempt. */
function failure(panel: Panel, req: HttpRequest, result: Attempt, retryAfterSeconds?: number): AppError {
  const endpoint = req.path.split('?')[0] ?? req.path;
  const redeem = req.kind === 'redeem';
  const checkHistory = ` ${t('httpMayHaveGoneThrough')}`;
  if (result.type === 'timeout') {
    const seconds = new Intl.NumberFormat(uiLocale()).format(Math.round(panel.timeoutMs / 100) / 10);
    return appError(
      'timeout',
      redeem ? `${t('httpRedeemTimeout', seconds)}${checkHistory}` : t('httpTimeout', seconds),
      { endpoint },
    );
  }
  if (result.type === 'network') {
    return appError(
      'network',
      redeem ? `${t('httpRedeemNetwork', panel.origin)}${checkHistory}` : t('httpNetwork', panel.origin),
      { endpoint },
    );
  }
  if (result.type === 'redirected') return redirected(panel, req, endpoint, result);
  if (result.type === 'too_large') {
    return unexpectedResponse(endpoint, t('httpBodyTooLarge', sizeText(MAX_API_BODY_BYTES, uiLocale())), result.status)
      .error;
  }
  const { status } = result;
  if (status === 401) return appError('unauthorized', UNAUTHORIZED_MESSAGE, { status, endpoint });
  if (status === 403) {
    // Not a rejected token: the panel refuses this one action and the session stays.
    const detail = serverDetail(result.text, panel.secrets);
    return appError('not_allowed', detail.message ?? t('httpNotAllowed'), {
      status,
      endpoint,
      ...(detail.message ? { panelWords: true as const } : {}),
      ...(detail.field ? { field: detail.field } : {}),
      ...(detail.fields ? { fields: detail.fields } : {}),
    });
  }
  if (status === 429) {
    const when =
      retryAfterSeconds !== undefined
        ? t('httpRetryInSeconds', Math.max(1, Math.ceil(retryAfterSeconds)))
        : t('httpWaitAMoment');
    return appError('rate_limited', sentences(t('httpTooManyRequests'), when), {
      status,
      endpoint,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds: Math.ceil(retryAfterSeconds) } : {}),
    });
  }
  if (status >= 400 && status < 500) {
    const detail = serverDetail(result.text, panel.secrets);
    const fallback = status === 404 ? t('httpNotFound', endpoint) : t('httpRefused', status);
    return appError('rejected', detail.message ?? fallback, {
      status,
      endpoint,
      ...(detail.message ? { panelWords: true as const } : {}),
      ...(detail.field ? { field: detail.field } : {}),
      ...(detail.fields ? { fields: detail.fields } : {}),
    });
  }
  if (status >= 500) {
    return appError('server', redeem ? `${t('httpRedeemServer', status)}${checkHistory}` : t('httpServer', status), {
      status,
      endpoint,
    });
  }
  // 1xx/3xx that fetch did not resolve itself.
  return unexpectedResponse(endpoint, `HTTP ${status}`, status).error;
}

/**
 * A redirect is refused, named by the panel's host. `unexpected`, not `rejected`: the request
 * reached the panel, so for a redeem nothing proves that no points were spent.
 */
function redirected(
  panel: Panel,
  req: HttpRequest,
  endpoint: string,
  result: { status?: number; to?: string },
): AppError {
  const extra = {
    endpoint,
    ...(result.status ? { status: result.status } : {}),
    redirect: result.to ? { to: result.to } : {},
  };
  if (req.kind === 'redeem') {
    return appError('unexpected', sentences(t('httpRedeemRedirected', panel.host), t('httpMayHaveGoneThrough')), extra);
  }
  if (req.kind === 'write') return appError('unexpected', t('httpWriteRedirected', panel.host), extra);
  // Where it points is named when it is seen (Node) and is another site; a browser hides it.
  const to = result.to ? new URL(result.to) : undefined;
  if (!to || to.origin === panel.origin) return appError('unexpected', t('httpReadRedirectedHere', panel.host), extra);
  return appError('unexpected', t('httpReadRedirected', panel.host, to.host), extra);
}

async function run(panel: Panel, req: HttpRequest): Promise<ReadAnswer> {
  const endpoint = req.path.split('?')[0] ?? req.path;
  const isRead = req.kind === 'read';
  let retriesLeft = isRead ? panel.retries : 0;
  let backoffAttempt = 0;
  let rateLimitRetried = !isRead;
  for (;;) {
    const result = await attempt(panel, req);
    // Only an answer to a conditional read may be a 304; any other falls through to `unexpected`.
    if (
      result.type === 'response' &&
      result.status === 304 &&
      req.validator &&
      (req.validator.etag || req.validator.lastModified)
    ) {
      return { notModified: true, validator: validatorOf(result.headers) ?? req.validator };
    }
    if (result.type === 'response' && result.status >= 200 && result.status < 300) {
      const parsed = parseJson(result.text);
      if (!parsed.ok) {
        throw unexpectedResponse(
          endpoint,
          t(result.text.trim() === '' ? 'httpBodyEmpty' : 'httpBodyNotJson'),
          result.status,
        );
      }
      return { notModified: false, body: parsed.value, validator: validatorOf(result.headers) };
    }
    if (result.type === 'response' && result.status === 429) {
      const retryAfter = parseRetryAfter(result.headers.get('retry-after'));
      if (!rateLimitRetried && (retryAfter === undefined || retryAfter <= panel.maxRetryAfter)) {
        rateLimitRetried = true;
        await sleep(retryAfter === undefined ? backoffDelay(0, panel.baseDelay) : retryAfter * 1000);
        continue;
      }
      throw new AppErrorException(failure(panel, req, result, retryAfter));
    }
    if (retriesLeft > 0 && retryable(result)) {
      retriesLeft -= 1;
      await sleep(backoffDelay(backoffAttempt, panel.baseDelay));
      backoffAttempt += 1;
      continue;
    }
    throw new AppErrorException(failure(panel, req, result));
  }
}

async function read(panel: Panel, req: HttpRequest): Promise<ReadAnswer> {
  try {
    return await run(panel, req);
  } catch (error) {
    if (error instanceof AppErrorException) throw new AppErrorException(redactError(error.error, panel.secrets));
    // Not expected (attempt() throws only AppErrors); still one AppError, and never the raw text.
    throw new AppErrorException(redactError(appError('network', t('httpIncomplete', req.path)), panel.secrets));
  }
}

export function createHttp(config: HttpConfig): HttpClient {
  const panel = panelOf(config);
  return {
    read: (req) => read(panel, req),
    async request(req) {
      const answer = await read(panel, { ...req, validator: null });
      return answer.notModified ? undefined : answer.body;
    },
  };
}

/** Longer validators are not kept: no real one comes near, and each is stored and sent back. */
const MAX_VALIDATOR = 512;

/** The validators an answer carries, or null when it has none (a 304 may repeat them). */
function validatorOf(headers: Headers): Validator | null {
  const kept = (value: string | null) => (value && value.length <= MAX_VALIDATOR ? value : undefined);
  const etag = kept(headers.get('etag'));
  const lastModified = kept(headers.get('last-modified'));
  return etag || lastModified ? { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) } : null;
}
