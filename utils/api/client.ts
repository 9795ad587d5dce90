import { AppErrorException, appError, type AppError } from '../errors';
import { balanceFromBody, type BodyBalance } from '../balance';
import { byName, entriesOf } from '../by-name';
import { t } from '../i18n';
import { sentences } from '../sentences';
import { readStoredValues } from '../stored-values';
import type { Redemption, Reward, StoredValues, VariableDefinition, VariableValue } from '../types';
import { withSafeImages } from '../image-url';
import {
  createHttp,
  joinFieldTexts,
  normaliseBaseUrl,
  redact,
  type HttpClient,
  type HttpConfig,
  type RequestKind,
  type Validator,
} from './http';
import {
  SUCCESS_MESSAGE,
  unexpectedResponse,
  parseBody,
  readValuesResponseSchema,
  redemptionsResponseSchema,
  rewardsResponseSchema,
  variablesMetaResponseSchema,
  writeResponseSchema,
} from './schemas';
import { rewardIdOf, type RewardId } from '../ids';

/**
 * The panel API (seed/panel-interface.md) as the background calls it. Runs in the background only:
 * it holds the token. Every method resolves with parsed, typed data or rejects with exactly one
 * AppError inside an {@link AppErrorException}; no message ever contains the token. The background
 * reads only through `revalidate`, so each read carries the validator of the copy it holds.
 */
export interface PanelApi {
  /**
   * `GET /v1/panel/variables/data` for whether the panel takes the token: any 2xx JSON answer
   * passes, whatever its shape (the interface does not show it), and a 401 is `unauthorized`.
   */
  checkAccess(): Promise<void>;
  /** `POST /v1/panel/variables/data` with the given values as the JSON body. */
  updateValues(values: StoredValues): Promise<void>;
  /** `DELETE /v1/panel/variables/data/{name}` */
  deleteValue(name: string): Promise<void>;
  /** `GET /v1/panel/redemptions` */
  listRedemptions(): Promise<Redemption[]>;
  /**
   * `GET /v1/panel/redemption?id=N`, without a body (fetch cannot send one with GET); sent once, never retried. With an
   * `Idempotency-Key` (IETF httpapi draft) made per Confirm: a panel that honours it records a
   * request the browser re-sent once; one that ignores it loses nothing.
   */
  redeem(rewardId: RewardId, idempotencyKey?: string): Promise<void>;
  /**
   * One of the four reads sent with the validator of the copy the caller holds (none: a plain
   * read). `notModified` (a 304, no body) means that copy is still the panel's answer.
   */
  revalidate<K extends ReadName>(name: K, validator: Validator | null): Promise<Revalidated<Reads[K]>>;
}

/** The client whole: the background's calls and the plain reads the doctor and tests make. */
export interface PanelClient extends PanelApi {
  /** `GET /v1/panel/variables/meta` */
  listVariables(): Promise<VariableDefinition[]>;
  /**
   * `GET /v1/panel/variables/data[?filter=writable]`. `balance` is a points value from a top-level
   * `points`, `balance`, `points_balance` or `reward_points` field (no documented endpoint returns the balance), else null,
   * or why the first such field holds a number that cannot be points (utils/balance.ts, `BodyBalance`).
   */
  readValues(opts?: { writableOnly?: boolean }): Promise<{ values: StoredValues; balance: BodyBalance }>;
  /** `GET /v1/panel/rewards`; `balance` as for readValues. */
  listRewards(): Promise<{ rewards: Reward[]; balance: BodyBalance }>;
}

/** What each read resolves with (readValues without a filter). */
export interface Reads {
  rewards: { rewards: Reward[]; balance: BodyBalance };
  redemptions: Redemption[];
  variablesMeta: VariableDefinition[];
  /** `unreadable`: names whose stored answer no value can mean (utils/stored-values.ts). */
  variablesData: { values: StoredValues; unreadable: string[]; balance: BodyBalance };
}

export type ReadName = keyof Reads;

