import type { AppError } from '../../../utils/errors';
import { t, tp } from '../../../utils/i18n';
import { failureReason } from '../../../utils/failure-reason';
import { asName } from '../../../utils/qty';
import { settings } from '../../../utils/settings';

/** What a failure says: plain words first, the technical part apart, for support. */
export interface Failure {
  /** What is wrong, with the panel named as the panelist knows it: never an HTTP code or a path. */
  reason: string;
  /** What the panelist can do that the reason does not say: how long a busy panel asks to wait. */
  next: string | null;
  /**
   * For the panel's support, behind "Details for support" (support-model.ts), never a line of its
   * own: the panel's own words, what a redirect pointed at, the HTTP status and the endpoint.
   */
  support: string | null;
}

/**
 * A failed refresh in the panelist's words: what is wrong, with the panel named as they
 * know it; the code, the endpoint and the panel's own wording go to the details for support.
 */
export function failureModel(error: AppError): Failure {
  // Failures on this side (the extension's own worker did not answer, its storage is full) carry no endpoint: said as they are.
  const ours = error.kind === 'unexpected' && !error.endpoint && !error.status;
  const reason = ours ? error.message : failureReason(error);
  // A busy panel says how long to wait (its Retry-After): what to do next, in plain words.
  const next =
    error.kind === 'rate_limited'
      ? error.retryAfterSeconds
        ? tp('stepRetryInSeconds', error.retryAfterSeconds)
        : t('stepRetryInAMinute')
      : null;
  return { reason, next, support: ours ? null : supportText(error) };
}

/**
 * The lines for support: the panel's own words where the reason replaced them (a
 * refusal's "The selected id is invalid.", a body that was not of the documented shape, a redirect
 * and where it pointed), then "HTTP 422 /v1/panel/redemption". Null when there is nothing to add.
 * Words the card already quotes ({@link panelQuote}) are not said again.
 */
export function supportText(error: AppError, quoted = false): string | null {
  const words =
    !quoted &&
    (error.kind === 'rejected' ||
      error.kind === 'not_allowed' ||
      (error.kind === 'unexpected' && (error.endpoint || error.status)))
      ? error.message.trim()
      : '';
  const code = [error.status ? `HTTP ${error.status}` : '', error.endpoint ?? ''].filter(Boolean).join(' ');
  const lines = [words, code].filter(Boolean);
  return lines.length > 0 ? lines.join('\n') : null;
}

/**
 * A refusal's reason in the panel's own words, quoted and named as the panel's ("Panel Rewards
 * said: “This reward is temporarily unavailable.”"), when the panel gave some: the history shows
 * them, so the card does too. Null when the words are the client's own (a bare HTTP status).
 */
export function panelQuote(error: AppError | undefined): string | null {
  const words =
    error?.panelWords && (error.kind === 'rejected' || error.kind === 'not_allowed') && error.message.trim();
  return words ? t('panelSaid', settings.panelName, asName(words)) : null;
}
