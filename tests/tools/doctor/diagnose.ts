/**
 * The panel doctor's examination: the panel's four reads through the extension's own API client
 * (utils/api/client.ts, with its schemas and parsers), judged by the extension's own rules
 * (balance.ts, stored-values.ts, base-url.ts), plus two harmless refusals (a made-up key, an
 * unknown filter) to see the panel's error bodies. Only reads leave (wire.ts refuses anything
 * else); nothing is redeemed, written or deleted.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS, createPanelApi, type ReadName, type Reads, type Validator } from '../../../utils/api/client';
import { HTTP_DEFAULTS, createHttp } from '../../../utils/api/http';
import { BALANCE_FIELDS, resolveBalance, toPoints } from '../../../utils/balance';
import { checkBaseUrl } from '../../../utils/base-url';
import { AppErrorException, type AppError } from '../../../utils/errors';
import { contentFindings } from './content';
import type { Finding, ReadRow, Report } from './report-types';
import { recordWire, type Exchange } from './wire';

export interface DiagnoseOptions {
  baseUrl: string;
  token: string;
  /** The build's balanceVariable (design §2, third place). */
  balanceVariable: string;
}

/** Longer than the extension's own time-out, so a slow panel is measured and named, not just cut off. */
const DOCTOR_TIMEOUT_MS = 30_000;
/** Half the extension's time-out: slower reads work, but a panelist waits and a little more fails. */
const SLOW_MS = HTTP_DEFAULTS.timeoutMs / 2;
const READS: ReadName[] = ['rewards', 'redemptions', 'variablesMeta', 'variablesData'];

type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

async function attempt<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof AppErrorException) return { ok: false, error: error.error };
    throw error;
  }
}

export async function diagnose(options: DiagnoseOptions): Promise<Report> {
  const address = checkBaseUrl(options.baseUrl);
  if (!address.ok) {
    return { baseUrl: options.baseUrl, reads: [], findings: [{ level: 'fail', topic: 'Address', text: `${address.message} (the options page refuses it too).` }] };
  }
  const baseUrl = address.baseUrl;
  const wire = recordWire(baseUrl);
  try {
    return await examine({ ...options, baseUrl }, wire.exchanges);
  } finally {
    wire.stop();
  }
}

