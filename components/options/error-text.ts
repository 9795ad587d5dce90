import type { AppError } from '../../utils/errors';
import { t, tp, type MessageKey } from '../../utils/i18n';
import { asSentence, sentences } from '../../utils/sentences';
import { settings } from '../../utils/settings';

/**
 * How the panelist connected, set by the options page from its session (OptionsApp): a refusal of
 * a sign-in is not told as one of a personal key, which a signed-in panelist does not have.
 */
export const connectedBy = { signedIn: false };

/** The endpoint the background names for the sign-in server's token requests (entrypoints/background/auth/tokens.ts). */
const TOKEN_ENDPOINT = 'token';

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
    case 'rate_limited':
      // The client's text says the wait too ("Try again in 30 s."): here the next step says it, in words.
      return asSentence(t('failBusy', panel));
    case 'unexpected':
      return fromPanel ? t('errPanelUnreadable', panel) : error.message;
    case 'unauthorized':
      return t(connectedBy.signedIn ? 'errSignInEnded' : 'errKeyNotAccepted', panel);
    case 'not_connected':
      return t('errNotConnectedHere');
    case 'not_allowed':
      // The panel's own words where it gave some; the client's fallback names an HTTP status, which is for support.
      return error.message.trim() && error.message !== t('httpNotAllowed')
        ? error.message.trim()
        : t('errNotAllowed', panel);
    case 'rejected':
      if (error.status === 404) return t('errPanelNotFound', panel);
      // The sign-in server refused to renew the sign-in: its code is for support.
      if (error.endpoint === TOKEN_ENDPOINT) return t('errRenewRefused');
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

/**
 * A failure as an options section shows it: the words, in the panelist's terms, and apart from them
 * what support needs (the panel's own wording where the words replaced it, the HTTP status and the
 * endpoint), behind "Details for support" as on the popup, never in the alert itself.
 */
export interface Alert {
  text: string;
  support: string | null;
}

/** An alert with nothing for support: words of this page's own. */
export const alertText = (text: string): Alert => ({ text, support: null });

/** {@link errorText} with the technical part apart, for "Details for support". */
export function alertOf(error: AppError, nextStep?: string, text = errorText(error, nextStep)): Alert {
  const words = error.message.trim();
  const code = [error.status ? `HTTP ${error.status}` : '', error.endpoint ?? ''].filter(Boolean).join(' ');
  const lines = [words && !text.includes(words) ? words : '', code].filter(Boolean);
  return { text, support: lines.length > 0 ? lines.join('\n') : null };
}
