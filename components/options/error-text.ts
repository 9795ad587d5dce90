import type { AppError } from '../../utils/errors';
import { t, tp, type MessageKey } from '../../utils/i18n';
import { asSentence, sentences } from '../../utils/sentences';
import { settings } from '../../utils/settings';

/**
 * How the panelist connected, set by the options page from its session (OptionsApp): a refusal of
 * a sign-in is not told as one of a personal key, which a signed-in panelist does not have.
 */
export const connectedBy = { signedIn: false };

/** What the panelist can do about each kind of failure; the message itself says what happened. */
const NEXT_STEP: Partial<Record<AppError['kind'], MessageKey>> = {
  unauthorized: 'stepUnauthorized',
  not_allowed: 'stepNotAllowed',
  network: 'stepNetwork',
  timeout: 'stepTimeout',
  server: 'stepServer',
  unexpected: 'stepUnexpected',
  not_connected: 'stepNotConnected',
  busy: 'stepBusy',
};

/**
 * What happened, in the panelist's words. The API client's texts are written for every page and
 * for support: they name the panel by its address, an endpoint or an HTTP status. On this page the
 * panel is called by its name, and the technical part stays out of view, for support.
 */
export function plainMessage(error: AppError): string {
  const panel = settings.panelName;
  // Failures made on this side (no answer from the extension, refused input) carry no endpoint.
  const fromPanel = Boolean(error.endpoint || error.status);
  switch (error.kind) {
    case 'network':
      return fromPanel ? t('errPanelUnreachable', panel) : error.message;
    case 'timeout':
      return t('errPanelTimeout', panel);
    case 'server':
      return t('errPanelServer', panel);
    case 'unexpected':
      return fromPanel ? t('errPanelUnreadable', panel) : error.message;
    case 'unauthorized':
      return t(connectedBy.signedIn ? 'errSignInEnded' : 'errKeyNotAccepted', panel);
    case 'not_connected':
      return t('errNotConnectedHere');
    case 'not_allowed':
      return error.message.trim() || t('errNotAllowed', panel);
    case 'rejected':
      if (error.status === 404) return t('errPanelNotFound', panel);
      // The client's own fallback when the panel gave no reason: an HTTP status, not words.
      if (error.status && error.message === t('httpRefused', error.status)) return t('errPanelRefused', panel);
      return error.message;
    default:
      return error.message;
  }
}

/** The message for a failure, followed by what to do next unless the message already ends so. */
export function errorText(error: AppError, nextStep?: string): string {
  const stepKey = error.kind === 'unauthorized' && connectedBy.signedIn ? 'stepSignInAgain' : NEXT_STEP[error.kind];
  const step =
    nextStep ??
    (error.kind === 'rate_limited'
      ? error.retryAfterSeconds
        ? tp('stepRetryInSeconds', error.retryAfterSeconds)
        : t('stepRetryInAMinute')
      : stepKey && t(stepKey));
  const message = plainMessage(error).trim();
  if (!step || message.includes(step)) return message;
  return sentences(asSentence(message), step);
}
