import type { AppError } from '../../utils/errors';
import { t, tp, type MessageKey } from '../../utils/i18n';

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

/** The message for a failure, followed by what to do next unless the message already ends so. */
export function errorText(error: AppError, nextStep?: string): string {
  const stepKey = NEXT_STEP[error.kind];
  const step =
    nextStep ??
    (error.kind === 'rate_limited'
      ? error.retryAfterSeconds
        ? tp('stepRetryInSeconds', error.retryAfterSeconds)
        : t('stepRetryInAMinute')
      : stepKey && t(stepKey));
  const message = error.message.trim();
  if (!step || message.includes(step)) return message;
  return `${/[.!?]$/.test(message) ? message : `${message}.`} ${step}`;
}
