import { appError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import type { Result } from '../../utils/messages';

/**
 * Runs one message to the background. The messaging layer throws when the background cannot be
 * reached (it is being restarted or updated); that becomes an ordinary typed failure here so no
 * page code has to handle a thrown string.
 */
export async function ask<T>(send: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await send();
  } catch {
    return {
      ok: false,
      error: appError('unexpected', t('extensionNoAnswerPage')),
    };
  }
}
