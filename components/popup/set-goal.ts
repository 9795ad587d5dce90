import { useEffect, useRef, useState } from 'preact/hooks';
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

/**
 * The goal card's Remove. Once the goal is gone from storage the card goes, and the focused button
 * with it: focus goes to the same reward's goal toggle in the list (now "Set as goal"), or to the
 * rewards' heading where the list does not show it, and `say` tells a screen reader it is done.
 */
export function useRemoveGoal(
  goalId: RewardId | null,
  say: (text: string) => void,
): { notice: string | null; remove(): void } {
  const goalSetter = useSetGoal();
  // The goal being removed, and its row as the list showed it when Remove was pressed.
  const removing = useRef<{ id: RewardId; row: Element | null } | null>(null);
  useEffect(() => {
    const was = removing.current;
    if (was === null || goalId === was.id) return;
    removing.current = null;
    // Another goal set meanwhile: its card stays, and focus in it.
    if (goalId !== null) return;
    const toggle = was.row?.isConnected ? was.row.querySelector<HTMLElement>('.goal-toggle') : null;
    const heading = document.getElementById('rewards-title');
    if (toggle) toggle.focus();
    else if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
    say(t('goalRemoved'));
  }, [goalId]);
  useEffect(() => {
    // Refused: the card stays and says why; nothing moves.
    if (goalSetter.notice !== null) removing.current = null;
  }, [goalSetter.notice]);
  const remove = () => {
    if (goalId === null) return;
    say('');
    removing.current = { id: goalId, row: rowOf(goalId) };
    goalSetter.set(null);
  };
  return { notice: goalSetter.notice, remove };
}

/** The list's row of a reward: its own, or its brand's, whose value picker offers it. */
function rowOf(id: RewardId): Element | null {
  const key = String(id);
  const own = document.getElementById(`reward-${key}-details`);
  if (own) return own.closest('li');
  const option = [...document.querySelectorAll<HTMLOptionElement>('.reward-choice option')].find(
    (o) => o.value === key,
  );
  return option?.closest('li') ?? null;
}
