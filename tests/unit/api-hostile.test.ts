// @vitest-environment node
/**
 * Hostile responses. For each of the seven endpoints of the panel API client,
 * fast-check generates 1,000 responses (see ./hostile-bodies.ts: valid bodies, valid bodies with one
 * field mutated, wrong types, nulls, huge strings and arrays, deeply nested junk, non-JSON text,
 * empty bodies; statuses 200, 204, 307, 400, 401, 403, 404, 422, 429, 500, 503; odd headers; dropped
 * connections). Each one is served by the sandbox over real HTTP (a one-shot fault rule) to the
 * real client, and the call must:
 *
 * - settle (no hang);
 * - either resolve with data of the documented type (the HTTP answer was a 2xx with a body),
 * - or reject with an AppErrorException whose kind is in the closed set, is the one design §5
 *   gives for that status, and whose message is a non-empty text without the token or any piece
 *   of it (8 characters or more);
 * - and never anything else: no TypeError, no raw Error, no prototype pollution.
 *
 * Bodies carry the token whole or not at all, so a piece of it in a message was cut by the client.
 * A read answered 429 may try once more (Retry-After 0 or unreadable); the real sandbox handler
 * answers that retry, so such a read may resolve.
 *
 * Valid bodies answered with 200 must resolve, so the success path is exercised too; a write or
 * redeem resolves only on `{ message: "success" }` and is sent exactly once.
 */
import { instantOf } from '../../utils/instants';
import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, createPanelApi, type PanelClient } from '../../utils/api/client';
import { APP_ERROR_KINDS, AppErrorException, type AppErrorKind } from '../../utils/errors';
import { startSandbox, type Sandbox } from '../sandbox/server';
import {
  ENDPOINT_NAMES,
  FAMILIES,
  STATUSES,
  WRITE_ENDPOINTS,
  describeResponse,
  hostileResponse,
  type EndpointName,
  type Family,
  type HostileResponse,
} from './hostile-bodies';
import { rid } from './test-ids';
import { expectedRead, isStoredValue, readMismatch } from './stored-value-rule';
import { canonicalId } from '../../utils/ids';

/** High-entropy, so that no 8-character piece of it can appear in a message by chance. */
const TOKEN = 'hq7ZtR2xWm9KpL4vNc8BsD3f';
/** The shortest piece of the token a message must not carry. */
const LEAK_MIN = 8;
const RUNS = 1000;
/**
 * Fixed, so CI draws the same responses every run and the coverage counts below are reproducible
 * (unseeded, the share of successful bodies came out at 99 of 1,000 once, under the 100 asked for);
 * HOSTILE_SEED draws others.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? 20261123);
const TIMEOUT_MS = 3000;
/** Below tests/sandbox/http-util.ts's MAX_BODY_BYTES (1 MiB), with room to spare. */
const MAX_RULE_BYTES = 900_000;
/** Two attempts at most (a read retried once after a 429), plus slack. */
const DEADLINE_MS = 2 * TIMEOUT_MS + 2000;

const KINDS = new Set<string>(APP_ERROR_KINDS);

interface Call {
  method: string;
  path: string;
  run(api: PanelClient, flag: boolean): Promise<unknown>;
}

const CALLS: Record<EndpointName, Call> = {
  listVariables: { method: 'GET', path: ENDPOINTS.variablesMeta, run: (api) => api.listVariables() },
  readValues: {
    method: 'GET',
    path: ENDPOINTS.variablesData,
    run: (api, writableOnly) => api.readValues({ writableOnly }),
  },
  updateValues: {
    method: 'POST',
    path: ENDPOINTS.variablesData,
    run: (api) => api.updateValues({ FIRST_NAME: 'Ann', HOBBIES: [1, 2] }),
  },
  deleteValue: {
    method: 'DELETE',
    path: `${ENDPOINTS.variablesData}/FIRST_NAME`,
    run: (api) => api.deleteValue('FIRST_NAME'),
  },
  listRedemptions: { method: 'GET', path: ENDPOINTS.redemptions, run: (api) => api.listRedemptions() },
  listRewards: { method: 'GET', path: ENDPOINTS.rewards, run: (api) => api.listRewards() },
  redeem: { method: 'GET', path: ENDPOINTS.redemption, run: (api) => api.redeem(rid(101)) },
};

