import { useState } from 'preact/hooks';
import { t } from '../../utils/i18n';
import type { RewardId } from '../../utils/ids';
import { send } from './send';

/**
 * Asks the background to set the goal (`null`: remove it). Resolves to what to tell the panelist
 * when it could not, in the background's own words (a reward no longer offered, no account
 * connected), or that the extension did not answer; null once it is done (the popup then shows the
 * goal from storage).
 */
function setGoal(rewardId: RewardId | null): Promise<string | null> {
  return send('setGoal', { rewardId }).then(
    (result) => (result.ok ? null : result.error.message),
    () => t('extensionNotResponding'),
  );
}

/** A goal control's press, and what its last press could not do (said beside the control). */
export function useSetGoal(): { notice: string | null; set(rewardId: RewardId | null): void } {
  const [notice, setNotice] = useState<string | null>(null);
  const set = (rewardId: RewardId | null) => {
    setNotice(null);
    void setGoal(rewardId).then(setNotice);
  };
  return { notice, set };
}
