import type { AppError } from './errors';
import { t } from './i18n';
import { settings } from './settings';

/**
 * Why the panel could not be read, in the panelist's words, with the panel named as they know it:
 * never an HTTP code, a path or advice (what to do next is the sentence's own to say). Shared by
 * the popup's failure lines and the background's refusals that quote a failed read.
 */
export function failureReason(error: AppError): string {
  const panel = settings.panelName;
  switch (error.kind) {
    case 'network':
      return t('failReach', panel);
    case 'timeout':
      return t('failSlow', panel);
    case 'server':
      return t('failProblem', panel);
    case 'rate_limited':
      return t('failBusy', panel);
    default:
      return t('failOther', panel);
  }
}
