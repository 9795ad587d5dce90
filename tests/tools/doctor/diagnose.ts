/**
 * The panel doctor's examination: the panel's four reads through the extension's own API client
 * (utils/api/client.ts, with its schemas, parsers, time-out and body limit), judged by the
 * extension's own rules (balance.ts, stored-values.ts, base-url.ts); where a read is redirected,
 * where the redirect leads (each hop checked before it is sent); then two harmless refusals (a
 * made-up key, an unknown filter) to see the panel's error bodies; and, only with write checks, a
 * profile save of an unchanged value and, only for a reward the operator names and confirms, a
 * redemption. wire.ts sends nothing else.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINTS, createPanelApi, type ReadName, type Reads, type Validator } from '../../../utils/api/client';
import { HTTP_DEFAULTS, createHttp } from '../../../utils/api/http';
import { BALANCE_FIELDS, resolveBalance, toPoints } from '../../../utils/balance';
import { checkBaseUrl } from '../../../utils/base-url';
import { t } from '../../../utils/i18n';
import { attempt, type Outcome } from './attempt';
import { bodyShape } from './body';
import { contentFindings } from './content';
import { readFailureFindings, type FailedRead } from './failures';
import { redactSecrets } from './redact';
import { followRedirects, redirectFindings, type Redirected } from './redirects';
import type { Finding, ReadRow, Report, SentWrite } from './report-types';
import { openWire, seconds, type Exchange, type Wire } from './wire';
import { profileSaveCheck, redeemCheck, type CheckResult, type RedeemRequest } from './writes';

export interface DiagnoseOptions {
  baseUrl: string;
  token: string;
  /** The build's balanceVariable (design §2, third place). */
  balanceVariable: string;
  /** `--write-checks`: a profile save of an unchanged value (a test panelist only). */
  writeChecks?: boolean;
  /** `--redeem-check <id>` (with write checks): a redemption, sent only once confirmed. */
  redeem?: RedeemRequest | null;
  /** `--allow-origin`: other origins a redirect may be followed to, to see what answers there. */
  allowOrigins?: readonly string[];
  /**
   * Per request. The extension's own (10 s) unless a test shortens it; the report always speaks
   * of the extension's, which is what panelists meet.
   */
  timeoutMs?: number;
  /** Progress, as each check runs and each request leaves and ends (the CLI writes it to stderr). */
  progress?: (text: string) => void;
}

/** Half the extension's time-out: slower reads work, but a panelist waits and a little more fails. */
const SLOW_MS = HTTP_DEFAULTS.timeoutMs / 2;
const READS: ReadName[] = ['rewards', 'redemptions', 'variablesMeta', 'variablesData'];
/** What the extension's client sends as a key (utils/api/http.ts): visible ASCII, no spaces. */
const SENDABLE_KEY = /^[\x21-\x7e]+$/;

const NOT_CHECKED_DELETE = 'the answer to deleting a stored value (the doctor never deletes one)';

function report(baseUrl: string, findings: Finding[], notChecked: string[], writeChecks = false): Report {
  return { baseUrl, timeoutMs: HTTP_DEFAULTS.timeoutMs, writeChecks, reads: [], findings, sent: [], notChecked };
}

export async function diagnose(options: DiagnoseOptions): Promise<Report> {
  const nothingRead = ['every answer: nothing was sent'];
  const address = checkBaseUrl(options.baseUrl);
  if (!address.ok) {
    return report(
      options.baseUrl,
      [
        {
          level: 'fail',
          topic: 'Address',
          text: `${address.message} (the options page refuses it too, and the doctor sent nothing).`,
          panelists: address.message,
          change:
            "Set apiBaseUrl to the https address of the panel's API (plain http only for localhost), without a query, fragment or credentials.",
        },
      ],
      nothingRead,
    );
  }
  const token = options.token.trim();
  if (!SENDABLE_KEY.test(token)) {
    const message = t('httpTokenUnsendable');
    return report(
      address.baseUrl,
      [
        {
          level: 'fail',
          topic: 'Key',
          text: 'The key holds spaces or characters a header cannot carry: nothing was sent.',
          panelists: message,
          change: "Give the doctor a test panelist's personal key, exactly as the panel issued it.",
        },
      ],
      nothingRead,
    );
  }
  const progress = options.progress ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs;
  const wire = openWire({
    baseUrl: address.baseUrl,
    key: token,
    allowOrigins: options.allowOrigins ?? [],
    timeoutMs,
    progress,
  });
  try {
    const examined = await examine({ ...options, baseUrl: address.baseUrl, timeoutMs }, wire, progress);
    return redactReport(examined, [token]);
  } finally {
    wire.stop();
  }
}

