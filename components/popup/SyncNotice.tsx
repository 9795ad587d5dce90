import type { AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';

/** The error notice's id: a refresh the panelist asked for moves focus here when it fails. */
export const SYNC_ERROR_ID = 'sync-error';

interface Props {
  error: AppError | null;
  loading: boolean;
  hasData: boolean;
  onRetry: () => void;
}

/** The last refresh's outcome: a quiet "updating" note, or the error beside the saved data. */
export function SyncNotice({ error, loading, hasData, onRetry }: Props) {
  if (error) {
    return (
      <div id={SYNC_ERROR_ID} class="notice notice-error" role="alert" tabIndex={-1}>
        <p>
          <strong>{t(hasData ? 'syncShowingSaved' : 'syncCouldNotLoad')}</strong> {error.message}
        </p>
        <button type="button" class="btn" onClick={onRetry}>
          {t('tryAgain')}
        </button>
      </div>
    );
  }
  return (
    <p class="visually-hidden" role="status">
      {loading ? t('syncUpdating') : ''}
    </p>
  );
}
