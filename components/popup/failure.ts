import type { AppError } from '../../utils/errors';
import { t, tp } from '../../utils/i18n';
import { sentences } from '../../utils/sentences';
import { settings } from '../../utils/settings';

/**
 * A failed refresh in the panelist's words (issue 21): what is wrong, with the panel named as they
 * know it, never an HTTP code; the code and the endpoint go to a details line for support.
 */
export function failureModel(error: AppError): { reason: string; details: string | null } {
  const panel = settings.panelName;
  // Failures on this side (the extension's own worker did not answer, its storage is full) carry no endpoint: said as they are.
  const ours = error.kind === 'unexpected' && !error.endpoint && !error.status;
  const reason = ours
    ? error.message
    : error.kind === 'network'
      ? t('failReach', panel)
      : error.kind === 'timeout'
        ? t('failSlow', panel)
        : error.kind === 'server'
          ? t('failProblem', panel)
          : error.kind === 'rate_limited'
            ? t('failBusy', panel)
            : t('failOther', panel);
  const support = [error.status ? `HTTP ${error.status}` : '', error.endpoint ?? ''].filter(Boolean).join(' ');
  // A busy panel says how long to wait (its Retry-After): what to do next, before the line for support.
  const wait = error.kind === 'rate_limited' ? (error.retryAfterSeconds ? tp('stepRetryInSeconds', error.retryAfterSeconds) : t('stepRetryInAMinute')) : '';
  // A panel that answered with a redirect: what to check (and the other site, when it is known) is
  // something the panelist or the panel's support can act on, so it is said before the line for support.
  const moved = error.redirect ? error.message : '';
  const details = sentences(wait, moved, support ? t('failDetails', support) : '');
  return { reason, details: details || null };
}
