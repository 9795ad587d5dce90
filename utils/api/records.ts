import * as v from 'valibot';
import { isMoneyAmount } from '../format';
import { t } from '../i18n';
import type { Redemption, Reward, RewardMeta, VariableDefinition, VariableOption } from '../types';

/**
 * Each record of an answer checked on its own (utils/api/schemas.ts hands each one here): a reward,
 * a redemption or a profile question the extension cannot mean is quarantined by itself, never
 * the whole read. One broken record must not take the catalogue, the history or the profile down
 * ("Couldn't get an update" for all of it), and what it cannot mean is neither shown nor acted on:
 *
 * - **a reward** whose points cost, value (`cost`) or currency cannot be right is kept with that
 *   figure read as unknown and marked `costRefused`: it is shown without the figure, never offered
 *   and never redeemed (the background refuses it before anything is sent). A value is meant when it
 *   is a number of 0 or more that its currency can print exactly (utils/format.ts); a currency when it
 *   is a string (one that is not an ISO 4217 code is shown as points alone, as before). A name, type,
 *   image or `meta_data` of the wrong type is read as none: they are words and pictures, not figures;
 * - **a redemption** whose value, currency or points cannot be right keeps them as unknown (the
 *   history shows it without them, and no total counts them); one whose state flags are not booleans
 *   is marked `stateUnreadable` (its state is not guessed). It is never dropped: the history is the
 *   ledger, and a redemption left out could let a Confirm be told nothing was charged;
 * - **a profile question** of a shape the extension cannot mean (its type, whether it is writable, an
 *   option) is kept as one only the panel sets (`unreadable`): shown, never offered for an answer,
 *   never counted as open. One without a name it can be asked by is left out.
 *
 * What identifies a record stays strict in the schemas, and a record without it refuses the read:
 * a reward's and a redemption's id, the redemption's reward and its `created_at`. A redemption the
 * ledger cannot identify cannot settle a Confirm either way.
 */

const isString = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPoints = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Drops a field of the wrong type instead of failing the whole reward. */
function lenient<T extends v.GenericSchema>(schema: T) {
  return v.fallback(v.optional(schema), undefined);
}

/**
 * Provider details for display only: a field of the wrong type is dropped, not fatal. The
 * provider's `utid`, `brand_key` and `reward_name` are dropped as unknown fields are: nothing
 * reads them (the name shown is `name`, a brand `brand_name`), and a catalogue stored without them
 * fits `storage.local`'s quota as text (utils/stored-catalogue.ts).
 */
