/** An API call's outcome as a value: what the extension's client resolved with, or its one AppError. */
import { ENDPOINTS } from '../../../utils/api/client';
import { HTTP_DEFAULTS } from '../../../utils/api/http';
import { AppErrorException, type AppError } from '../../../utils/errors';
import { t } from '../../../utils/i18n';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

/**
 * A time-out in the extension's words at the extension's own time-out (10 s), whatever shorter one
 * a test gave the doctor: the report says what panelists meet.
 */
function atExtensionTimeout(error: AppError): AppError {
  if (error.kind !== 'timeout') return error;
  const seconds = new Intl.NumberFormat('en').format(HTTP_DEFAULTS.timeoutMs / 1000);
  const message =
    error.endpoint === ENDPOINTS.redemption
      ? `${t('httpRedeemTimeout', seconds)} ${t('httpMayHaveGoneThrough')}`
      : t('httpTimeout', seconds);
  return { ...error, message };
}

export async function attempt<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof AppErrorException) return { ok: false, error: atExtensionTimeout(error.error) };
    throw error;
  }
}
