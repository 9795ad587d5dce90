import * as v from 'valibot';
import { AppErrorException, appError } from '../errors';
import { t } from '../i18n';
import { redemptionIdOf, rewardIdOf } from '../ids';
import type { Redemption, Reward, RewardMeta, VariableDefinition, VariableOption } from '../types';

/**
 * Response bodies of the panel API (seed/panel-interface.md), as valibot schemas.
 *
 * Strict about what the extension depends on: ids are integers, names and currency codes strings,
 * costs numbers, state flags booleans. Lenient elsewhere (a panel may send more than the interface shows): unknown fields
 * are dropped, every reward `meta_data` field is optional (a field of the wrong type is dropped, not
 * fatal: it is provider detail for display only), and documented nullable strings also accept a
 * missing field. Every parsed output is assignable to the interfaces in utils/types.ts (checked at
 * the bottom of this file).
 */

const integer = v.pipe(
  v.number(),
  v.integer(() => t('issueInteger')),
);
const finiteNumber = v.pipe(
  v.number(),
  v.finite(() => t('issueFinite')),
);
/**
 * A reward or redemption id as utils/ids.ts keeps it: a safe integer, or the decimal digits of one
 * beyond 2^53 (sent as a string, or as a number json.ts read from the body's own digits), made
 * the exact canonical digits here, once.
 */
const exactId = <T>(of: (raw: unknown) => T | null) =>
  v.pipe(
    v.unknown(),
    v.transform(of),
    v.check(
      (id) => id !== null,
      () => t('issueInteger'),
    ),
    v.transform((id) => id!),
  );
/** `string | null`; a missing field reads as null. */
const nullableString = v.nullish(v.string(), null);
/** `message` is documented on every body but reads do not depend on it. */
const optionalMessage = v.optional(v.string());

// ---------------------------------------------------------------------------------------------
// Profile variables

export const variableOptionSchema = v.pipe(
  v.object({
    id: integer,
    name: v.optional(v.string()),
    text: v.optional(v.string()),
    /** Missing reads as false: only a literal `true` makes an option exclusive. */
    exclusive: v.nullish(v.boolean(), false),
  }),
  v.transform((o): VariableOption => ({
    id: o.id,
    name: o.name ?? String(o.id),
    text: o.text ?? o.name ?? String(o.id),
    exclusive: o.exclusive,
  })),
);

export const variableDefinitionSchema = v.pipe(
  v.object({
    id: integer,
    name: v.pipe(
      v.string(),
      v.nonEmpty(() => t('issueNonEmptyName')),
    ),
    /** The question; "may equal name", so a missing text falls back to the name. */
    text: v.optional(v.string()),
    uuid: v.nullish(v.string(), ''),
    type: v.string(),
    writable: v.boolean(),
    /** Empty for free-form types; a missing or null list reads as empty. */
    options: v.nullish(v.array(variableOptionSchema), []),
  }),
  v.transform((d): VariableDefinition => ({
    id: d.id,
    name: d.name,
    text: d.text ?? d.name,
    uuid: d.uuid,
    type: d.type,
    writable: d.writable,
    options: d.options,
  })),
);

/** `GET /v1/panel/variables/meta` */
export const variablesMetaResponseSchema = v.object({
  message: optionalMessage,
  data: v.array(variableDefinitionSchema),
});

/** Keys that may carry a stored value's variable name, in the order they are tried (the shape is not documented). */
export const VALUE_NAME_KEYS = ['name', 'variable_name', 'var_name'] as const;
/** Keys that may carry a stored value, in the order they are tried. */
export const VALUE_KEYS = ['value', 'values'] as const;

/**
 * One stored-value record: it must name its variable with a non-empty string under one of
 * {@link VALUE_NAME_KEYS} and carry one of {@link VALUE_KEYS} (its content is normalised by
 * utils/stored-values.ts, which never fails on it).
 */