/** The key, wherever the panel echoed it, as a whole token (redact.ts). */
function redactReport(out: Report, secrets: string[]): Report {
  const r = (text: string) => redactSecrets(text, secrets);
  return {
    ...out,
    reads: out.reads.map((row) => ({ ...row, requested: r(row.requested), summary: r(row.summary) })),
    findings: out.findings.map((f) =>
      f.level === 'warn' || f.level === 'fail'
        ? { ...f, topic: r(f.topic), text: r(f.text), panelists: r(f.panelists), change: r(f.change) }
        : { ...f, topic: r(f.topic), text: r(f.text) },
    ),
    sent: out.sent.map((s) => ({ ...s, path: r(s.path), what: r(s.what) })),
    notChecked: out.notChecked.map(r),
  };
}

async function examine(
  options: DiagnoseOptions & { timeoutMs: number },
  wire: Wire,
  progress: (text: string) => void,
): Promise<Report> {
  const config = { baseUrl: options.baseUrl, retries: 0, timeoutMs: options.timeoutMs };
  const api = createPanelApi({ ...config, token: wire.clientKey });
  const findings: Finding[] = [];
  const notChecked: string[] = [];
  const reads: ReadRow[] = [];
  const data: Partial<{ [K in ReadName]: Reads[K] }> = {};
  const bodies: Partial<Record<ReadName, unknown>> = {};
  const failed: FailedRead[] = [];
  const redirected: Redirected[] = [];
  const sentBy = (from: number): Exchange | undefined => wire.exchanges.slice(from).find((e) => !e.hop);

  progress(
    `Reading ${options.baseUrl} as the extension does (each request waits at most ${seconds(options.timeoutMs)}):\n`,
  );
  for (const name of READS) {
    const from = wire.exchanges.length;
    const first = await attempt(() => api.revalidate(name, null));
    const exchange = sentBy(from);
    const row: ReadRow = {
      endpoint: ENDPOINTS[name],
      requested: exchange?.path ?? ENDPOINTS[name],
      status: exchange?.status ?? null,
      ms: exchange && !exchange.failure ? exchange.ms : null,
      bytes: exchange?.bytes ?? 0,
      summary: '',
      validators: 'none',
      conditional: null,
    };
    reads.push(row);
    if (!first.ok) {
      if (first.error.redirect && exchange) {
        row.summary = 'redirected: not followed';
        progress('  following the redirect, each hop checked before it is sent:\n');
        redirected.push({
          endpoint: ENDPOINTS[name],
          error: first.error,
          chain: await followRedirects(wire, exchange),
        });
      } else {
        row.summary = `refused: ${first.error.message}`;
        failed.push({ endpoint: ENDPOINTS[name], error: first.error, exchange });
      }
      if (first.error.kind === 'unauthorized') {
        const left = READS.slice(READS.indexOf(name) + 1).map((n) => ENDPOINTS[n]);
        if (left.length) notChecked.push(`the other reads (${left.join(', ')}): the key was refused`);
        break;
      }
      continue;
    }
    if (first.value.notModified) continue; // unreachable: no validator was sent
    data[name] = first.value.data as never;
    bodies[name] = JSON.parse(exchange?.body ?? 'null') as unknown;
    row.summary = summarise(name, first.value.data);
    row.validators = validatorKinds(first.value.validator);
    if (first.value.validator) {
      const again = await attempt(() => api.revalidate(name, first.value.validator as Validator));
      row.conditional = again.ok
        ? again.value.notModified
          ? 304
          : (wire.exchanges.at(-1)?.status ?? 200)
        : (wire.exchanges.at(-1)?.status ?? null);
    }
  }

  findings.push(
    ...redirectFindings(redirected, options.baseUrl),
    ...readFailureFindings(failed, reads.length, options.baseUrl),
  );

  // The refusals, on reads that worked: a made-up key where the real one was let in, an unknown
  // filter where the plain read answered. Otherwise whatever failed the read would be told again.
  const working = READS.find((name) => data[name] !== undefined);
  if (working) progress('A made-up key and an unknown filter, to see how the panel refuses:\n');
  if (working) {
    const from = wire.exchanges.length;
    const wrong = await attempt(() =>
      createPanelApi({ ...config, token: `panel-doctor-${randomUUID()}` }).revalidate(working, null),
    );
    findings.push(badTokenFinding(wrong, sentBy(from)));
  } else notChecked.push('what a wrong key gets (no read worked to compare it with)');
  if (data.variablesData) {
    const from = wire.exchanges.length;
    const http = createHttp({ ...config, token: wire.clientKey });
    const refused = await attempt(() =>
      http.request({
        method: 'GET',
        path: ENDPOINTS.variablesData,
        query: { filter: 'panel-doctor-unknown' },
        kind: 'read',
      }),
    );
    findings.push(refusalFinding(refused, sentBy(from)));
  } else notChecked.push(`how a refused request's body looks (GET ${ENDPOINTS.variablesData} did not work)`);

  findings.push(...timingFindings(reads), ...validatorFindings(reads));
  if (data.variablesData) findings.push(storedShapeFinding(bodies.variablesData));
  let balance: number | null = null;
  if (data.rewards && data.variablesData && data.variablesMeta) {
    const found = balanceFindings(
      options.balanceVariable,
      bodies,
      data.variablesData.values,
      data.variablesMeta.map((d) => d.name),
    );
    findings.push(...found.findings);
    balance = found.points;
  }
  findings.push(...contentFindings(data));

  // Write checks: only when asked for, and said loudly in the report's header.
  if (!options.writeChecks) {
    notChecked.push(
      'the answer to a profile save (run with --write-checks)',
      NOT_CHECKED_DELETE,
      'the answer to a redemption (run with --write-checks --redeem-check <reward id>)',
    );
  } else {
    progress('WRITE CHECKS (a test panelist only):\n');
    let save: CheckResult;
    if (data.variablesMeta && data.variablesData)
      save = await profileSaveCheck(api, wire, data.variablesMeta, data.variablesData.values);
    else save = { findings: [], checked: false, why: 'the profile could not be read' };
    findings.push(...save.findings);
    if (!save.checked) notChecked.push(`the answer to a profile save (${save.why ?? 'not sent'})`);
    notChecked.push(NOT_CHECKED_DELETE);
    if (options.redeem) {
      const redeem = await redeemCheck(api, wire, options.redeem, data.rewards?.rewards, balance);
      findings.push(...redeem.findings);
      if (!redeem.checked) notChecked.push(`the answer to a redemption (${redeem.why ?? 'not sent'})`);
    } else notChecked.push('the answer to a redemption (add --redeem-check <reward id>)');
  }

  // The extension's client asked for something the wire does not let out: said, so its failure is not misread.
  const blocked = wire.refused.filter((r) => !r.hop);
  if (blocked.length > 0) {
    findings.push({
      level: 'info',
      topic: 'Not sent',
      text: `The doctor kept back ${blocked.map((r) => `${r.method} ${r.url} (${r.kind})`).join(', ')}: only reads and the write checks asked for may leave.`,
    });
  }

  return {
    baseUrl: options.baseUrl,
    timeoutMs: HTTP_DEFAULTS.timeoutMs,
    writeChecks: options.writeChecks === true,
    reads,
    findings,
    sent: writesSent(wire),
    notChecked,
  };
}