async function examine(options: DiagnoseOptions, exchanges: Exchange[]): Promise<Report> {
  const config = { baseUrl: options.baseUrl, retries: 0, timeoutMs: DOCTOR_TIMEOUT_MS };
  const findings: Finding[] = [];
  const lastExchange = () => exchanges.at(-1);

  // The refusals come first, before any read: a panel's first answers are its plainest.
  findings.push(badTokenFinding(await attempt(() => createPanelApi({ ...config, token: `panel-doctor-${randomUUID()}` }).listRewards()), lastExchange()));
  const http = createHttp({ ...config, token: options.token });
  const refused = await attempt(() => http.request({ method: 'GET', path: ENDPOINTS.variablesData, query: { filter: 'panel-doctor-unknown' }, kind: 'read' }));
  findings.push(refusalFinding(refused, lastExchange()));

  const api = createPanelApi({ ...config, token: options.token });
  const reads: ReadRow[] = [];
  const data: Partial<{ [K in ReadName]: Reads[K] }> = {};
  const bodies: Partial<Record<ReadName, unknown>> = {};
  const redirected: Array<{ endpoint: string; exchange: Exchange }> = [];
  for (const name of READS) {
    const first = await attempt(() => api.revalidate(name, null));
    const exchange = lastExchange();
    const row: ReadRow = { endpoint: ENDPOINTS[name], status: exchange?.status ?? null, ms: exchange?.ms ?? null, bytes: exchange?.bytes ?? 0, summary: '', validators: 'none', conditional: null };
    reads.push(row);
    if (exchange?.redirectedTo) redirected.push({ endpoint: ENDPOINTS[name], exchange });
    if (!first.ok) {
      row.summary = `refused: ${first.error.message}`;
      // A read refused for ending at another origin is told once, with the other redirects.
      if (!exchange?.redirectedTo) findings.push(readFailure(name, first.error));
      if (first.error.kind === 'unauthorized') break;
      continue;
    }
    if (first.value.notModified) continue; // unreachable: no validator was sent
    data[name] = first.value.data as never;
    bodies[name] = JSON.parse(exchange?.body ?? 'null') as unknown;
    row.summary = summarise(name, first.value.data);
    row.validators = validatorKinds(first.value.validator);
    if (first.value.validator) {
      const again = await attempt(() => api.revalidate(name, first.value.validator as Validator));
      row.conditional = again.ok ? (again.value.notModified ? 304 : (lastExchange()?.status ?? 200)) : (lastExchange()?.status ?? null);
    }
  }

  if (redirected.length > 0) findings.push(redirectFinding(redirected, options.baseUrl));
  findings.push(...timingFindings(reads), ...validatorFindings(reads));
  if (data.variablesData) findings.push(storedShapeFinding(bodies.variablesData));
  if (data.rewards && data.variablesData && data.variablesMeta) {
    findings.push(...balanceFindings(options.balanceVariable, bodies, data.variablesData.values, data.variablesMeta.map((d) => d.name)));
  }
  findings.push(...contentFindings(data));
  return { baseUrl: options.baseUrl, reads, findings };
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

/** What each failure of a read means for panelists, with the design decision it meets. */
function readFailure(name: ReadName, error: AppError): Finding {
  const topic = `GET ${ENDPOINTS[name]}`;
  const because: Partial<Record<AppError['kind'], string>> = {
    unauthorized: 'The key was not accepted (401): every read fails and panelists are asked to reconnect (design §5). Check the key and that it is a panelist\'s.',
    unexpected:
      name === 'variablesData'
        ? 'The extension refuses this body, so the profile editor and any balance kept there stay empty (design §3: data as records naming their variable, or a map of name → value).'
        : 'The extension refuses this body as not the documented shape (design §5), so panelists see an error instead of it.',
    timeout: `No answer within ${DOCTOR_TIMEOUT_MS / 1000} s; the extension gives up after ${HTTP_DEFAULTS.timeoutMs / 1000} s (design §5).`,
    network: 'The panel could not be reached.',
    server: 'The panel failed (5xx); the extension retries a read twice, then shows the error (design §5).',
    not_allowed: 'The panel forbids this read to this key (403): panelists see "not allowed" (design §5).',
    rejected: error.status === 404 ? 'Not found: is the API address right (a path prefix such as /api)?' : 'The panel refused this read.',
    rate_limited: 'The panel limited the doctor\'s few requests (429): panelists would be limited too (design §5).',
  };
  return { level: 'fail', topic, text: `${error.message} ${because[error.kind] ?? ''}`.trim() };
}

/**
 * The extension follows no redirect (a browser hides where one points, so its next hop could not be
 * checked before it left): a panel that answers with one fails every read, save and redemption.
 */
function redirectFinding(redirected: Array<{ endpoint: string; exchange: Exchange }>, baseUrl: string): Finding {
  const hops = redirected.map(({ endpoint, exchange }) => `GET ${endpoint} (${exchange.status} to ${exchange.redirectedTo})`);
  const { endpoint, exchange } = redirected[0]!;
  const pointed = new URL(exchange.redirectedTo!);
  const crossOrigin = pointed.origin !== new URL(baseUrl).origin;
  // Where the API seems to live now: the Location without the endpoint, when it ends with it.
  const base = pointed.pathname.endsWith(endpoint) ? `${pointed.origin}${pointed.pathname.slice(0, pointed.pathname.length - endpoint.length)}` : null;
  return {
    level: 'fail',
    topic: 'Redirect',
    text:
      `${hops[0]}${hops.length > 1 ? ` and ${hops.length - 1} more read${hops.length > 2 ? 's' : ''} the same way` : ''}. ` +
      'The extension follows no redirect, to its own origin or another (a browser hides where one points, so the next hop could not be checked before it left): ' +
      'every read, profile save and redemption would fail.' +
      (crossOrigin ? ' It points to another origin, which the extension never talks to.' : '') +
      (base ? ` Set the API address to where it points: ${base}` : ' Set the API address to where the panel\'s API answers without a redirect.'),
  };
}

/** A made-up key must get a 401: only that makes the extension ask the panelist to reconnect (design §5). */
function badTokenFinding(outcome: Outcome<unknown>, exchange: Exchange | undefined): Finding {
  const topic = 'Error body: a wrong key';
  if (outcome.ok) return { level: 'fail', topic, text: `The panel answered a made-up key with ${exchange?.status ?? 200} and data: is the API open to anyone? Panelists with a wrong key would never be told.` };
  const { error } = outcome;
  if (error.kind === 'unauthorized') return { level: 'ok', topic, text: `401, ${bodyShape(exchange)}: the extension asks the panelist to reconnect (design §5).` };
  if (error.kind === 'not_allowed') {
    return { level: 'fail', topic, text: `403, ${bodyShape(exchange)}: a rejected key must be a 401. The extension reads a 403 as "not allowed" and keeps the session, so a panelist whose key was revoked is never asked to reconnect (design §5).` };
  }
  return { level: 'fail', topic, text: `${exchange?.status ?? error.kind}, ${bodyShape(exchange)}: a rejected key must be a 401 (design §5); the extension says "${error.message}".` };
}

/** A read with an unknown filter: whether the panel's refusals carry Laravel-style `errors`. */
function refusalFinding(outcome: Outcome<unknown>, exchange: Exchange | undefined): Finding {
  const topic = 'Error body: a refused read (an unknown filter)';
  if (outcome.ok) return { level: 'info', topic, text: 'The panel ignores an unknown filter (200), so there was no refusal to look at; profile saves are not tried (the doctor never writes).' };
  const { error } = outcome;
  const status = exchange?.status ?? error.status;
  if (error.kind === 'server') return { level: 'warn', topic, text: `An unknown filter made the panel fail with ${status} instead of refusing it (4xx).` };
  if (error.kind !== 'rejected' && error.kind !== 'not_allowed') return { level: 'info', topic, text: `${status ?? error.kind}: ${error.message}` };
  const laravel = error.fields
    ? `Laravel-style \`errors\` (${Object.keys(error.fields).join(', ')}): a refused profile save shows each field's own text next to that field (design §5)`
    : 'no Laravel-style `errors`: a refused profile save shows the panel\'s one message for the whole section (design §5)';
  return { level: 'ok', topic, text: `${status}, ${bodyShape(exchange)}, message "${error.message}"; ${laravel}.` };
}

function bodyShape(exchange: Exchange | undefined): string {
  if (!exchange || exchange.body.trim() === '') return 'no body';
  try {
    const body = JSON.parse(exchange.body) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'JSON that is not an object';
    const keys = Object.keys(body);
    return `JSON with ${keys.length ? keys.map((k) => `\`${k}\``).join(', ') : 'no fields'}`;
  } catch {
    return `a body that is not JSON (${exchange.headers.get('content-type') ?? 'no content type'}; the extension shows its own words)`;
  }
}

function timingFindings(reads: ReadRow[]): Finding[] {
  const timed = reads.filter((r): r is ReadRow & { ms: number } => r.ms !== null);
  if (timed.length === 0) return [];
  const slowest = timed.reduce((a, b) => (b.ms > a.ms ? b : a));
  const text = `slowest ${slowest.endpoint} at ${Math.round(slowest.ms)} ms`;
  if (slowest.ms > HTTP_DEFAULTS.timeoutMs) return [{ level: 'fail', topic: 'Response times', text: `${text}: over the extension's ${HTTP_DEFAULTS.timeoutMs / 1000} s time-out, so that read always fails (design §5).` }];
  if (slowest.ms > SLOW_MS) return [{ level: 'warn', topic: 'Response times', text: `${text}: over half the extension's ${HTTP_DEFAULTS.timeoutMs / 1000} s time-out; a busier moment fails it.` }];
  return [{ level: 'ok', topic: 'Response times', text: `${text}; the extension waits up to ${HTTP_DEFAULTS.timeoutMs / 1000} s.` }];
}