export const rewardMetaSchema = v.pipe(
  v.object({
    terms: lenient(v.string()),
    countries: lenient(v.array(v.string())),
    min_value: lenient(v.string()),
    max_value: lenient(v.string()),
    brand_name: lenient(v.string()),
    disclaimer: lenient(v.string()),
    image_urls: lenient(v.record(v.string(), v.string())),
    value_type: lenient(v.string()),
    description: lenient(v.string()),
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
 * it, and a free reward is a real offer). Missing or null reads as null: the cost is unknown and
 * the panel decides. Anything else (below zero, a fraction, beyond 2^53, a string, a boolean) is not
 * a cost the panel can mean: the reward is quarantined.
 */
export function checkedPointCost(value: unknown): { reward_point_cost: number | null; costRefused?: true } {
  if (value === undefined || value === null) return { reward_point_cost: null };
  if (isPoints(value)) return { reward_point_cost: value + 0 };
  return { reward_point_cost: null, costRefused: true };
}

/** A reward's other fields, each read on its own; its id was checked by the schema. */
export function checkedReward(raw: { id: Reward['id'] } & Record<string, unknown>): Reward {
  const currency = raw.cost_currency;
  const cost_currency = isString(currency) ? currency : '';
  const cost = isMoneyAmount(raw.cost, cost_currency) ? raw.cost + 0 : null;
  const points = checkedPointCost(raw.reward_point_cost);
  const meta = v.safeParse(rewardMetaSchema, raw.meta_data);
  const refused = points.costRefused || cost === null || !isString(currency);
  return {
    id: raw.id,
    // A name is words, not a figure: one the panel did not give is said as "Reward #id".
    name: isString(raw.name) ? raw.name : t('rewardNumber', String(raw.id)),
    cost,
    cost_currency,
    type: isString(raw.type) ? raw.type : '',
    image_url: isString(raw.image_url) ? raw.image_url : '',
    meta_data: meta.success ? meta.output : {},
    reward_point_cost: points.reward_point_cost,
    ...(refused ? { costRefused: true as const } : {}),
    ...quarantineReason(raw, points.reward_point_cost, refused),
  };
}

/**
 * Why a refused reward is refused, when the reason is a figure the panel left out: no points cost
 * (`missing`, said first: it is what a redemption spends) or no value in money (`unpriced`: a value
 * or currency missing). A figure given that cannot be right is said as that (no reason), before both.
 */
function quarantineReason(
  raw: Record<string, unknown>,
  points: number | null,
  refused: boolean,
): Pick<Reward, 'costReason'> {
  const absent = (value: unknown) => value === undefined || value === null;
  const { cost, cost_currency: currency, reward_point_cost: rawPoints } = raw;
  const wrongPoints = !absent(rawPoints) && points === null;
  const wrongCurrency = !absent(currency) && !isString(currency);
  const wrongValue = isString(currency) && !absent(cost) && !isMoneyAmount(cost, currency);
  if (!refused || wrongPoints || wrongCurrency || wrongValue) return {};
  return { costReason: points === null ? 'missing' : 'unpriced' };
}

/**
 * The available list as a whole: a reward it gives no points cost (the interface says the list's
 * cost is an integer; only a redemption's nested reward has none) is quarantined as `missing`, and
 * every record of an id it lists twice with different costs as `conflicting`, its cost unknown (the
 * panel would charge one of them for the id sent, whichever the popup showed). A cost nobody gave is
 * never stated, offered or confirmed. The same record listed twice asks one cost: left as it is.
 */
export function checkedCatalogue(rewards: Reward[]): Reward[] {
  const costs = new Map<string, Set<number | null>>();
  for (const r of rewards) costs.set(r.id, (costs.get(r.id) ?? new Set()).add(r.reward_point_cost));
  return rewards.map((r): Reward => {
    if (costs.get(r.id)!.size > 1)
      return { ...r, reward_point_cost: null, costRefused: true, costReason: 'conflicting' };
    if (r.reward_point_cost === null && !r.costRefused) return { ...r, costRefused: true, costReason: 'missing' };
    return r;
  });
}

const FLAGS = ['approved', 'processed', 'failed', 'refunded'] as const;

/** A redemption's other fields, each read on its own; its id, reward and `created_at` were checked by the schema. */
export function checkedRedemption(
  raw: { id: Redemption['id']; reward: Reward; created_at: Redemption['created_at'] } & Record<string, unknown>,
): Redemption {
  const currency = isString(raw.currency) ? raw.currency : '';
  const flags = FLAGS.map((flag) => raw[flag]);
  const nullableString = (value: unknown) => (isString(value) ? value : null);
  return {
    id: raw.id,
    cost: isMoneyAmount(raw.cost, currency) ? raw.cost + 0 : null,
    currency,
    reward_point_cost: isPoints(raw.reward_point_cost) ? raw.reward_point_cost + 0 : null,
    reward: raw.reward,
    approved: raw.approved === true,
    processed: raw.processed === true,
    created_at: raw.created_at,
    updated_at: isString(raw.updated_at) ? raw.updated_at : raw.created_at,
    failed: raw.failed === true,
    refunded: raw.refunded === true,
    partner_status: nullableString(raw.partner_status),
    failed_reason: nullableString(raw.failed_reason),
    transaction_id: nullableString(raw.transaction_id),
    ...(flags.every((flag) => typeof flag === 'boolean') ? {} : { stateUnreadable: true as const }),
  };
}

/** An answer option, or null when the extension cannot mean it (its id is what an answer sends). */
function checkedOption(raw: unknown): VariableOption | null {
  if (!isObject(raw) || !Number.isSafeInteger(raw.id)) return null;
  const id = raw.id as number;
  const { name, text, exclusive } = raw;
  if ((name !== undefined && !isString(name)) || (text !== undefined && !isString(text))) return null;
  if (exclusive !== undefined && exclusive !== null && typeof exclusive !== 'boolean') return null;
  return { id, name: name ?? String(id), text: text ?? name ?? String(id), exclusive: exclusive === true };
}

/**
 * One profile question, or null when it has no name to be asked by. A question whose id, type,
 * `writable` or an option the extension cannot mean is kept as `unreadable`: not writable here,
 * with the options it could read (to put a stored answer in words).
 */
export function checkedDefinition(raw: unknown): VariableDefinition | null {
  if (!isObject(raw) || !isString(raw.name) || raw.name === '') return null;
  const { name } = raw;
  const listed = raw.options === undefined || raw.options === null ? [] : raw.options;
  const options = Array.isArray(listed) ? listed.map(checkedOption) : [null];
  const readable = options.filter((o): o is VariableOption => o !== null);
  const meant =
    Number.isSafeInteger(raw.id) &&
    isString(raw.type) &&
    typeof raw.writable === 'boolean' &&
    readable.length === options.length;
  return {
    id: Number.isSafeInteger(raw.id) ? (raw.id as number) : 0,
    name,
    // The question; "may equal name", so a missing text falls back to the name.
    text: isString(raw.text) ? raw.text : name,
    uuid: isString(raw.uuid) ? raw.uuid : '',
    type: isString(raw.type) ? raw.type : '',
    writable: meant && raw.writable === true,
    options: readable,
    ...(meant ? {} : { unreadable: true as const }),
  };
}
