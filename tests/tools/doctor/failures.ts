/**
 * Reads the extension's client could not use, told once per cause: an outage that fails all four
 * reads is one finding, not four, and not also a key problem. Each says what was requested (the
 * URL as sent), what panelists see (the client's own message, from the extension's catalogue) and
 * what to change. Redirects are told by redirects.ts.
 */
import { ENDPOINTS } from '../../../utils/api/client';
import { MAX_API_BODY_BYTES } from '../../../utils/api/body-limit';
import { HTTP_DEFAULTS } from '../../../utils/api/http';
import type { AppError } from '../../../utils/errors';
import type { Finding } from './report-types';
import { seconds, type Exchange } from './wire';

export interface FailedRead {
  endpoint: string;
  error: AppError;
  /** The request the client sent, when it was sent. */
  exchange: Exchange | undefined;
}

const LIMIT = `${MAX_API_BODY_BYTES / 1_000_000} MB`;
const TIMEOUT = seconds(HTTP_DEFAULTS.timeoutMs);
/** What the extension does after a read failed this way (design §5). */
const RETRIES = `tries a read ${HTTP_DEFAULTS.retries} more times with a pause between, then shows the error`;

/** An answer that is a web page: what it is titled, and whether it asks for a password (a sign-in page). */
export function htmlPage(exchange: Exchange | undefined): { title: string | null; signIn: boolean } | null {
  if (!exchange || exchange.status === null || exchange.status >= 300) return null;
  const type = exchange.headers?.get('content-type') ?? '';
  const body = exchange.body.trimStart();
  if (!/html/i.test(type) && !/^<(!doctype|html)/i.test(body)) return null;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim() || null;
  const signIn = /<input[^>]+type=["']?password/i.test(body) || /\b(sign|log)\s?-?in\b/i.test(title ?? '');
  return { title, signIn };
}

/** The cause a failure shares with others: reads that failed for the same one are told together. */
function cause(read: FailedRead, baseUrl: string): string {
  const { error, exchange } = read;
  if (exchange?.overLimit) return 'too-large';
  if (error.kind === 'unexpected' && htmlPage(exchange)) return 'html';
  switch (error.kind) {
    case 'unauthorized':
      return 'key';
    case 'timeout':
      return 'timeout';
    case 'network':
      return `network ${exchange?.failure?.kind === 'network' ? exchange.failure.cause : ''}`;
    case 'server':
      return `server ${error.status}`;
    case 'rejected':
      if (error.status === 404)
        return new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith('/v1') ? 'v1-twice' : 'not-found';
      return `rejected ${error.status}`;
    case 'not_allowed':
      return 'forbidden';
    case 'rate_limited':
      return 'rate-limited';
    case 'unexpected':
      // Each endpoint's body is its own: told one by one.
      return `shape ${read.endpoint}`;
    default:
      return `${error.kind} ${read.endpoint}`;
  }
}

/** The URLs as sent, the first in full and any more by their path. */
function requested(group: FailedRead[], baseUrl: string): string {
  const urls = group.map((r) => r.exchange?.url ?? `${baseUrl}${r.endpoint}`);
  if (urls.length === 1) return urls[0]!;
  const origin = new URL(urls[0]!).origin;
  return `${urls[0]}, ${urls
    .slice(1)
    .map((u) => (new URL(u).origin === origin ? new URL(u).pathname + new URL(u).search : u))
    .join(', ')}`;
}

const SHAPES: Record<string, string> = {
  [ENDPOINTS.rewards]:
    '`{"message": "success", "rewards": [...]}` with each reward as the interface document lists its fields',
  [ENDPOINTS.redemptions]:
    '`{"message": "success", "redemptions": [...]}` with each redemption as the interface document lists its fields',
  [ENDPOINTS.variablesMeta]:
    '`{"message": "success", "data": [...]}` with each variable definition as the interface document lists its fields',
  [ENDPOINTS.variablesData]:
    '`data` as records naming their variable (`name`, `variable_name` or `var_name`) with `value` or `values`, or as a map of variable name → value (design §3)',
};

function groupFinding(group: FailedRead[], tried: number, baseUrl: string): Finding {
  const [first] = group;
  const { error, exchange } = first!;
  const all = group.length === tried && tried > 1;
  const topic =
    group.length === 1 ? `GET ${exchange?.path ?? first!.endpoint}` : all ? 'Every read' : `${group.length} reads`;
  const urls = requested(group, baseUrl);
  const panelists = error.message;
  const fail = (text: string, change: string): Finding => ({ level: 'fail', topic, text, panelists, change });
  const key = cause(first!, baseUrl);
  if (key === 'key') {
    return fail(
      `${urls} answered 401: the key was not accepted. The extension asks the panelist to reconnect and reads nothing more (design §5), so the doctor stopped here too.`,
      "Run the doctor with a test panelist's personal key for this panel, as the extension sends it (`Authorization: Bearer <key>`).",
    );
  }
  if (key === 'too-large') {
    const read = Math.max(...group.map((r) => r.exchange?.bytes ?? 0));
    return fail(
      `${urls} answered with a body over ${LIMIT}, the extension's limit: it stops reading there and uses nothing of it (the doctor stopped too, after ${read.toLocaleString('en')} bytes).`,
      `Keep each answer under ${LIMIT}: the largest real one measured, 10,000 redemptions, is 22.4 MB.`,
    );
  }
  if (key === 'timeout') {
    return fail(
      `${urls} gave no answer within ${TIMEOUT}, the extension's time-out: the extension gives up on each attempt there, ${RETRIES} (design §5).`,
      `Make the panel answer these reads well within ${TIMEOUT} (under half of it leaves room for busier moments).`,
    );
  }
  if (key.startsWith('network')) {
    const why = exchange?.failure?.kind === 'network' ? ` (${exchange.failure.cause})` : '';
    return fail(
      `${urls} could not be reached${why}: no answer came at all. The extension ${RETRIES}.`,
      'Check the API address, and that the panel answers there from the internet: its DNS name, firewall and TLS certificate.',
    );
  }
  if (key.startsWith('server')) {
    return fail(
      `${urls} answered ${error.status}: the panel failed (an outage or a fault). The extension ${RETRIES} (design §5); what was read before stays on screen.`,
      `Fix the panel's server for these requests (its logs show them with User-Agent panel-doctor), then run the doctor again.`,
    );
  }
  if (key === 'v1-twice') {
    const base = new URL(baseUrl);
    const fixed = `${base.origin}${base.pathname.replace(/\/+$/, '').slice(0, -'/v1'.length)}`;
    return {
      ...fail(
        `The API address ends in /v1 and every endpoint path begins with /v1, so the extension requests ${urls}, and the panel answered 404.`,
        `Set the API address without the /v1: ${fixed}`,
      ),
      topic: 'Address',
    };
  }
  if (key === 'not-found') {
    return fail(
      `${urls} answered 404: the panel does not know ${group.length === 1 ? 'this read' : 'these reads'} at this address.`,
      `Check the API address: the endpoints must answer at ${baseUrl}/v1/panel/… (does the API sit under a path prefix such as /api?).`,
    );
  }
  if (key === 'forbidden') {
    return fail(
      `${urls} answered 403: the panel forbids ${group.length === 1 ? 'this read' : 'these reads'} to this key, and the extension shows the refusal where the data would be (design §5).`,
      "Allow panelists' keys these reads.",
    );
  }
  if (key === 'rate-limited') {
    return fail(
      `${urls} answered 429 to the doctor's few requests: panelists would be limited too (design §5).`,
      'Raise the rate limit for panelists: the extension reads the four endpoints when a page opens and the rewards about twice an hour.',
    );
  }
  if (key === 'html') {
    const page = htmlPage(exchange)!;
    const what = page.signIn ? 'a sign-in page' : 'a web page';
    return fail(
      `${urls} answered ${exchange?.status} with ${what}${page.title ? ` (titled “${page.title}”)` : ''}, not the API's JSON: ${page.signIn ? 'a sign-in wall (a single sign-on proxy, a firewall or CDN rule) stands in front of the API and does not take the key as a sign-in' : 'something in front of the API (a proxy, a CDN, a web server default page) answers in its place'}. The extension refuses it as not the documented shape (design §5).`,
      page.signIn
        ? 'Let requests that carry `Authorization: Bearer <key>` through to the API under /v1/panel/ without a browser sign-in (exempt those paths from the sign-in proxy), and answer them with JSON.'
        : 'Route /v1/panel/ to the API itself, and answer every read with JSON.',
    );
  }
  if (key.startsWith('shape')) {
    const body =
      first!.endpoint === ENDPOINTS.variablesData
        ? 'so the profile editor and any balance kept there stay empty'
        : 'so panelists see an error instead of it';
    return fail(
      `${urls} answered ${exchange?.status ?? ''} with a body the extension refuses as not the documented shape (design §5), ${body}.`.replace(
        ' answered  with',
        ' answered with',
      ),
      `Answer with ${SHAPES[first!.endpoint] ?? 'the documented shape'}.`,
    );
  }
  return fail(
    `${urls} was refused (${error.status ?? error.kind}).`,
    'Answer these reads with 200 and the documented body.',
  );
}

export function readFailureFindings(failed: FailedRead[], tried: number, baseUrl: string): Finding[] {
  const groups = new Map<string, FailedRead[]>();
  for (const read of failed) {
    const key = cause(read, baseUrl);
    groups.set(key, [...(groups.get(key) ?? []), read]);
  }
  return [...groups.values()].map((group) => groupFinding(group, tried, baseUrl));
}
