import * as v from 'valibot';
import { namedRecord } from '../by-name';
import { AppErrorException, appError } from '../errors';
import { t } from '../i18n';
import { redemptionIdOf, rewardIdOf } from '../ids';
import { instantOf } from '../instants';
import type { Redemption, Reward, RewardMeta, VariableDefinition, VariableOption } from '../types';
import { checkedCatalogue, checkedDefinition, checkedRedemption, checkedReward, rewardMetaSchema } from './records';

/**
 * Response bodies of the panel API (seed/panel-interface.md), as valibot schemas.
 *
 * Strict about the answer's shape and what identifies a record: the lists are lists, ids are
 * integers (a reward's and a redemption's kept as their exact digits, utils/ids.ts), a redemption
 * names its reward and when it was made. Each record's other fields are
 * checked on their own (./records.ts): a reward, redemption or profile question the extension cannot
 * mean is quarantined by itself, never the whole read. Unknown fields are dropped. Every parsed output
 * is assignable to the interfaces in utils/types.ts (checked at the bottom of this file).
 */

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
/** `message` is documented on every body but reads do not depend on it. */
const optionalMessage = v.optional(v.string());

// ---------------------------------------------------------------------------------------------
// Profile variables

/**
 * `GET /v1/panel/variables/meta`: each question read on its own (./records.ts): one the extension
 * cannot mean is kept as one only the panel sets, one without a name is left out.
 */
export const variablesMetaResponseSchema = v.object({
  message: optionalMessage,
  data: v.pipe(
    v.array(v.unknown()),
    v.transform((list): VariableDefinition[] =>
      list.map(checkedDefinition).filter((d): d is VariableDefinition => d !== null),
    ),
  ),
});

/** Keys that may carry a stored value's variable name, in the order they are tried (the shape is not documented). */
export const VALUE_NAME_KEYS = ['name', 'variable_name', 'var_name'] as const;
/** Keys that may carry a stored value, in the order they are tried. */
export const VALUE_KEYS = ['value', 'values'] as const;

/**
 * `data` of `GET /v1/panel/variables/data`: a list of records, each checked by
 * utils/stored-values.ts (one that names no variable refuses the whole; one named without a value is
 * an answer it cannot show), or an object from variable name to value, every name kept
 * (utils/by-name.ts: `__proto__` is a name like any other).
 */
export const storedValuesDataSchema = v.union([v.array(v.unknown()), namedRecord(v.string(), v.unknown())], () =>
  t('issueValuesShape'),
);

/** `GET /v1/panel/variables/data[?filter=writable]` (a top-level balance is read separately). */
export const readValuesResponseSchema = v.object({
  message: optionalMessage,
  data: storedValuesDataSchema,
});

// ---------------------------------------------------------------------------------------------
// Rewards

/** A reward: its id checked here, every other field on its own (./records.ts). */
export const rewardSchema = v.pipe(v.looseObject({ id: exactId(rewardIdOf) }), v.transform(checkedReward));

/**
 * `GET /v1/panel/rewards` (a top-level balance is read separately): each reward on its own, then
 * the list as a whole (a cost it does not give, an id it gives two costs: ./records.ts).
 */
export const rewardsResponseSchema = v.object({
  message: optionalMessage,
  rewards: v.pipe(v.array(rewardSchema), v.transform(checkedCatalogue)),
});

// ---------------------------------------------------------------------------------------------
// Redemptions

/**
 * When a redemption was made, parsed once into its instant (utils/instants.ts names the spellings
 * accepted): part of what identifies it, so a spelling of no moment refuses the read.
 */
const instant = v.pipe(
  v.string(),
  v.transform((text: string) => instantOf(text)),
  v.check(
    (at) => at !== null,
    () => t('issueTimestamp'),
  ),
  v.transform((at) => at!),
);

/** A redemption: what identifies it checked here (its id, its reward, when it was made), every other field on its own (./records.ts). */
export const redemptionSchema = v.pipe(
  v.looseObject({ id: exactId(redemptionIdOf), reward: rewardSchema, created_at: instant }),
  v.transform(checkedRedemption),
);

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
  Assignable<ReturnType<typeof checkedDefinition>, VariableDefinition | null>,
  Assignable<VariableDefinition['options'][number], VariableOption>,
  Assignable<v.InferOutput<typeof rewardMetaSchema>, RewardMeta>,
  Assignable<v.InferOutput<typeof rewardSchema>, Reward>,
  Assignable<v.InferOutput<typeof redemptionSchema>, Redemption>,
  Assignable<v.InferOutput<typeof variablesMetaResponseSchema>['data'], VariableDefinition[]>,
  Assignable<v.InferOutput<typeof rewardsResponseSchema>['rewards'], Reward[]>,
  Assignable<v.InferOutput<typeof redemptionsResponseSchema>['redemptions'], Redemption[]>,
];
