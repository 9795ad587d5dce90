import type { AppError } from '../../utils/errors';

/** What the panelist can do about each kind of failure; the message itself says what happened. */
const NEXT_STEP: Partial<Record<AppError['kind'], string>> = {
  unauthorized: 'Reconnect with a valid access token in “Connection”.',
  network: 'Check your internet connection and the API base URL, then try again.',
  timeout: 'The panel took too long to answer. Try again in a moment.',
  server: 'The panel’s server had a problem. Try again later.',
  unexpected: 'If this keeps happening, contact your panel.',
  not_connected: 'Connect your account in “Connection” first.',
  busy: 'Wait for the current request to finish, then try again.',
};

/** The message for a failure, followed by what to do next unless the message already ends so. */
export function errorText(error: AppError, nextStep?: string): string {
  const step =
    nextStep ??
    (error.kind === 'rate_limited'
      ? error.retryAfterSeconds
        ? `Try again in ${error.retryAfterSeconds} seconds.`
        : 'Try again in a minute.'
      : NEXT_STEP[error.kind]);
  const message = error.message.trim();
  if (!step || message.includes(step)) return message;
  return `${/[.!?]$/.test(message) ? message : `${message}.`} ${step}`;
}
