/**
 * A read the panel answered with a redirect. The extension follows none (design §5: a browser hides
 * where one points, so its next hop could not be checked before it left), so for panelists every
 * such read fails. The doctor follows the redirect itself, only to say where the API went: each hop
 * is checked before it is sent (wire.ts) and the first one that is not a read of this panel stops
 * the chain, named. Reads that went the same way are told in one finding.
 */
import { HTTP_DEFAULTS } from '../../../utils/api/http';
import type { AppError } from '../../../utils/errors';
import type { Finding } from './report-types';
import { READ_ENDPOINTS, outcomeText, seconds, type Exchange, type Refusal, type Wire } from './wire';

/** Hops the doctor follows after the read's own answer; browsers stop at 20, real moves take one or two. */
const MAX_HOPS = 5;

export type ChainEnd =
  | { kind: 'answered'; exchange: Exchange }
  | { kind: 'failed'; exchange: Exchange }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'no-location'; exchange: Exchange }
  | { kind: 'loop'; url: string }
  | { kind: 'too-many' };

export interface Chain {
  /** The read's own answer first, then each hop the doctor sent. */
  hops: Exchange[];
  end: ChainEnd;
}

export interface Redirected {
  endpoint: string;
  /** What the extension says (its client's message, from the catalogue). */
  error: AppError;
  chain: Chain;
}

/** Follows `first`'s redirect hop by hop, each checked before it leaves. */
export async function followRedirects(wire: Wire, first: Exchange): Promise<Chain> {
  const hops = [first];
  const seen = new Set([first.url]);
  let last = first;
  for (let n = 0; n < MAX_HOPS; n += 1) {
    const next = last.redirectedTo;
    if (!next) return { hops, end: { kind: 'no-location', exchange: last } };
    if (seen.has(next)) return { hops, end: { kind: 'loop', url: next } };
    seen.add(next);
    const sent = await wire.hop(next);
    if ('refusal' in sent) return { hops, end: { kind: 'refused', refusal: sent.refusal } };
    hops.push(sent.exchange);
    last = sent.exchange;
    if (last.failure || last.overLimit) return { hops, end: { kind: 'failed', exchange: last } };
    if (last.status === null || last.status < 300 || last.status >= 400 || last.status === 304)
      return { hops, end: { kind: 'answered', exchange: last } };
  }
  return { hops, end: { kind: 'too-many' } };
}

/** The base URL a read endpoint's URL implies (its origin and the path before the endpoint). */
function baseOf(url: string): string | null {
  const parsed = new URL(url);
  const endpoint = READ_ENDPOINTS.find((e) => parsed.pathname.endsWith(e));
  return endpoint ? `${parsed.origin}${parsed.pathname.slice(0, parsed.pathname.length - endpoint.length)}` : null;
}

/** Reads that went the same way share a finding: the same end, at the same place. */
function signature(chain: Chain): string {
  const { end } = chain;
  switch (end.kind) {
    case 'answered':
      return `answered ${end.exchange.status} ${baseOf(end.exchange.url)}`;
    case 'failed':
      return `failed ${end.exchange.failure?.kind ?? 'too-large'} ${baseOf(end.exchange.url)}`;
    case 'refused':
      return `refused ${end.refusal.kind} ${new URL(end.refusal.url).origin}`;
    default:
      return end.kind;
  }
}

/** "GET <url> answered 301 to <url>, which answered 302 to <url>" */
function chainText(chain: Chain): string {
  const [first, ...rest] = chain.hops;
  let text = `GET ${first!.url} answered ${first!.status}${first!.redirectedTo ? ` to ${first!.redirectedTo}` : ''}`;
  for (const hop of rest) {
    text +=
      hop.failure?.kind === 'timeout'
        ? `, which gave no answer within ${seconds(HTTP_DEFAULTS.timeoutMs)} (the extension's time-out)`
        : `, which ${describe(hop)}`;
  }
  return text;
}

function describe(hop: Exchange): string {
  if (hop.failure) return `could not be reached (${outcomeText(hop)})`;
  if (hop.overLimit) return `answered ${hop.status} with a body over the extension's 25 MB limit`;
  if (hop.redirectedTo) return `answered ${hop.status} to ${hop.redirectedTo}`;
  return `answered ${hop.status}`;
}

function notFollowed(refusal: Refusal, panelOrigin: string): string {
  const origin = new URL(refusal.url).origin;
  switch (refusal.kind) {
    case 'redeem':
      return "the redeem endpoint, not followed (following it would spend the test panelist's points; no panelist's browser follows it either, but a read pointed at the redeem is a routing fault)";
    case 'plain-http':
      return 'plain http, not followed (the key would cross the network unencrypted)';
    case 'origin':
      return `another origin, not followed (the doctor sends the key to ${panelOrigin} only; \`--allow-origin ${origin}\` lets it follow there)`;
    case 'scheme':
      return 'not an http(s) address, not followed';
    case 'query':
      return 'a query no read carries, not followed';
    default:
      return 'not one of the four reads under the API address, not followed';
  }
}

function groupFinding(group: Redirected[], baseUrl: string): Finding {
  const [first] = group;
  const { chain, error } = first!;
  const more = group.length - 1;
  const others =
    more > 0
      ? `; ${
          more === READ_ENDPOINTS.length - 1
            ? 'the 3 other reads'
            : `${more} more read${more === 1 ? '' : 's'} (${group
                .slice(1)
                .map((r) => r.endpoint)
                .join(', ')})`
        } the same way`
      : '';
  const { end } = chain;
  const fallback = `Set the API address to where the panel's API answers without a redirect, or have it answer at ${baseUrl} itself.`;
  let what = '';
  let change = fallback;
  if (end.kind === 'answered') {
    const status = end.exchange.status ?? 0;
    const moved = baseOf(end.exchange.url);
    const works = status >= 200 && status < 300;
    what = works ? ' (the API answers there)' : ' (no working read there either)';
    if (works && moved !== null)
      change = `Set the API address (apiBaseUrl) to ${moved}, or have the panel answer at ${baseUrl} without a redirect; then run the doctor again.`;
  } else if (end.kind === 'refused') {
    what = `: that is ${notFollowed(end.refusal, new URL(baseUrl).origin)}`;
    if (end.refusal.kind === 'redeem')
      change = `Fix the panel's routing: a read must answer itself, never redirect, least of all to GET ${new URL(end.refusal.url).pathname}.`;
    if (end.refusal.kind === 'plain-http')
      change = "Set the API address to the panel's https address where the API answers without a redirect.";
  } else if (end.kind === 'no-location') what = ' without a usable Location';
  else if (end.kind === 'loop') what = `, back to ${end.url}: a loop`;
  else if (end.kind === 'too-many') what = `, and on for more than ${MAX_HOPS} hops`;
  return {
    level: 'fail',
    topic: 'Redirect',
    text:
      `${chainText(chain)}${what}${others}. ` +
      'The extension follows no redirect, to its own origin or another (a browser hides where one points, so the next hop could not be checked before it left): ' +
      'every read, profile save and redemption would fail.',
    panelists: error.message,
    change,
  };
}

export function redirectFindings(redirected: Redirected[], baseUrl: string): Finding[] {
  const groups = new Map<string, Redirected[]>();
  for (const r of redirected) {
    const key = signature(r.chain);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((group) => groupFinding(group, baseUrl));
}