export const storedValueRecordSchema = v.pipe(
  v.looseObject({}),
  v.check(
    (r) => VALUE_NAME_KEYS.some((k) => typeof r[k] === 'string' && r[k] !== ''),
    () => t('issueRecordNoName'),
  ),
  v.check(
    (r) => VALUE_KEYS.some((k) => k in r),
    () => t('issueRecordNoValue'),
  ),
);

/** The object-map shape: variable name → value. Arrays are not maps. */
export const storedValueMapSchema = v.pipe(
  v.custom<Record<string, unknown>>(
    (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
    () => t('issueValuesShape'),
  ),
  v.record(v.string(), v.unknown()),
);

/** `data` of `GET /v1/panel/variables/data`: the two accepted shapes (utils/stored-values.ts). */
export const storedValuesDataSchema = v.union([v.array(storedValueRecordSchema), storedValueMapSchema], () =>
  t('issueValuesShape'),
);

/** `GET /v1/panel/variables/data[?filter=writable]` (a top-level balance is read separately). */
export const readValuesResponseSchema = v.object({
  message: optionalMessage,
  data: storedValuesDataSchema,
});

// ---------------------------------------------------------------------------------------------
// Rewards

/** Drops a field of the wrong type instead of failing the whole reward. */
function lenient<T extends v.GenericSchema>(schema: T) {
  return v.fallback(v.optional(schema), undefined);
}

export const rewardMetaSchema = v.pipe(
  v.object({
    utid: lenient(v.string()),
    terms: lenient(v.string()),
    brand_key: lenient(v.string()),
    countries: lenient(v.array(v.string())),
    min_value: lenient(v.string()),
    max_value: lenient(v.string()),
    brand_name: lenient(v.string()),
    disclaimer: lenient(v.string()),
    image_urls: lenient(v.record(v.string(), v.string())),
    value_type: lenient(v.string()),
    description: lenient(v.string()),
    reward_name: lenient(v.string()),
    reward_type: lenient(v.string()),
    currency_code: lenient(v.string()),
    short_description: lenient(v.string()),
    redemption_instructions: lenient(v.string()),
    image_url: lenient(v.string()),
  }),
  v.transform((meta): RewardMeta => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(meta)) if (value !== undefined) out[key] = value;
    return out;
  }),
);

/**
 * A reward's `reward_point_cost` as the interface can mean it: "points needed to
 * redeem", an integer in the rewards list and null inside a redemption's nested reward. Points are
 * whole and never below zero, so a cost is a safe integer of 0 or more: 0 is kept, a reward that
 * needs no points (the interface allows it, the precondition "balance at least the cost" holds for
 * it, and a free reward is a real offer). Missing or null reads as null, as before: the cost is
 * unknown and the panel decides.
 *
 * Anything else — below zero, a fraction, beyond 2^53, a string, a boolean — is not a cost the
 * panel can mean. The reward is quarantined rather than the whole list refused: its cost reads as
 * null, so no figure is shown or compared, and `costRefused` marks it, so no page offers to redeem
 * it and the background refuses to (redemption/service.ts). One broken reward never takes the
 * catalogue down, and "-500 points · Enough points" with Redeem enabled cannot happen.
 */
export function checkedPointCost(value: unknown): { reward_point_cost: number | null; costRefused?: true } {
  if (value === undefined || value === null) return { reward_point_cost: null };
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { reward_point_cost: value + 0 };
  return { reward_point_cost: null, costRefused: true };
}

export const rewardSchema = v.pipe(
  v.object({
    id: exactId(rewardIdOf),
    name: v.string(),
    cost: finiteNumber,
    cost_currency: v.string(),
    type: v.string(),
    /** Missing or null reads as '' (no image). */
    image_url: v.nullish(v.string(), ''),
    /** Missing or null reads as {}; any other non-object is an unexpected response. */
    meta_data: v.nullish(rewardMetaSchema, {}),
    /** Checked by {@link checkedPointCost}: an impossible cost quarantines the reward, not the list. */
    reward_point_cost: v.optional(v.unknown()),
  }),
  v.transform(({ reward_point_cost, ...reward }): Reward => ({ ...reward, ...checkedPointCost(reward_point_cost) })),
);