/** Idle traffic (README, "Idle traffic"): every refresh sends the cached copy's validators back. */
function validatorFindings(reads: ReadRow[]): Finding[] {
  const read = reads.filter((r) => r.summary && !r.summary.startsWith('refused'));
  const without = read.filter((r) => r.validators === 'none');
  const ignored = read.filter((r) => r.validators !== 'none' && r.conditional !== 304);
  const findings: Finding[] = [];
  if (without.length > 0) {
    const bytes = without.reduce((sum, r) => sum + r.bytes, 0);
    findings.push({
      level: 'warn',
      topic: 'Idle traffic',
      text: `no ETag or Last-Modified on ${without.map((r) => r.endpoint).join(', ')}: each read again downloads the whole answer (${bytes.toLocaleString('en')} bytes for these) instead of a 304 without a body, and the refresh alarm reads the rewards about twice an hour for every panelist.`,
    });
  }
  if (ignored.length > 0) {
    findings.push({ level: 'warn', topic: 'Idle traffic', text: `${ignored.map((r) => r.endpoint).join(', ')} sent validators but answered ${ignored.map((r) => r.conditional ?? 'an error').join(', ')} when they were sent back unchanged, not 304.` });
  }
  if (findings.length === 0 && read.length > 0) findings.push({ level: 'ok', topic: 'Idle traffic', text: 'every read carries validators and answers an unchanged copy with 304 and no body.' });
  return findings;
}

