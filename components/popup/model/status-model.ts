import { t } from '../../../utils/i18n';

/**
 * The quiet "updating" note's words: SyncNotice and the first frame render them. `said`: what the
 * app last did that took its control away ("Goal removed"), said in the same polite region while
 * nothing loads; the first frame has none.
 */
export const syncStatusModel = (loading: boolean, said = '') => ({ text: loading ? t('syncUpdating') : said });
