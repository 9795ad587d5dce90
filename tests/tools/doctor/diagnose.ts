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
import { ENDPOINTS, createPanelApi, type PanelClient } from '../../../utils/api/client';
import { HTTP_DEFAULTS, createHttp } from '../../../utils/api/http';
import { checkBaseUrl } from '../../../utils/base-url';
import { t } from '../../../utils/i18n';
import { attempt } from './attempt';
import { balanceFindings } from './balance-findings';
import { contentFindings, storedShapeFinding } from './content';
import { rawRewards } from './costs';
import { badTokenFinding, refusalFinding } from './error-bodies';
import { readFailureFindings } from './failures';
import { READS, readAll, type ReadResults } from './reads';
import { redactSecrets, secretForms } from './redact';
import { idempotencyCheck } from './idempotency-check';
import { redeemCheck, type SpendContext, type SpendRequest } from './redeem-check';
import { redirectFindings } from './redirects';
import type { Finding, Report, SentWrite } from './report-types';
import { profileSaveCheck } from './save-check';
import { cachingFindings, retryFindings, timingFindings, validatorFindings } from './traffic';
import { openWire, seconds, type Exchange, type Wire } from './wire';

export interface DiagnoseOptions {
  baseUrl: string;
  token: string;
  /** The build's balanceVariable (design §2, third place). */
  balanceVariable: string;
  /** `--write-checks`: a profile save of an unchanged value (a test panelist only). */
  writeChecks?: boolean;
  /** `--redeem-check <id>` (with write checks): a redemption, sent only once confirmed. */
  redeem?: SpendRequest | null;
  /** `--idempotency-check <id>` (with write checks): two redeems with one key, sent only once confirmed. */
  idempotency?: SpendRequest | null;
  /** `--allow-origin`: other origins a redirect may be followed to, to see what answers there. */
  allowOrigins?: readonly string[];
  /**
   * Per request. The extension's own (10 s) unless a test shortens it; the report always speaks
   * of the extension's, which is what panelists meet.
   */
  timeoutMs?: number;
  /** Progress, as each check runs and each request leaves and ends (the CLI writes it to stderr). */
  progress?: (text: string) => void;
  /** Given what the reads parsed (the pre-flight compares the profile's questions with the declarations). */
  onRead?: (data: ReadResults['data']) => void;
}

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
  // The report is redacted here; what the commands print, progress included, at their output (redact.ts).
  const secrets = secretForms(token);
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
    const examined = await examine({ ...options, progress, baseUrl: address.baseUrl, timeoutMs }, wire, progress);
    return redactReport(examined, secrets);
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
  progress(
    `Reading ${options.baseUrl} as the extension does (each request waits at most ${seconds(options.timeoutMs)}):\n`,
  );
  const read = await readAll(api, wire, progress);
  const { data, bodies, reads } = read;
  options.onRead?.(data);
  const notChecked = [...read.notChecked];
  const findings: Finding[] = [
    ...redirectFindings(read.redirected, options.baseUrl),
    ...readFailureFindings(read.failed, reads.length, options.baseUrl),
    ...(await refusals(options, wire, read, notChecked)),
    ...retryFindings(read.retried),
    ...timingFindings(reads),
    ...validatorFindings(reads),
    ...cachingFindings(read.answered),
  ];
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
  const raw = rawRewards(bodies.rewards);
  findings.push(...contentFindings(data, raw));

  // Write checks: only when asked for, and said loudly in the report's header.
  if (!options.writeChecks) {
    notChecked.push(
      'the answer to a profile save (run with --write-checks)',
      NOT_CHECKED_DELETE,
      'the answer to a redemption (run with --write-checks --redeem-check <reward id>)',
      'whether the panel honours Idempotency-Key (run with --write-checks --idempotency-check <reward id>)',
    );
  } else {
    const context = {
      api,
      wire,
      rewards: data.rewards?.rewards,
      raw,
      balance,
      balanceVariable: options.balanceVariable,
    };
    const checked = await writeChecks(options, read, context, progress);
    findings.push(...checked.findings);
    notChecked.push(...checked.notChecked);
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

/**
 * The refusals, on reads that worked: a made-up key where the real one was let in, an unknown
 * filter where the plain read answered. Otherwise whatever failed the read would be told again.
 */
async function refusals(
  options: DiagnoseOptions & { timeoutMs: number },
  wire: Wire,
  read: ReadResults,
  notChecked: string[],
): Promise<Finding[]> {
  const config = { baseUrl: options.baseUrl, retries: 0, timeoutMs: options.timeoutMs };
  const sentBy = (from: number): Exchange | undefined => wire.exchanges.slice(from).find((e) => !e.hop);
  const findings: Finding[] = [];
  const working = READS.find((name) => read.data[name] !== undefined);
  if (working) {
    options.progress?.('A made-up key and an unknown filter, to see how the panel refuses:\n');
    const from = wire.exchanges.length;
    const wrong = await attempt(() =>
      createPanelApi({ ...config, token: `panel-doctor-${randomUUID()}` }).revalidate(working, null),
    );
    findings.push(badTokenFinding(wrong, sentBy(from)));
  } else notChecked.push('what a wrong key gets (no read worked to compare it with)');
  if (read.data.variablesData) {
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
  return findings;
}

/** The write checks the operator asked for, in order: the profile save, the redemption, the Idempotency-Key. */
async function writeChecks(
  options: DiagnoseOptions,
  read: ReadResults,
  context: SpendContext & { api: PanelClient },
  progress: (text: string) => void,
): Promise<{ findings: Finding[]; notChecked: string[] }> {
  progress('WRITE CHECKS (a test panelist only):\n');
  const findings: Finding[] = [];
  const notChecked: string[] = [];
  const { variablesMeta, variablesData } = read.data;
  const save =
    variablesMeta && variablesData
      ? await profileSaveCheck(context.api, context.wire, variablesMeta, variablesData.values, options.balanceVariable)
      : { findings: [], checked: false, why: 'the profile could not be read' };
  findings.push(...save.findings);
  if (!save.checked) notChecked.push(`the answer to a profile save (${save.why ?? 'not sent'})`);
  notChecked.push(NOT_CHECKED_DELETE);
  if (options.redeem) {
    const redeem = await redeemCheck(options.redeem, context);
    findings.push(...redeem.findings);
    if (!redeem.checked) notChecked.push(`the answer to a redemption (${redeem.why ?? 'not sent'})`);
  } else notChecked.push('the answer to a redemption (add --redeem-check <reward id>)');
  if (options.idempotency) {
    const twice = await idempotencyCheck(options.idempotency, context);
    findings.push(...twice.findings);
    if (!twice.checked)
      notChecked.push(`whether the panel honours Idempotency-Key (${twice.why ?? 'nothing to count'})`);
  } else notChecked.push('whether the panel honours Idempotency-Key (add --idempotency-check <reward id>)');
  return { findings, notChecked };
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