/** `GET /v1/panel/rewards` (a top-level balance is read separately). */
export const rewardsResponseSchema = v.object({
  message: optionalMessage,
  rewards: v.array(rewardSchema),
});

// ---------------------------------------------------------------------------------------------
// Redemptions

export const redemptionSchema = v.object({
  id: exactId(redemptionIdOf),
  cost: finiteNumber,
  currency: v.string(),
  reward_point_cost: integer,
  reward: rewardSchema,
  approved: v.boolean(),
  processed: v.boolean(),
  created_at: v.string(),
  updated_at: v.string(),
  failed: v.boolean(),
  refunded: v.boolean(),
  partner_status: nullableString,
  failed_reason: nullableString,
  transaction_id: nullableString,
});

/** `GET /v1/panel/redemptions` */
export const redemptionsResponseSchema = v.object({
  message: optionalMessage,
  redemptions: v.array(redemptionSchema),
});

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * The body of a write (update, delete) or a redeem. Only the shape is checked here; whether
 * `message` is `success` is decided by the client (utils/api/client.ts).
 */
export const writeResponseSchema = v.object({ message: v.string() });

export const SUCCESS_MESSAGE = 'success';

// ---------------------------------------------------------------------------------------------
// Parsing

/**
 * The `unexpected` failure for a body that is not the documented shape: it names the
 * endpoint, says what was wrong in a few words and what the panelist can do.
 */
export function unexpectedResponse(endpoint: string, detail: string, status?: number): AppErrorException {
  return new AppErrorException(
    appError(
      'unexpected',
      detail ? t('unexpectedResponseDetail', endpoint, detail) : t('unexpectedResponse', endpoint),
      { endpoint, ...(status !== undefined ? { status } : {}) },
    ),
  );
}

/** A short, human description of the first problem valibot found ("rewards.3.id: expected number"). */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return t('issueNotDocumented');
  // A union reports its options' issues: the deepest first one is the most specific.
  const inner = issue.issues?.[0];
  const chosen = inner && inner.path && (!issue.path || inner.path.length > issue.path.length) ? inner : issue;
  const path = v.getDotPath(chosen);
  let described: string;
  if (chosen.kind === 'schema' && chosen.received === 'undefined') described = t('issueMissing');
  else if (chosen.kind === 'schema' && chosen.type !== 'union' && chosen.type !== 'custom' && chosen.expected) {
    described = t('issueExpected', chosen.expected); // never echoes the received value
  } else described = chosen.message; // our own messages (checks, integer, union)
  const text = path ? `${path}: ${described}` : described;
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** Parses `body` with `schema`, or throws the `unexpected` failure naming `endpoint`. */
export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown, endpoint: string): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) throw unexpectedResponse(endpoint, describeIssues(result.issues));
  return result.output;
}

// ---------------------------------------------------------------------------------------------
// Compile-time proof that parsed outputs fit the domain types.

type Assignable<T extends U, U> = T;
type _Checks = [
  Assignable<v.InferOutput<typeof variableOptionSchema>, VariableOption>,
  Assignable<v.InferOutput<typeof variableDefinitionSchema>, VariableDefinition>,
  Assignable<v.InferOutput<typeof rewardMetaSchema>, RewardMeta>,
  Assignable<v.InferOutput<typeof rewardSchema>, Reward>,
  Assignable<v.InferOutput<typeof redemptionSchema>, Redemption>,
  Assignable<v.InferOutput<typeof variablesMetaResponseSchema>['data'], VariableDefinition[]>,
  Assignable<v.InferOutput<typeof rewardsResponseSchema>['rewards'], Reward[]>,
  Assignable<v.InferOutput<typeof redemptionsResponseSchema>['redemptions'], Redemption[]>,
];
