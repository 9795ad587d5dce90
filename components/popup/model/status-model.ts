import { t } from '../../../utils/i18n';

/** The quiet "updating" note's words: SyncNotice and the first frame render them. */
export const syncStatusModel = (loading: boolean) => ({ text: loading ? t('syncUpdating') : '' });
