import { t } from '../../utils/i18n';
import type { CheckNowState } from './use-check-now';

/**
 * A polite live region that says a change of state and nothing else: a screen reader hears "Checking
 * your history now…" when a check starts and what it found when it ends, never "about 4 minutes"
 * after "about 5" as the clock moves. What keeps time is shown beside it, outside any live region.
 */
export function LiveState({ text }: { text: string }) {
  return (
    <p class="visually-hidden" role="status">
      {text}
    </p>
  );
}

/** What a "Check now" is doing, as a state: under way, or ended without finding it (said as "just now", once). */
export function checkSaid({ busy, checkedAt }: Pick<CheckNowState, 'busy' | 'checkedAt'>): string {
  if (busy) return t('checkingNow');
  return checkedAt === null ? '' : t('checkedNotYet', t('justNow'));
}
