import { appError, AppErrorException, isAppError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import type { Result } from '../../utils/messages';
import { sessionItem } from '../../utils/storage-items';

/** Turns any failure into the typed error a page can show; a rejected token flags the session. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppErrorException) return err.error;
  if (isAppError(err)) return err;
  // storage.local holds 10 MiB; a panel with an enormous catalogue and history could fill it.
  if (err instanceof Error && /quota/i.test(err.message)) return appError('unexpected', t('errStorageFull'));
  return appError('unexpected', t('errInternal'));
}

export async function asResult<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, data: await work() };
  } catch (err) {
    const error = toAppError(err);
    if (error.kind === 'unauthorized') await markRejected();
    return { ok: false, error };
  }
}

export function fail(error: AppError): never {
  throw new AppErrorException(error);
}

async function markRejected(): Promise<void> {
  const session = await sessionItem.getValue();
  if (session.connected && !session.rejected) await sessionItem.setValue({ ...session, rejected: true });
}
