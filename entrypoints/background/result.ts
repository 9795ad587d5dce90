import { appError, AppErrorException, isAppError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import type { Result } from '../../utils/messages';

/** Turns any failure into the typed error a page can show. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppErrorException) return err.error;
  if (isAppError(err)) return err;
  // storage.local holds 10 MiB; a panel with an enormous catalogue and history could fill it.
  if (err instanceof Error && /quota/i.test(err.message)) return appError('unexpected', t('errStorageFull'));
  return appError('unexpected', t('errInternal'));
}

/** A rejected token is flagged where the request was made (api.ts), for its own session only. */
export async function asResult<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (err) {
    return { ok: false, error: toAppError(err) };
  }
}

export function fail(error: AppError): never {
  throw new AppErrorException(error);
}

/** Whether a write may have reached the panel even though no clear answer came back: then only the history can say. */
export function ambiguous(error: AppError): boolean {
  return error.kind === 'timeout' || error.kind === 'network' || error.kind === 'server' || error.kind === 'unexpected';
}