// ---------------------------------------------------------------------------------------------
// Checks of resolved data against the documented types (utils/types.ts)

class Violation extends Error {}

function need(condition: boolean, at: string, expected: string): asserts condition {
  if (!condition) throw new Violation(`${at} is not ${expected}`);
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
/** A reward or redemption id as the extension keeps it: the exact digits, in canonical form (utils/ids.ts). */
const isId = (value: unknown): value is string => typeof value === 'string' && canonicalId(value) === value;
const isFinite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isNullableString = (value: unknown) => value === null || isString(value);

function checkArray(value: unknown, at: string, each: (item: unknown, at: string) => void): void {
  need(Array.isArray(value), at, 'an array');
  value.forEach((item, i) => each(item, `${at}[${i}]`));
}

function checkBalance(value: unknown, at: string): void {
  // Whole points of 0 or more, none, or any other number told as impossible (an unexpected answer
  // that names its field): the balance is then not read, and the answer stands.
  if (isObject(value)) {
    const why = value.impossible as { kind?: unknown; message?: unknown } | undefined;
    need(why?.kind === 'unexpected' && isString(why.message) && why.message !== '', `${at}.impossible`, 'why');
    return;
  }
  need(value === null || (Number.isSafeInteger(value) && (value as number) >= 0), at, 'null or a points value');
}

function checkOption(o: unknown, at: string): void {
  need(isObject(o), at, 'an object');
  need(isInteger(o.id), `${at}.id`, 'an integer');
  need(isString(o.name), `${at}.name`, 'a string');
  need(isString(o.text), `${at}.text`, 'a string');
  need(isBoolean(o.exclusive), `${at}.exclusive`, 'a boolean');
}

function checkVariable(d: unknown, at: string): void {
  need(isObject(d), at, 'an object');
  need(isInteger(d.id), `${at}.id`, 'an integer');
  need(isString(d.name) && d.name !== '', `${at}.name`, 'a non-empty string');
  need(isString(d.text), `${at}.text`, 'a string');
  need(isString(d.uuid), `${at}.uuid`, 'a string');
  need(isString(d.type), `${at}.type`, 'a string');
  need(isBoolean(d.writable), `${at}.writable`, 'a boolean');
  // A question the extension cannot mean is kept, quarantined: never writable here (utils/api/records.ts).
  need(
    d.unreadable === undefined || (d.unreadable === true && d.writable === false),
    `${at}.unreadable`,
    'absent, or true on a question not writable',
  );
  checkArray(d.options, `${at}.options`, checkOption);
}

const META_LISTS: Record<string, (value: unknown) => boolean> = {
  countries: (value) => Array.isArray(value) && value.every(isString),
  image_urls: (value) => isObject(value) && Object.values(value).every(isString),
};

/** An amount the interface can mean (utils/format.ts): 0 or more, below 10^15 of its minor unit. */
const isAmount = (value: unknown) => isFinite(value) && value >= 0 && value < 1e15;
const isPoints = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

function checkReward(r: unknown, at: string): void {
  need(isObject(r), at, 'an object');
  need(isId(r.id), `${at}.id`, 'an id');
  need(isString(r.name), `${at}.name`, 'a string');
  // Each record on its own (utils/api/records.ts): a value it cannot mean is null and quarantines the reward.
  need(r.cost === null || isAmount(r.cost), `${at}.cost`, 'null or an amount');
  need(r.cost !== null || r.costRefused === true, `${at}.costRefused`, 'true where the value is unknown');
  need(r.costRefused === undefined || r.costRefused === true, `${at}.costRefused`, 'absent or true');
  need(isString(r.cost_currency), `${at}.cost_currency`, 'a string');
  need(isString(r.type), `${at}.type`, 'a string');
  need(isString(r.image_url), `${at}.image_url`, 'a string');
  need(r.reward_point_cost === null || isPoints(r.reward_point_cost), `${at}.reward_point_cost`, 'null or points');
  need(isObject(r.meta_data), `${at}.meta_data`, 'an object');
  for (const [key, value] of Object.entries(r.meta_data)) {
    need((META_LISTS[key] ?? isString)(value), `${at}.meta_data.${key}`, 'of its documented type');
  }
}

function checkRedemption(r: unknown, at: string): void {
  need(isObject(r), at, 'an object');
  need(isId(r.id), `${at}.id`, 'an id');
  need(r.cost === null || isAmount(r.cost), `${at}.cost`, 'null or an amount');
  need(isString(r.currency), `${at}.currency`, 'a string');
  need(r.reward_point_cost === null || isPoints(r.reward_point_cost), `${at}.reward_point_cost`, 'null or points');
  checkReward(r.reward, `${at}.reward`);
  for (const key of ['approved', 'processed', 'failed', 'refunded'])
    need(isBoolean(r[key]), `${at}.${key}`, 'a boolean');
  need(r.stateUnreadable === undefined || r.stateUnreadable === true, `${at}.stateUnreadable`, 'absent or true');
  need(isString(r.created_at) && instantOf(r.created_at) === r.created_at, `${at}.created_at`, 'an instant');
  need(isString(r.updated_at), `${at}.updated_at`, 'a string');
  for (const key of ['partner_status', 'failed_reason', 'transaction_id']) {
    need(isNullableString(r[key]), `${at}.${key}`, 'a string or null');
  }
}

function checkStoredValues(values: unknown, at: string): void {
  // Names are data (utils/by-name.ts): no prototype a name like `__proto__` or `constructor` could reach.
  need(isObject(values) && Object.getPrototypeOf(values) === null, at, 'a null-prototype object');
  for (const [name, value] of Object.entries(values)) {
    need(isStoredValue(value), `${at}.${name}`, 'text, a number or a list of option ids and names');
  }
}

/**
 * A read of stored values that resolved from the generated answer keeps what that answer said of
 * each variable (./stored-value-rule.ts): never a read of an answer the rule refuses, never "no
 * answer" where a record holds one.
 */
function checkValuesSaid(body: string, read: unknown): void {
  const said = expectedRead((JSON.parse(body) as Obj).data);
  if (said === 'refused') throw new Violation('stored values with a record that names no variable were read');
  need(isObject(read) && Array.isArray(read.unreadable), 'result.unreadable', 'a list');
  const problem = readMismatch(read as { values: Obj; unreadable: string[] }, said);
  if (problem !== null) throw new Violation(`values: ${problem}`);
}

function checkData(endpoint: EndpointName, data: unknown): void {
  switch (endpoint) {
    case 'listVariables':
      return checkArray(data, 'variables', checkVariable);
    case 'readValues':
      need(isObject(data), 'result', 'an object');
      checkStoredValues(data.values, 'values');
      return checkBalance(data.balance, 'balance');
    case 'listRedemptions':
      return checkArray(data, 'redemptions', checkRedemption);
    case 'listRewards':
      need(isObject(data), 'result', 'an object');
      checkArray(data.rewards, 'rewards', checkReward);
      return checkBalance(data.balance, 'balance');
    case 'updateValues':
    case 'deleteValue':
    case 'redeem':
      return need(data === undefined, 'result', 'undefined');
  }
}

// ---------------------------------------------------------------------------------------------
// What each response must produce

/** The kind design §5 gives a failed call, from how the server answered. */
function expectedKind(r: HostileResponse): AppErrorKind {
  if (r.drop) return 'network';
  if (r.status >= 200 && r.status < 300) return 'unexpected';
  if (r.status === 401) return 'unauthorized';
  // 403 is the panel refusing one action, not the token (design §5).
  if (r.status === 403) return 'not_allowed';
  // A redirect without a Location (a write or redeem never follows one) is no answer to use.
  if (r.status >= 300 && r.status < 400) return 'unexpected';
  if (r.status === 429) return 'rate_limited';
  if (r.status >= 500) return 'server';
  return 'rejected';
}

/** The piece of the token (LEAK_MIN characters or more) that `text` carries, if any. */
function tokenPiece(text: string | undefined): string | undefined {
  if (!text) return undefined;
  for (let i = 0; i + LEAK_MIN <= TOKEN.length; i += 1) {
    const piece = TOKEN.slice(i, i + LEAK_MIN);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

function confirmsSuccess(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    return isObject(parsed) && isString(parsed.message) && parsed.message.trim().toLowerCase() === 'success';
  } catch {
    return false;
  }
}

type Outcome = { type: 'resolved'; value: unknown } | { type: 'rejected'; error: unknown } | { type: 'hang' };

async function settle(work: () => Promise<unknown>): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ type: 'hang' }), DEADLINE_MS);
  });
  const settled = Promise.resolve()
    .then(work)
    .then(
      (value): Outcome => ({ type: 'resolved', value }),
      (error: unknown): Outcome => ({ type: 'rejected', error }),
    );
  try {
    return await Promise.race([settled, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

interface Tally {
  samples: number;
  outcomes: Record<string, number>;
  families: Partial<Record<Family, number>>;
  statuses: Record<string, number>;
  bodyBytes: number;
  ms: number;
}

function judge(endpoint: EndpointName, r: HostileResponse, outcome: Outcome, requests: number): void {
  const isWrite = WRITE_ENDPOINTS.includes(endpoint);
  const ok2xx = !r.drop && r.status >= 200 && r.status < 300;

  // Writes and redeems are sent exactly once; a read is retried at most once, after a 429.
  const maxRequests = !isWrite && !r.drop && r.status === 429 ? 2 : 1;
  need(
    requests >= 1 && requests <= maxRequests,
    `the number of requests sent (${requests})`,
    `between 1 and ${maxRequests}`,
  );
  need(Object.keys(Object.prototype).length === 0, 'Object.prototype', 'free of injected properties');

  if (outcome.type === 'hang') throw new Violation(`the call did not settle within ${DEADLINE_MS} ms`);

  if (outcome.type === 'resolved') {
    // After a 429 a read tries once more, which the sandbox's real handler answers.
    const retriedRead = !isWrite && !r.drop && r.status === 429 && requests === 2;
    need((ok2xx && r.status !== 204) || retriedRead, `a resolved call after ${describeResponse(r)}`, 'possible');
    if (isWrite) need(confirmsSuccess(r.body), 'a resolved write', 'answered with { message: "success" }');
    checkData(endpoint, outcome.value);
    if (endpoint === 'readValues' && !retriedRead) checkValuesSaid(r.body, outcome.value);
    return;
  }

  const { error } = outcome;
  if (!(error instanceof AppErrorException)) {
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Violation(`the rejection (${what.slice(0, 300)}) is not an AppErrorException`);
  }
  const { kind, message, field, fields } = error.error;
  need(KINDS.has(kind), `kind ${JSON.stringify(kind)}`, 'in the closed set of utils/errors.ts');
  need(isString(message) && message.trim() !== '', `the message ${JSON.stringify(message)}`, 'a non-empty text');
  for (const [name, text] of [
    ['error.message', message],
    ['error.field', field],
    ['Error#message', error.message],
  ] as const) {
    const piece = tokenPiece(text);
    need(piece === undefined, `${name} ${JSON.stringify(text)}`, `free of the token (it carries "${piece}")`);
  }
  if (fields !== undefined) {
    need(isObject(fields) && Object.getPrototypeOf(fields) === null, 'error.fields', 'a null-prototype object');
    const entries = Object.entries(fields);
    need(
      entries.length > 0 && entries.length <= 100,
      `error.fields (${entries.length} names)`,
      'between 1 and 100 names',
    );
    for (const [name, text] of entries) {
      need(
        name.trim() !== '' && name.length <= 100,
        `the field name ${JSON.stringify(name)}`,
        'a short non-empty text',
      );
      need(
        isString(text) && text.trim() !== '' && text.length <= 300,
        `error.fields.${name}`,
        'a non-empty text of at most 300 characters',
      );
      for (const [what, value] of [
        ['field name', name],
        ['field text', text],
      ] as const) {
        const piece = tokenPiece(value);
        need(piece === undefined, `the ${what} ${JSON.stringify(value)}`, `free of the token (it carries "${piece}")`);
      }
    }
    need(field !== undefined, 'error.field', 'set when fields are');
  }
  need(kind === expectedKind(r), `kind "${kind}"`, `"${expectedKind(r)}" (design §5)`);
  if ((r.family === 'valid' || r.family === 'valid-huge') && r.status === 200 && !r.drop) {
    throw new Violation(`a valid body answered with 200 was refused: ${kind}: ${message}`);
  }
}

// ---------------------------------------------------------------------------------------------

let sandbox: Sandbox;
let api: PanelClient;
const tallies = new Map<EndpointName, Tally>();

/** One keep-alive connection for the control channel: two local requests per sample add up. */
const controlAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/** Posts a fault rule to the sandbox; throws when the sandbox refuses it (a generator bug). */
function postFault(rule: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify(rule);
  const bytes = Buffer.byteLength(body);
  // The sandbox reads at most 1 MiB of a request and cuts the connection beyond it.
  if (bytes > MAX_RULE_BYTES)
    return Promise.reject(new Error(`a generated fault rule has ${bytes} bytes, over the sandbox's limit`));
  return new Promise((resolve, reject) => {
    const req = request(
      `${sandbox.url}/__sandbox/faults`,
      {
        method: 'POST',
        agent: controlAgent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': bytes },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode === 200) resolve();
          else
            reject(
              new Error(
                `sandbox refused the fault rule: HTTP ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`,
              ),
            );
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, token: TOKEN });
  api = createPanelApi({
    baseUrl: sandbox.url,
    token: TOKEN,
    timeoutMs: TIMEOUT_MS,
    retries: 0,
    retryBaseDelayMs: 1,
    maxRetryAfterSeconds: 0,
  });
});

afterAll(async () => {
  const lines = [...tallies].map(([endpoint, t]) => {
    const outcomes = Object.entries(t.outcomes)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    return `  ${endpoint}: ${t.samples} samples in ${(t.ms / 1000).toFixed(1)} s, ${(t.bodyBytes / 1e6).toFixed(1)} MB of bodies; ${outcomes}`;
  });
  const total = [...tallies.values()].reduce((sum, t) => sum + t.ms, 0);
  console.info(`hostile responses (${(total / 1000).toFixed(1)} s in all):\n${lines.join('\n')}`);
  controlAgent.destroy();
  await sandbox?.close();
});

describe('the panel API client under hostile responses (fast-check, real HTTP)', () => {
  for (const endpoint of ENDPOINT_NAMES) {
    it(`${endpoint}: ${RUNS} generated responses each yield typed data or one typed error`, async () => {
      const call = CALLS[endpoint];
      const tally: Tally = { samples: 0, outcomes: {}, families: {}, statuses: {}, bodyBytes: 0, ms: 0 };
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(hostileResponse(endpoint, TOKEN), fc.boolean(), async (response, flag) => {
          await postFault({
            method: call.method,
            path: call.path,
            status: response.status,
            body: response.body,
            headers: response.headers,
            ...(response.drop ? { drop: true } : {}),
            times: 1,
          });
          sandbox.requests.length = 0;
          const outcome = await settle(() => call.run(api, flag));
          const requests = sandbox.requests.length;
          tally.samples += 1;
          tally.bodyBytes += response.body.length;
          const key =
            outcome.type === 'rejected' && outcome.error instanceof AppErrorException
              ? outcome.error.error.kind
              : outcome.type;
          tally.outcomes[key] = (tally.outcomes[key] ?? 0) + 1;
          tally.families[response.family] = (tally.families[response.family] ?? 0) + 1;
          const status = response.drop ? 'drop' : String(response.status);
          tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
          try {
            judge(endpoint, response, outcome, requests);
          } catch (violation) {
            if (violation instanceof Violation) throw new Error(`${endpoint}: ${violation.message}`);
            throw violation;
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
      tally.ms = Date.now() - started;
      tallies.set(endpoint, tally);

      // The generators really covered every status and family of body, and the success path ran.
      expect(tally.samples).toBeGreaterThanOrEqual(RUNS);
      expect(tally.outcomes.resolved ?? 0).toBeGreaterThanOrEqual(RUNS / 10);
      for (const status of STATUSES) expect(tally.statuses[String(status)] ?? 0, `HTTP ${status}`).toBeGreaterThan(0);
      const families = FAMILIES.filter((f) => f !== 'refusal' || WRITE_ENDPOINTS.includes(endpoint));
      for (const family of families) expect(tally.families[family] ?? 0, family).toBeGreaterThan(0);
    }, 180_000);
  }
});
