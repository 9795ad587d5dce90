import * as v from 'valibot';
import { namedRecord } from './by-name';
import { BADGE_SHOWS, NOTIFICATION_KINDS } from './preferences';
import { rewardIdOf } from './ids';

/**
 * The shape of every message a page may send the background, checked at the door before any
 * handler runs (entrypoints/background/handlers.ts): a message of another shape is refused with
 * `bad_request` naming the field, and nothing is read, written or sent. The protocol's request
 * types are inferred from these (messages.ts), so the check and the type cannot drift apart. Only
 * the background imports the schemas; the pages take the types alone.
 */

/** What the handler then checks in depth (an address, a token, a value against its question): here only its shape and size. */
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
/**
 * A reward's id as the catalogue gave it (utils/ids.ts): its exact digits, or a safe integer a page
 * that an earlier version painted still holds; made the canonical id here, once.
 */
const id = v.pipe(
  v.union([v.string(), v.number()]),
  v.transform((raw: string | number) => rewardIdOf(raw)),
  // A catalogue id is sent back to the panel as it is: never a negative one (api/client.ts refuses it too).
  v.check((rewardId) => rewardId !== null && !rewardId.startsWith('-'), 'a reward id'),
  v.transform((rewardId) => rewardId!),
);
/** A points cost: whole points, 0 or more. */
const points = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const variableValue = v.union([
  text(10_000),
  v.pipe(v.number(), v.finite()),
  // Option ids, and the word the panel holds for an option it no longer offers (utils/types.ts).
  v.pipe(v.array(v.union([v.pipe(v.number(), v.safeInteger()), text(1_000)])), v.maxLength(1_000)),
]);
const force = v.strictObject({ force: v.boolean() });
/** The session a page's edit, save, removal or Confirm was made under: the background applies it only while that session is active. */
const session = text(200);
const atMostValues = <T extends object>(values: T) => Object.keys(values).length <= 1_000;
/** A message that carries nothing. */
const nothing = v.optional(v.union([v.undefined(), v.null()]));

export const REQUESTS = {
  getSession: nothing,
  connect: v.strictObject({ baseUrl: text(2_048), token: text(8_192) }),
  disconnect: nothing,
  refreshRewards: force,
  /**
   * A Confirm names the session its dialog was shown in (never carried out for another account) and
   * the points cost the panelist confirmed (never charged at another).
   */
  redeem: v.strictObject({ session, rewardId: id, points, confirmUnsettled: v.optional(v.boolean()) }),
  checkRedemption: nothing,
  dismissRedemption: nothing,
  refreshHistory: force,
  refreshProfile: force,
  saveValues: v.strictObject({
    session,
    // Every name kept, `__proto__` and `constructor` too (utils/by-name.ts): a name is data.
    values: v.pipe(namedRecord(text(256), variableValue), v.check(atMostValues, 'at most 1,000 values')),
  }),
  editDraft: v.strictObject({
    session,
    /** Unsaved edits by variable name; null forgets that name's edit. */
    changes: v.pipe(namedRecord(text(256), v.nullable(variableValue)), v.check(atMostValues, 'at most 1,000 values')),
    /** Forgets every edit first. */
    clear: v.optional(v.literal(true)),
  }),
  dismissDraftNotice: v.strictObject({ session }),
  deleteValue: v.strictObject({ session, name: text(256) }),
  seeQuestions: v.strictObject({ account: text(10_000), names: v.pipe(v.array(text(256)), v.maxLength(10_000)) }),
  setPreferences: v.strictObject({
    badge: v.optional(v.boolean()),
    refreshMinutes: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
    badgeShows: v.optional(v.picklist(BADGE_SHOWS)),
    notify: v.optional(v.boolean()),
    notifyOff: v.optional(v.pipe(v.array(v.picklist(NOTIFICATION_KINDS)), v.maxLength(NOTIFICATION_KINDS.length * 2))),
    notifyOn: v.optional(v.pipe(v.array(v.picklist(NOTIFICATION_KINDS)), v.maxLength(NOTIFICATION_KINDS.length * 2))),
  }),
  signIn: nothing,
  setGoal: v.strictObject({ rewardId: v.nullable(id) }),
} as const;

export type MessageType = keyof typeof REQUESTS;
export type Request<K extends MessageType> = v.InferOutput<(typeof REQUESTS)[K]>;

/**
 * The message's data when it is of its type's shape, or where it is not: the field's path
 * (`rewardId`, `values.HOBBIES.0`; empty for the whole message) and what it should have been.
 */
export function checkRequest<K extends MessageType>(
  type: K,
  data: unknown,
): { ok: true; data: Request<K> } | { ok: false; field: string; expected: string } {
  const result = v.safeParse(REQUESTS[type], data);
  if (result.success) return { ok: true, data: result.output as Request<K> };
  const issue = result.issues[0];
  const field = (issue.path ?? []).map((item) => String(item.key)).join('.');
  return { ok: false, field, expected: issue.expected ?? issue.message };
}