/** Design §3: which of the two accepted shapes `data` has, and which keys the records use. */
function storedShapeFinding(body: unknown): Finding {
  const data = (body as { data?: unknown }).data;
  const topic = 'Stored values (design §3)';
  if (!Array.isArray(data)) return { level: 'ok', topic, text: `a map of variable name → value (${Object.keys(data as object).length} values).` };
  const used = (keys: readonly string[]) => [...new Set(data.map((r) => keys.find((k) => k in (r as object))).filter(Boolean))].map((k) => `\`${k}\``).join(', ');
  return { level: 'ok', topic, text: `a list of ${data.length} records, naming the variable in ${used(['name', 'variable_name', 'var_name']) || 'nothing'} and the value in ${used(['value', 'values']) || 'nothing'}.` };
}

/** Design §2: where the balance comes from, in the extension's order, and whether balanceVariable exists. */
function balanceFindings(variable: string, bodies: Partial<Record<ReadName, unknown>>, values: Reads['variablesData']['values'], defined: string[]): Finding[] {
  const fieldIn = (body: unknown) => BALANCE_FIELDS.find((f) => toPoints((body as Record<string, unknown> | null)?.[f]) !== null);
  const rewardsField = fieldIn(bodies.rewards);
  const variablesField = fieldIn(bodies.variablesData);
  const points = (body: unknown, field: string | undefined) => (field ? toPoints((body as Record<string, unknown>)[field]) : null);
  const balance = resolveBalance({ rewards: points(bodies.rewards, rewardsField), variables: points(bodies.variablesData, variablesField), stored: values, variableName: variable });
  const shown = balance.points === null ? '' : `${balance.points.toLocaleString('en')} points`;
  const where = {
    rewards: `the rewards response's top-level \`${rewardsField}\` (the first place the extension looks)`,
    variables: `the read-variables response's top-level \`${variablesField}\` (the second place)`,
    'stored-variable': `the stored variable ${variable} (the third place, balanceVariable)`,
    unknown: '',
  }[balance.source];
  const findings: Finding[] = [
    balance.points === null
      ? { level: 'warn', topic: 'Balance (design §2)', text: `not found: neither response has a top-level ${BALANCE_FIELDS.map((f) => `\`${f}\``).join(', ')} in whole points, and the stored variable ${variable} holds none. The popup shows costs with the balance "unknown"; the panel still decides each redemption.` }
      : { level: 'ok', topic: 'Balance (design §2)', text: `${shown}, from ${where}.` },
  ];
  const both = [points(bodies.rewards, rewardsField), points(bodies.variablesData, variablesField)];
  if (both[0] !== null && both[1] !== null && both[0] !== both[1]) {
    findings.push({ level: 'warn', topic: 'Balance (design §2)', text: `The rewards response says ${both[0]} and the read-variables response ${both[1]}: the extension shows the first.` });
  }
  const isDefined = defined.includes(variable);
  const isStored = Object.hasOwn(values, variable);
  const topic = `balanceVariable ${variable}`;
  if (balance.source === 'stored-variable') findings.push({ level: 'ok', topic, text: `stored, holding ${shown}.` });
  else if (isStored) findings.push({ level: balance.source === 'unknown' ? 'warn' : 'info', topic, text: `stored, but its value ${JSON.stringify(values[variable])} is not whole points (design §8).` });
  else {
    const candidates = Object.entries(values).filter(([name, value]) => /POINT|BALANCE|CREDIT/i.test(name) && toPoints(value) !== null).map(([name]) => name);
    const hint = candidates.length ? ` Stored variables that look like it: ${candidates.join(', ')} (set balanceVariable to one).` : '';
    findings.push({
      level: balance.source === 'unknown' ? 'warn' : 'info',
      topic,
      text: `${isDefined ? 'defined in /variables/meta but not stored for this panelist' : 'not on this panel (not in /variables/meta, not stored)'}${balance.source === 'unknown' ? '.' : `; not needed while ${where.split(' (')[0]} carries the balance.`}${hint}`,
    });
  }
  return findings;
}
