/**
 * How the reads travel, judged for panelists: response times against the extension's time-out,
 * idle traffic (validators and 304, ARCHITECTURE.md "Refreshes and idle traffic"), reads the
 * client had to send again (a 429 waited out), and whether a shared cache (a CDN, a company proxy)
 * may keep one panelist's answer and give it to another.
 */
import type { ReadName } from '../../../utils/api/client';
import { HTTP_DEFAULTS } from '../../../utils/api/http';
import { t } from '../../../utils/i18n';
import type { Finding, ReadRow } from './report-types';
import { outcomeText, seconds, type Exchange } from './wire';

/** Half the extension's time-out: slower reads work, but a panelist waits and a little more fails. */
const SLOW_MS = HTTP_DEFAULTS.timeoutMs / 2;

/** A read the extension could use (not refused, not redirected). */
const worked = (row: ReadRow) =>
  row.summary !== '' && !row.summary.startsWith('refused') && !row.summary.startsWith('redirected');

export function timingFindings(reads: ReadRow[]): Finding[] {
  const timed = reads.filter((r): r is ReadRow & { ms: number } => r.ms !== null && worked(r));
  if (timed.length === 0) return [];
  const slowest = timed.reduce((a, b) => (b.ms > a.ms ? b : a));
  const limit = seconds(HTTP_DEFAULTS.timeoutMs);
  const text = `slowest ${slowest.requested} at ${Math.round(slowest.ms)} ms`;
  if (slowest.ms > SLOW_MS) {
    return [
      {
        level: 'warn',
        topic: 'Response times',
        text: `${text}: over half the extension's ${limit} time-out; a busier moment fails it.`,
        panelists: `a wait, and at busier moments “${t('httpTimeout', HTTP_DEFAULTS.timeoutMs / 1000)}”`,
        change: `Make this read answer well within ${limit}.`,
      },
    ];
  }
  return [{ level: 'ok', topic: 'Response times', text: `${text}; the extension waits up to ${limit}.` }];
}

/** Idle traffic (ARCHITECTURE.md, "Refreshes and idle traffic"): every refresh sends the cached copy's validators back. */
export function validatorFindings(reads: ReadRow[]): Finding[] {
  const read = reads.filter(worked);
  const without = read.filter((r) => r.validators === 'none');
  const ignored = read.filter((r) => r.validators !== 'none' && r.conditional !== 304);
  const findings: Finding[] = [];
  if (without.length > 0) {
    const bytes = without.reduce((sum, r) => sum + r.bytes, 0);
    findings.push({
      level: 'warn',
      topic: 'Idle traffic',
      text: `no ETag or Last-Modified on ${without.map((r) => r.endpoint).join(', ')}: each read again downloads the whole answer (${bytes.toLocaleString('en')} bytes for these) instead of a 304 without a body, and the refresh alarm reads the rewards about twice an hour for every panelist.`,
      panelists: 'the same pages; each refresh costs them (and the panel) the whole answer again',
      change:
        'Send an ETag (or Last-Modified) with each read, and answer If-None-Match (If-Modified-Since) with 304 when nothing changed.',
    });
  }
  if (ignored.length > 0) {
    findings.push({
      level: 'warn',
      topic: 'Idle traffic',
      text: `${ignored.map((r) => r.endpoint).join(', ')} sent validators but answered ${ignored.map((r) => r.conditional ?? 'an error').join(', ')} when they were sent back unchanged, not 304.`,
      panelists: 'the same pages; each refresh costs them (and the panel) the whole answer again',
      change: 'Answer a request whose If-None-Match (If-Modified-Since) still holds with 304 and no body.',
    });
  }
  if (findings.length === 0 && read.length > 0)
    findings.push({
      level: 'ok',
      topic: 'Idle traffic',
      text: 'every read carries validators and answers an unchanged copy with 304 and no body.',
    });
  return findings;
}

/** Reads the client sent more than once: the panel limited the doctor's handful of requests. */
export function retryFindings(retried: { endpoint: string; attempts: Exchange[] }[]): Finding[] {
  if (retried.length === 0) return [];
  const told = retried.map(({ attempts }) => {
    const [first, ...rest] = attempts;
    const wait = first?.headers?.get('retry-after');
    return `GET ${first?.path} answered ${first?.status}${wait ? ` (Retry-After: ${wait})` : ''}, then ${rest.map((e) => outcomeText(e)).join(', then ')}`;
  });
  return [
    {
      level: 'warn',
      topic: 'Rate limit',
      text: `${told.join('; ')}. The extension's client sent ${retried.length === 1 ? 'this read' : 'these reads'} again after the wait, as it does for panelists: once, and only when Retry-After is at most ${HTTP_DEFAULTS.maxRetryAfterSeconds} s.`,
      panelists: `a wait when a page opens, and with a longer Retry-After “${t('httpRetryInSeconds', HTTP_DEFAULTS.maxRetryAfterSeconds + 1)}” instead of their data`,
      change:
        'Let a panelist read without a limit this tight: the extension reads the four endpoints when a page opens, and the rewards about twice an hour.',
    },
  ];
}

/**
 * RFC 9111 §3.5: a shared cache may answer a request that carries `Authorization` from its store
 * only when the answer said `public`, `s-maxage` or `must-revalidate`. Then, unless `Vary` names
 * Authorization (or `*`), the next panelist asking the same URL gets this one's answer.
 */
function sharedCacheable(headers: Headers | null): string | null {
  const control = headers?.get('cache-control')?.toLowerCase() ?? '';
  const directives = control.split(',').map((d) => d.trim().split('=')[0]!);
  if (directives.includes('private') || directives.includes('no-store')) return null;
  const allows = ['public', 's-maxage', 'must-revalidate'].filter((d) => directives.includes(d));
  if (allows.length === 0) return null;
  const vary = (headers?.get('vary') ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim());
  if (vary.includes('authorization') || vary.includes('*')) return null;
  return `Cache-Control: ${headers?.get('cache-control')}${headers?.get('vary') ? `, Vary: ${headers.get('vary')}` : ', no Vary'}`;
}

export function cachingFindings(answered: Partial<Record<ReadName, Exchange>>): Finding[] {
  const shared = Object.values(answered)
    .map((exchange) => ({ exchange, why: sharedCacheable(exchange.headers) }))
    .filter((r): r is { exchange: Exchange; why: string } => r.why !== null);
  if (Object.keys(answered).length === 0) return [];
  if (shared.length === 0)
    return [
      {
        level: 'ok',
        topic: 'Caching',
        text: 'no answer lets a shared cache keep it for other panelists (no Cache-Control public, s-maxage or must-revalidate without Vary: Authorization).',
      },
    ];
  return [
    {
      level: 'fail',
      topic: 'Caching',
      text: `${shared.map((r) => `GET ${r.exchange.path} (${r.why})`).join('; ')}: a shared cache (a CDN, a company or school proxy) may keep ${shared.length === 1 ? 'this answer' : 'these answers'} and give ${shared.length === 1 ? 'it' : 'them'} to the next panelist who asks the same address (RFC 9111 §3.5), since nothing says the answer depends on the key.`,
      panelists: "another panelist's balance, rewards, history or profile, from the cache",
      change:
        'Send Cache-Control: private (or no-store) with every answer to a request that carries a key; if a CDN must cache it, add Vary: Authorization.',
    },
  ];
}