/** Every request that was not a read, as it left. */
function writesSent(wire: Wire): SentWrite[] {
  return wire.exchanges
    .filter((e) => !e.hop && (e.method !== 'GET' || new URL(e.url).pathname.endsWith(ENDPOINTS.redemption)))
    .map((e) => ({
      method: e.method,
      path: e.path,
      what:
        e.method === 'GET'
          ? "a redemption: spends the test panelist's points"
          : 'a profile save of the value already stored',
    }));
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

/**
 * A made-up key must get a 401: only that makes the extension ask the panelist to reconnect
 * (design §5). It is tried on a read the real key just read, so whatever else it gets is the
 * panel's answer to a wrong key, not an outage told twice.
 */
function badTokenFinding(outcome: Outcome<unknown>, exchange: Exchange | undefined): Finding {
  const topic = 'Error body: a wrong key';
  const change = 'Answer a request whose key is unknown, expired or revoked with 401.';
  const where = exchange ? `GET ${exchange.url} with a made-up key` : 'A made-up key';
  if (outcome.ok) {
    return {
      level: 'fail',
      topic,
      text: `${where} answered ${exchange?.status ?? 200} with data: is the API open to anyone? A panelist with a wrong key is never told.`,
      panelists: "someone else's data, or none, and never that their key is wrong",
      change: "Check the key on every request and answer 401 when it is not a panelist's.",
    };
  }
  const { error } = outcome;
  if (error.kind === 'unauthorized')
    return {
      level: 'ok',
      topic,
      text: `401, ${bodyShape(exchange)}: the extension asks the panelist to reconnect (design §5).`,
    };
  const got = exchange?.failure
    ? exchange.failure.kind === 'timeout'
      ? `no answer within ${seconds(HTTP_DEFAULTS.timeoutMs)}`
      : 'no connection'
    : exchange?.redirectedTo
      ? `${exchange.status} to ${exchange.redirectedTo}`
      : `${exchange?.status ?? error.kind}, ${bodyShape(exchange)}`;
  const keeps =
    error.kind === 'not_allowed'
      ? 'The extension reads a 403 as "not allowed" and keeps the session'
      : 'The extension reads this as a failure of the panel, not of the key';
  return {
    level: 'fail',
    topic,
    text: `${where} got ${got}, where the real key was answered: a rejected key must be a 401. ${keeps}, so a panelist whose key was revoked is never asked to reconnect (design §5).`,
    panelists: error.message,
    change,
  };
}

/** A read with an unknown filter: whether the panel's refusals carry Laravel-style `errors`. */
function refusalFinding(outcome: Outcome<unknown>, exchange: Exchange | undefined): Finding {
  const topic = 'Error body: a refused read (an unknown filter)';
  if (outcome.ok)
    return {
      level: 'info',
      topic,
      text: 'The panel ignores an unknown filter (200), so there was no refusal to look at.',
    };
  const { error } = outcome;
  const status = exchange?.status ?? error.status;
  if (error.kind === 'server') {
    return {
      level: 'warn',
      topic,
      text: `An unknown filter made the panel fail with ${status} instead of refusing it (4xx); the extension only ever sends filter=writable.`,
      panelists: 'nothing now; a refused request they do cause may look like an outage to them',
      change: 'Refuse a request the panel does not accept with a 4xx and a `message`, not a 5xx.',
    };
  }
  if (status === 404)
    return {
      level: 'info',
      topic,
      text: `404, ${bodyShape(exchange)}: "not found", as for an unknown path, so it says nothing of how a refused profile save looks.`,
    };
  if (error.kind !== 'rejected' && error.kind !== 'not_allowed')
    return { level: 'info', topic, text: `${status ?? error.kind}: ${error.message}` };
  const laravel = error.fields
    ? `Laravel-style \`errors\` (${Object.keys(error.fields).join(', ')}): a refused profile save shows each field's own text next to that field (design §5)`
    : "no Laravel-style `errors`: a refused profile save shows the panel's one message for the whole section (design §5)";
  return { level: 'ok', topic, text: `${status}, ${bodyShape(exchange)}, message "${error.message}"; ${laravel}.` };
}

/** A read the extension could use (not refused, not redirected). */
const worked = (row: ReadRow) =>
  row.summary !== '' && !row.summary.startsWith('refused') && !row.summary.startsWith('redirected');

function timingFindings(reads: ReadRow[]): Finding[] {
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
function validatorFindings(reads: ReadRow[]): Finding[] {
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

/** Design §3: which of the two accepted shapes `data` has, and which keys the records use. */
function storedShapeFinding(body: unknown): Finding {
  const data = (body as { data?: unknown }).data;
  const topic = 'Stored values (design §3)';
  if (!Array.isArray(data))
    return {
      level: 'ok',
      topic,
      text: `a map of variable name → value (${Object.keys(data as object).length} values).`,
    };
  const used = (keys: readonly string[]) =>
    [...new Set(data.map((r) => keys.find((k) => k in (r as object))).filter(Boolean))]
      .map((k) => `\`${k}\``)
      .join(', ');
  return {
    level: 'ok',
    topic,
    text: `a list of ${data.length} records, naming the variable in ${used(['name', 'variable_name', 'var_name']) || 'nothing'} and the value in ${used(['value', 'values']) || 'nothing'}.`,
  };
}

/** Design §2: where the balance comes from, in the extension's order, and whether balanceVariable exists. */
function balanceFindings(
  variable: string,
  bodies: Partial<Record<ReadName, unknown>>,
  values: Reads['variablesData']['values'],
  defined: string[],
): { findings: Finding[]; points: number | null } {
  const fieldIn = (body: unknown) =>
    BALANCE_FIELDS.find((f) => toPoints((body as Record<string, unknown> | null)?.[f]) !== null);
  const rewardsField = fieldIn(bodies.rewards);
  const variablesField = fieldIn(bodies.variablesData);
  const points = (body: unknown, field: string | undefined) =>
    field ? toPoints((body as Record<string, unknown>)[field]) : null;
  const balance = resolveBalance({
    rewards: points(bodies.rewards, rewardsField),
    variables: points(bodies.variablesData, variablesField),
    stored: values,
    variableName: variable,
  });
  const shown = balance.points === null ? '' : `${balance.points.toLocaleString('en')} points`;
  const where = {
    rewards: `the rewards response's top-level \`${rewardsField}\` (the first place the extension looks)`,
    variables: `the read-variables response's top-level \`${variablesField}\` (the second place)`,
    'stored-variable': `the stored variable ${variable} (the third place, balanceVariable)`,
    unknown: '',
  }[balance.source];
  const findings: Finding[] = [
    balance.points === null
      ? {
          level: 'warn',
          topic: 'Balance (design §2)',
          text: `not found: neither response has a top-level ${BALANCE_FIELDS.map((f) => `\`${f}\``).join(', ')} in whole points, and the stored variable ${variable} holds none. The popup shows costs with the balance "unknown"; the panel still decides each redemption.`,
          panelists: 'costs without their own balance, so not which rewards they can afford',
          change: `Put the balance in a top-level \`points\` of the rewards answer, or set balanceVariable to the stored variable that holds it.`,
        }
      : { level: 'ok', topic: 'Balance (design §2)', text: `${shown}, from ${where}.` },
  ];
  const both = [points(bodies.rewards, rewardsField), points(bodies.variablesData, variablesField)];
  if (both[0] !== null && both[1] !== null && both[0] !== both[1]) {
    findings.push({
      level: 'warn',
      topic: 'Balance (design §2)',
      text: `The rewards response says ${both[0]} and the read-variables response ${both[1]}: the extension shows the first.`,
      panelists: `${both[0]} points`,
      change: 'Give the same balance in both answers, or in one only.',
    });
  }
  const isDefined = defined.includes(variable);
  const isStored = Object.hasOwn(values, variable);
  const topic = `balanceVariable ${variable}`;
  if (balance.source === 'stored-variable') findings.push({ level: 'ok', topic, text: `stored, holding ${shown}.` });
  // Information only: when no balance is found, the Balance finding above is the one problem.
  else if (isStored)
    findings.push({
      level: 'info',
      topic,
      text: `stored, but its value ${JSON.stringify(values[variable])} is not whole points (design §8).`,
    });
  else {
    const candidates = Object.entries(values)
      .filter(([name, value]) => /POINT|BALANCE|CREDIT/i.test(name) && toPoints(value) !== null)
      .map(([name]) => name);
    const hint = candidates.length
      ? ` Stored variables that look like it: ${candidates.join(', ')} (set balanceVariable to one).`
      : '';
    findings.push({
      level: 'info',
      topic,
      text: `${isDefined ? 'defined in /variables/meta but not stored for this panelist' : 'not on this panel (not in /variables/meta, not stored)'}${balance.source === 'unknown' ? '.' : `; not needed while ${where.split(' (')[0]} carries the balance.`}${hint}`,
    });
  }
  return { findings, points: balance.points };
}
