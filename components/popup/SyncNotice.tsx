import type { AppError } from '../../utils/errors';

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
      <div class="notice notice-error" role="alert">
        <p>
          <strong>{hasData ? 'Showing saved data. ' : 'Could not load rewards. '}</strong>
          {error.message}
        </p>
        <button type="button" class="btn" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <p class="visually-hidden" role="status">
      {loading ? 'Updating…' : ''}
    </p>
  );
}
