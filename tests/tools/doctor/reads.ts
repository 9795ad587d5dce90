/**
 * The panel's four reads, through the extension's own API client (its schemas, parsers, time-out
 * and body limit), each sent once more with its validators when it carries any. A read the client
 * sent more than once (a 429 waited out: the client's one retry after `Retry-After`) keeps every
 * attempt, so the report can say so; a redirected read is followed by the doctor itself, hop by
 * hop (redirects.ts).
 */
import { ENDPOINTS, type PanelClient, type ReadName, type Reads, type Validator } from '../../../utils/api/client';
import { attempt } from './attempt';
import type { FailedRead } from './failures';
import { followRedirects, type Redirected } from './redirects';
import type { ReadRow } from './report-types';
import type { Exchange, Wire } from './wire';

export const READS: ReadName[] = ['rewards', 'redemptions', 'variablesMeta', 'variablesData'];

export interface ReadResults {
  reads: ReadRow[];
  data: Partial<{ [K in ReadName]: Reads[K] }>;
  /** Each read's body as the panel wrote it (JSON), for what the parsed data no longer shows. */
  bodies: Partial<Record<ReadName, unknown>>;
  /** The exchange each working read was answered by (its headers: caching, validators). */
  answered: Partial<Record<ReadName, Exchange>>;
  failed: FailedRead[];
  redirected: Redirected[];
  /** Reads the client sent more than once, with each attempt. */
  retried: { endpoint: string; attempts: Exchange[] }[];
  notChecked: string[];
}

export async function readAll(api: PanelClient, wire: Wire, progress: (text: string) => void): Promise<ReadResults> {
  const out: ReadResults = {
    reads: [],
    data: {},
    bodies: {},
    answered: {},
    failed: [],
    redirected: [],
    retried: [],
    notChecked: [],
  };
  for (const name of READS) {
    const from = wire.exchanges.length;
    const first = await attempt(() => api.revalidate(name, null));
    const attempts = wire.exchanges.slice(from).filter((e) => !e.hop);
    // The last attempt is the answer the client used; earlier ones it sent again.
    const exchange = attempts.at(-1);
    if (attempts.length > 1) out.retried.push({ endpoint: ENDPOINTS[name], attempts });
    const row: ReadRow = {
      endpoint: ENDPOINTS[name],
      requested: exchange?.path ?? ENDPOINTS[name],
      status: exchange?.status ?? null,
      ms: exchange && !exchange.failure ? exchange.ms : null,
      bytes: exchange?.bytes ?? 0,
      summary: '',
      validators: 'none',
      conditional: null,
      attempts: attempts.length,
    };
    out.reads.push(row);
    if (!first.ok) {
      if (first.error.redirect && exchange) {
        row.summary = 'redirected: not followed';
        progress('  following the redirect, each hop checked before it is sent:\n');
        const chain = await followRedirects(wire, exchange);
        out.redirected.push({ endpoint: ENDPOINTS[name], error: first.error, chain });
      } else {
        row.summary = `refused: ${first.error.message}`;
        out.failed.push({ endpoint: ENDPOINTS[name], error: first.error, exchange });
      }
      if (first.error.kind === 'unauthorized') {
        const left = READS.slice(READS.indexOf(name) + 1).map((n) => ENDPOINTS[n]);
        if (left.length) out.notChecked.push(`the other reads (${left.join(', ')}): the key was refused`);
        break;
      }
      continue;
    }
    if (first.value.notModified) continue; // unreachable: no validator was sent
    out.data[name] = first.value.data as never;
    out.bodies[name] = JSON.parse(exchange?.body ?? 'null') as unknown;
    if (exchange) out.answered[name] = exchange;
    row.summary = summarise(name, first.value.data);
    row.validators = validatorKinds(first.value.validator);
    if (first.value.validator) row.conditional = await conditional(api, wire, name, first.value.validator);
  }
  return out;
}

/** The status of the read sent again at once with its validators: 304 when the panel saw nothing changed. */
async function conditional(api: PanelClient, wire: Wire, name: ReadName, validator: Validator): Promise<number | null> {
  const again = await attempt(() => api.revalidate(name, validator));
  if (again.ok && again.value.notModified) return 304;
  return wire.exchanges.at(-1)?.status ?? (again.ok ? 200 : null);
}

function summarise(name: ReadName, value: Reads[ReadName]): string {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  switch (name) {
    case 'rewards':
      return count((value as Reads['rewards']).rewards.length, 'reward');
    case 'redemptions':
      return count((value as Reads['redemptions']).length, 'redemption');
    case 'variablesMeta': {
      const defs = value as Reads['variablesMeta'];
      return `${count(defs.length, 'variable')}, ${defs.filter((d) => d.writable).length} writable`;
    }
    default:
      return count(Object.keys((value as Reads['variablesData']).values).length, 'stored value');
  }
}

function validatorKinds(validator: Validator | null): ReadRow['validators'] {
  if (validator?.etag && validator.lastModified) return 'ETag, Last-Modified';
  if (validator?.etag) return 'ETag';
  if (validator?.lastModified) return 'Last-Modified';
  return 'none';
}
