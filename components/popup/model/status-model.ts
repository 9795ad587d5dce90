import { t } from '../../../utils/i18n';

/** The quiet "updating" note's words (components/popup/first-frame/frame-fill.ts): SyncNotice and the first frame render them. */
export const syncStatusModel = (loading: boolean) => ({ text: loading ? t('syncUpdating') : '' });