export type Revalidated<T> =
  { notModified: false; data: T; validator: Validator | null } | { notModified: true; validator: Validator };

export type { Validator };

export type PanelApiConfig = HttpConfig;

export const ENDPOINTS = {
  variablesMeta: '/v1/panel/variables/meta',
  variablesData: '/v1/panel/variables/data',
  redemptions: '/v1/panel/redemptions',
  rewards: '/v1/panel/rewards',
  redemption: '/v1/panel/redemption',
} as const;

function invalid(message: string, field?: string): AppErrorException {
  return new AppErrorException(appError('invalid_input', message, field ? { field } : {}));
}

/**
 * Whether a variable name may go into the delete path or the update body. `.` and `..` would be
 * read as path steps (`/data/..` is `/variables/`), a `/` would start another segment, and
 * control characters have no place in a name.
 */
export function isSendableName(name: unknown): name is string {
  return (
    typeof name === 'string' &&
    name.trim() !== '' &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    // oxlint-disable-next-line no-control-regex -- control characters are what this refuses
    !/[\u0000-\u001f\u007f-\u009f]/.test(name)
  );
}

/** A refused name as it can be shown: control characters made visible, at most 40 characters. */
export function shownName(name: unknown): string {
  // oxlint-disable-next-line no-control-regex -- control characters are what this makes visible
  const text = String(name).replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function isVariableValue(value: unknown): value is VariableValue {
  if (typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return Array.isArray(value) && value.every((id) => typeof id === 'number' && Number.isSafeInteger(id));
}

/**
 * The variable a refusal without a `field` is about: the one whose name appears as a whole word in
 * the server's message, the longest such name when several do (FIRST_NAME over NAME).
 */
export function fieldNamedIn(message: string, names: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const name of names) {
    if (!name) continue;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`).test(message)) {
      if (!found || name.length > found.length) found = name;
    }
  }
  return found;
}

/**
 * The sent variable a validation key is about: the name itself when one was sent under it
 * (`PET.TYPE`), else the key without Laravel's item indexes (`HOBBIES.0` → `HOBBIES`).
 */
export function sentNameOf(key: string, names: readonly string[]): string {
  return names.includes(key) ? key : key.replace(/(\.\d+)+$/, '');
}

/** Per-field texts filed under the variables sent, the texts of one variable's items joined. */
function fieldsBySentName(fields: Record<string, string>, names: readonly string[]): Record<string, string> {
  const joined = new Map<string, string[]>();
  for (const [key, text] of entriesOf(fields)) {
    const name = sentNameOf(key, names);
    joined.set(name, [...(joined.get(name) ?? []), text]);
  }
  // Null-prototype (utils/by-name.ts): a name like `__proto__` or `constructor` stays a plain key.
  return byName([...joined].map(([name, texts]) => [name, joinFieldTexts(texts)]));
}

/**
 * A `rejected` failure of a write, said of the variables sent: its per-field texts filed under
 * them, and its `field` one of them, from the panel's own, the message or the only candidate.
 */
function withField(error: unknown, names: readonly string[]): unknown {
  if (!(error instanceof AppErrorException)) return error;
  const e: AppError = error.error;
  if (e.kind !== 'rejected') return error;
  const fields = e.fields && fieldsBySentName(e.fields, names);
  const field = e.field
    ? sentNameOf(e.field, names)
    : (fieldNamedIn(e.message, names) ?? (names.length === 1 ? names[0] : undefined));
  return new AppErrorException({ ...e, ...(fields ? { fields } : {}), ...(field ? { field } : {}) });
}

/**
 * The balance a read's body carries (utils/balance.ts), or, when it carries one the interface cannot
 * mean (below zero, a fraction, beyond 2^53), the `unexpected` failure naming `endpoint` and the
 * field. Not passed over (a later field or source must not stand in for it) and not thrown: the
 * caller leaves the balance not read, and the rest of the answer (the catalogue, the stored
 * values) stands, as one record the extension cannot mean never refuses its read (records.ts).
 */
function balanceOf(body: unknown, endpoint: string): BodyBalance {
  const found = balanceFromBody(body);
  if (!('impossible' in found)) return found.points;
  return { impossible: unexpectedResponse(endpoint, `${found.impossible}: ${t('issueBalance')}`).error };
}

/**
 * Each read's body check, shared by the plain and the conditional read. Image addresses a page may
 * not load (utils/image-url.ts) are dropped here, before anything stores or shows them.
 */
const parsers = (origin: string): { [K in ReadName]: (body: unknown) => Reads[K] } => ({
  rewards: (body) => ({
    rewards: withSafeImages(parseBody(rewardsResponseSchema, body, ENDPOINTS.rewards).rewards, origin),
    balance: balanceOf(body, ENDPOINTS.rewards),
  }),
  redemptions: (body) => {
    const redemptions = parseBody(redemptionsResponseSchema, body, ENDPOINTS.redemptions).redemptions;
    const rewards = withSafeImages(
      redemptions.map((r) => r.reward),
      origin,
    );
    return redemptions.map((r, i) => ({ ...r, reward: rewards[i]! }));
  },
  variablesMeta: (body) => parseBody(variablesMetaResponseSchema, body, ENDPOINTS.variablesMeta).data,
  variablesData: (body) => ({
    ...readStoredValues(
      parseBody(readValuesResponseSchema, body, ENDPOINTS.variablesData).data,
      ENDPOINTS.variablesData,
    ),
    balance: balanceOf(body, ENDPOINTS.variablesData),
  }),
});

/** What the endpoints of one client share. */
interface Client {
  http: HttpClient;
  parse: ReturnType<typeof parsers>;
  /** The token and the other secrets no error text may carry. */
  secrets: readonly string[];
}

/**
 * A write or redeem must answer `{ message: "success" }`. Another `message` is
 * `unexpected`, with the server's words quoted: the change may or may not have been made, so
 * the panelist is told to check rather than that it was refused.
 */
function confirm(client: Client, body: unknown, endpoint: string, kind: RequestKind): void {
  const { message } = parseBody(writeResponseSchema, body, endpoint);
  if (message.trim().toLowerCase() === SUCCESS_MESSAGE) return;
  // Redacted before the cut, for the same reason as in http.ts's serverDetail.
  const quoted = redact(message, ...client.secrets)
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  const said = quoted ? t('writeAnsweredInstead', quoted, endpoint) : t('writeNotConfirmed', endpoint);
  const next = t(kind === 'redeem' ? 'checkRedemptionHistory' : 'reloadProfileToSee');
  throw new AppErrorException(appError('unexpected', sentences(said, next), { endpoint }));
}

/** Keeps the tokens out of any message raised after the HTTP layer (parse failures quote data). */
async function guard<T>(client: Client, work: () => Promise<T>): Promise<T> {
  const { secrets } = client;
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppErrorException) {
      const { message, field } = error.error;
      if (secrets.some((secret) => message.includes(secret) || field?.includes(secret))) {
        throw new AppErrorException({
          ...error.error,
          message: redact(message, ...secrets),
          ...(field ? { field: redact(field, ...secrets) } : {}),
        });
      }
    }
    throw error;
  }
}

/** A read of `name`, sent conditionally with `validator` (null: a plain read). */
function readOf<K extends ReadName>(
  client: Client,
  name: K,
  validator: Validator | null,
): Promise<Revalidated<Reads[K]>> {
  return guard(client, async () => {
    const answer = await client.http.read({ method: 'GET', path: ENDPOINTS[name], kind: 'read', validator });
    return answer.notModified
      ? answer
      : { notModified: false, data: client.parse[name](answer.body), validator: answer.validator };
  });
}

async function plainRead<K extends ReadName>(client: Client, name: K): Promise<Reads[K]> {
  const answer = await readOf(client, name, null);
  // Unreachable: without a validator a 304 is refused as unexpected by the HTTP layer.
  if (answer.notModified) throw unexpectedResponse(ENDPOINTS[name], 'HTTP 304', 304);
  return answer.data;
}

/** The stored answers, or only those the panelist may change (`filter=writable`). */
function readValues(client: Client, writableOnly: boolean | undefined): Promise<Reads['variablesData']> {
  if (!writableOnly) return plainRead(client, 'variablesData');
  return guard(client, async () =>
    client.parse.variablesData(
      await client.http.request({
        method: 'GET',
        path: ENDPOINTS.variablesData,
        query: { filter: 'writable' },
        kind: 'read',
      }),
    ),
  );
}

/** A read sent for its status only: the body is JSON (else unexpected), and nothing more is asked of it. */
function checkAccess(client: Client): Promise<void> {
  return guard(client, async () => {
    await client.http.request({ method: 'GET', path: ENDPOINTS.variablesData, kind: 'read' });
  });
}

/** Sends the given answers in one update, each name and value checked before anything leaves. */
function updateValues(client: Client, values: StoredValues): Promise<void> {
  return guard(client, async () => {
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      throw invalid(t('apiNothingToSave'));
    }
    const names = Object.keys(values);
    for (const [name, value] of entriesOf(values)) {
      if (!isSendableName(name)) throw invalid(t('apiVariableNameInvalid', shownName(name)));
      if (!isVariableValue(value)) {
        throw invalid(t('apiValueUnsendable', name), name);
      }
    }
    try {
      const body = await client.http.request({
        method: 'POST',
        path: ENDPOINTS.variablesData,
        body: values,
        kind: 'write',
      });
      confirm(client, body, ENDPOINTS.variablesData, 'write');
    } catch (error) {
      throw withField(error, names);
    }
  });
}

function deleteValue(client: Client, name: string): Promise<void> {
  return guard(client, async () => {
    if (typeof name !== 'string' || name.trim() === '') throw invalid(t('apiChooseVariable'));
    if (!isSendableName(name)) throw invalid(t('apiVariableNameInvalid', shownName(name)));
    const path = `${ENDPOINTS.variablesData}/${encodeURIComponent(name)}`;
    try {
      const body = await client.http.request({ method: 'DELETE', path, kind: 'write' });
      confirm(client, body, path, 'write');
    } catch (error) {
      throw withField(error, [name]);
    }
  });
}

function redeem(client: Client, rewardId: RewardId, idempotencyKey: string | undefined): Promise<void> {
  return guard(client, async () => {
    // Only an id the catalogue gave (utils/ids.ts) is sent, as its exact digits.
    if (rewardIdOf(rewardId) !== rewardId || rewardId.startsWith('-')) throw invalid(t('apiRewardIdInvalid'));
    const body = await client.http.request({
      method: 'GET',
      path: ENDPOINTS.redemption,
      query: { id: rewardId },
      kind: 'redeem',
      // A Structured Fields string, as the draft writes it.
      ...(idempotencyKey ? { headers: { 'Idempotency-Key': `"${idempotencyKey}"` } } : {}),
    });
    confirm(client, body, ENDPOINTS.redemption, 'redeem');
  });
}

export function createPanelApi(config: PanelApiConfig): PanelClient {
  const client: Client = {
    http: createHttp(config),
    parse: parsers(new URL(normaliseBaseUrl(config.baseUrl)).origin),
    secrets: [config.token.trim(), ...(config.secrets ?? [])].filter(Boolean),
  };
  return {
    listVariables: () => plainRead(client, 'variablesMeta'),
    readValues: (opts = {}) => readValues(client, opts.writableOnly),
    checkAccess: () => checkAccess(client),
    updateValues: (values) => updateValues(client, values),
    deleteValue: (name) => deleteValue(client, name),
    listRedemptions: () => plainRead(client, 'redemptions'),
    listRewards: () => plainRead(client, 'rewards'),
    redeem: (rewardId, idempotencyKey) => redeem(client, rewardId, idempotencyKey),
    revalidate: (name, validator) => readOf(client, name, validator),
  };
}
