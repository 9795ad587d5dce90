import type { AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { asSentence, sentences } from '../../utils/sentences';
import { failureModel } from './model/failure';
import { syncStatusModel } from './model/status-model';
import { SupportDetails } from './SupportDetails';
import { supportModel } from './model/support-model';

/** The error's id: a refresh the panelist asked for moves focus here when it fails. */
export const SYNC_ERROR_ID = 'sync-error';

interface Props {
  /** Only when nothing is saved yet; with saved data the header says it in one line. */
  error: AppError | null;
  loading: boolean;
  /** App's; the first frame paints the card without it (a click meanwhile is held: early-clicks.ts). */
  onRetry?: () => void;
  /** What the app last did, said politely (App's; the first frame has none). */
  said?: string;
}

/** The last refresh's outcome: a quiet "updating" note, or why nothing could be loaded. */
export function SyncNotice({ error, loading, onRetry, said }: Props) {
  if (error) {
    const { reason, next, support } = failureModel(error);
    return (
      <div id={SYNC_ERROR_ID} class="notice notice-error" role="alert" tabIndex={-1}>
        <p>{sentences(asSentence(reason), next ?? '', t('rewardsWhenBack'))}</p>
        <button
          type="button"
          class="btn"
          onClick={onRetry}
          aria-label={t('namedAction', t('tryAgain'), t('pointsAndRewards'))}
        >
          {t('tryAgain')}
        </button>
        {/* The code and the path, for support, only when asked for: plain words come first. */}
        {support !== null && <SupportDetails m={supportModel(support)} />}
      </div>
    );
  }
  return <SyncStatus m={syncStatusModel(loading, said)} />;
}

function SyncStatus({ m }: { m: ReturnType<typeof syncStatusModel> }) {
  return (
    <p class="visually-hidden" role="status">
      {m.text}
    </p>
  );
}
