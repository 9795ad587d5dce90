import type { AppError } from '../../../utils/errors';
import { formatRelative } from '../../../utils/format';
import type { GoalView } from '../../../utils/goal-view';
import { t, tp, tpParts } from '../../../utils/i18n';
import { nextReward } from '../../../utils/next-reward';
import { asName } from '../../../utils/qty';
import { listedName } from '../../../utils/reward-groups';
import { answerHash } from '../../../utils/profile-link';
import type { ProfileSummary } from '../../../utils/storage-items';
import { settings } from '../../../utils/settings';
import type { Balance, Reward } from '../../../utils/types';
import { failureModel } from './failure';
import { supportModel } from './support-model';

export interface HeaderInput {
  now: number;
  /** Connected and accepted: the history link makes sense. */
  live?: boolean | undefined;
  balance?: Balance | undefined;
  rewards?: readonly Reward[] | undefined;
  fetchedAt?: number | undefined;
  /** The last refresh failed while saved data is shown. */
  error?: AppError | null | undefined;
  loading?: boolean | undefined;
  /** A refresh can be asked for (the header then says how old the points are). */
  refreshable?: boolean | undefined;
  /** Open profile questions, from the popup view, so the profile is not read. */
  questions?: ProfileSummary | null | undefined;
  /** The account's goal (utils/goal-view.ts): while there is one to save for, it is the next step, as in the goal panel. */
  goal?: GoalView | undefined;
  /** The balance is the last one seen, kept while nothing else is, never a blank. */
  lastKnown?: boolean | undefined;
  /** The rewards shown were read, the balance beside them was not (utils/balance.ts): said so, with a retry. */
  unread?: boolean | undefined;
  /** What the list below has (the catalogue, or the popup view's first rows): a reward is named as its row shows it. */
  listed?: readonly Reward[] | undefined;
}

/**
 * The next step under the balance: the goal while it is one (its card, right below, names it: the
 * line says only the points to go), else the reward closest to it, named as the list below shows it
 * (utils/reward-groups.ts listedName).
 */
function nextStep(
  points: number,
  rewards: readonly Reward[] | undefined,
  goal: GoalView | undefined,
  listed: readonly Reward[],
): string | null {
  // The name as one unit (utils/qty.ts): a figure in it reads as its row shows it, in every direction.
  const name = (reward: Reward) => asName(listedName(reward, listed));
  if (goal?.kind === 'saving') return tp('pointsToGoal', goal.toGo);
  if (goal?.kind === 'affordable') return t('goalReady');
  const next = rewards && nextReward(rewards, points);
  return next ? tp('pointsToReward', next.missing, name(next.reward)) : null;
}

/** Every word and flag the header shows: Header and the first frame render it. */
export function headerModel({
  now,
  live,
  balance,
  rewards,
  fetchedAt,
  error,
  loading,
  refreshable,
  questions,
  goal,
  lastKnown,
  unread,
  listed = rewards ?? [],
}: HeaderInput) {
  const points = balance?.points ?? null;
  const earn = (balance || unread) && settings.earnUrl ? { href: settings.earnUrl, text: t('earnMorePoints') } : null;
  const [before, number, after] = points === null ? ['', '', ''] : tpParts('balancePoints', points);
  const failure = error ? failureModel(error) : null;
  const refreshWords = t(error || unread ? 'retry' : 'popupRefresh');
  // Connected, and the first read of the catalogue not back yet (nothing cached): the lines it fills are kept.
  const waiting = !!live && fetchedAt === undefined && !error;
  return {
    name: settings.panelName,
    history: live ? t('popupHistory') : null,
    options: t('popupOptions'),
    unknown: balance && points === null ? t('balanceUnknown') : null,
    points: points === null ? null : { before, number, after },
    // Never from a last known balance: the rows and the goal count with none, and would disagree.
    next: balance && points !== null && !lastKnown ? nextStep(points, rewards, goal, listed) : null,
    earn,
    questions: questions?.open
      ? {
          text: tp('openQuestions', questions.open),
          link: t('answerNow'),
          href: `options.html${answerHash(questions.first)}`,
        }
      : null,
    known: lastKnown ? t('lastKnownBalance') : null,
    waiting,
    fresh:
      fetchedAt !== undefined && refreshable
        ? {
            // "Can't reach Panel right now — last updated 2 min ago": what holds, and how old it is, in
            // the same words however old.
            text: unread
              ? failure
                ? // The rewards below are from the last read that came back: how old they are, as when stale.
                  t('balanceUnreadWhyAt', failure.reason, formatRelative(fetchedAt, now))
                : t('balanceUnread')
              : failure
                ? t('staleShowing', failure.reason, formatRelative(fetchedAt, now))
                : t('updatedAt', formatRelative(fetchedAt, now)),
            action: refreshWords,
            // Named for what it reads again, its own words first (a name holds what is seen).
            name: t('namedAction', refreshWords, t('pointsAndRewards')),
            busy: loading === true,
            alert: !!error,
            // What to do next in plain words; the code and the path only behind "Details for support".
            next: failure?.next ?? null,
            support: failure?.support ? supportModel(failure.support) : null,
          }
        : null,
  };
}

export type HeaderModel = ReturnType<typeof headerModel>;
