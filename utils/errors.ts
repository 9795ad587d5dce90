/**
 * The closed set of failures a page can be told about. Every API or background
 * failure becomes exactly one of these; `message` is always fit to show a panelist.
 */
export const APP_ERROR_KINDS = [
  'not_connected', // no token stored yet
  'unauthorized', // 401: token not accepted; reconnect
  'not_allowed', // 403: the panel does not allow this action; the session stays
  'rejected', // 4xx with the server's own message (insufficient points, not writable, unknown option…)
  'rate_limited', // 429; retryAfterSeconds where given
  'server', // 5xx after retries
  'network', // no answer: offline, DNS, refused
  'timeout',
  'unexpected', // body not of the documented shape, or `message` not `success` on a write
  'busy', // a redemption is already pending
  'unsettled', // the same reward's previous redemption is still being checked: confirm explicitly
  'price_changed', // the reward's points cost is not the one the panelist confirmed: nothing sent, asked again
  'invalid_input', // refused before sending
  'permission_denied', // the browser refused host access
  'forbidden', // the message came from outside this extension's own pages
  'bad_request', // a message from a page that is not of its type's shape: refused at the door, nothing done
] as const;

export type AppErrorKind = (typeof APP_ERROR_KINDS)[number];

export interface AppError {
  kind: AppErrorKind;
  message: string;
  status?: number;
  /** Endpoint path, e.g. `/v1/panel/rewards`. */
  endpoint?: string;
  retryAfterSeconds?: number;
  /** Variable name a refusal concerns, when the server or validation names one. */
  field?: string;
  /**
   * Laravel-style validation errors (`errors: {NAME: ["…"]}` in a 422 body): each variable's own
   * text, shown next to that field; `message` stays the section's text.
   */
  fields?: Record<string, string>;
  /**
   * `message` is the panel's own words (its `message` or `error`, tidied), not a text of the
   * client's put in their place: a page may quote them as the panel's (a refusal's reason).
   */
  panelWords?: true;
  /** With `price_changed`: the reward's points cost now, as the catalogue read just before sending gave it. */
  points?: number;
  /** Set on a failed redemption once it is certain that no points were spent. */
  nothingCharged?: boolean;
  /**
   * A redirect the extension refused to follow (it follows none), with where it pointed when that
   * could be seen (not in a browser): `message` says what to check.
   */
  redirect?: { to?: string };
}

export class AppErrorException extends Error {
  constructor(readonly error: AppError) {
    super(error.message);
    this.name = 'AppErrorException';
  }
}

export function appError(kind: AppErrorKind, message: string, extra: Partial<AppError> = {}): AppError {
  return { kind, message, ...extra };
}

export function isAppError(value: unknown): value is AppError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AppError).kind === 'string' &&
    typeof (value as AppError).message === 'string'
  );
}
