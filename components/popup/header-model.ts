import type { AppError } from '../../utils/errors';
import { formatRelative } from '../../utils/format';
import { t, tp, tpParts } from '../../utils/i18n';
import { nextReward } from '../../utils/next-reward';
import { answerHash } from '../../utils/profile-link';
import type { ProfileSummary } from '../../utils/storage-items';
import { settings } from '../../utils/settings';
import type { Balance, Reward } from '../../utils/types';

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
  /** Open profile questions, from the popup view (issue 20). */
  questions?: ProfileSummary | null | undefined;
}

/** Every word and flag the header shows (components/popup/frame-fill.ts): Header and the first frame render it. */
export function headerModel({ now, live, balance, rewards, fetchedAt, error, loading, refreshable, questions }: HeaderInput) {
  const points = balance?.points ?? null;
  const next = rewards && points !== null ? nextReward(rewards, points) : null;
  const offline = error?.kind === 'network';
  const earn = balance && settings.earnUrl ? { href: settings.earnUrl, text: t('earnMorePoints') } : null;
  const [before, number, after] = points === null ? ['', '', ''] : tpParts('balancePoints', points);
  const age = fetchedAt === undefined ? '' : formatRelative(fetchedAt, now);
  return {
    name: settings.panelName,
    history: live ? t('popupHistory') : null,
    options: t('popupOptions'),
    unknown: balance && points === null ? t('balanceUnknown') : null,
    points: points === null ? null : { before, number, after },
    next: balance && next ? tp('pointsToReward', next.missing, next.reward.name) : null,
    earn,
    questions: questions?.open
      ? { text: tp('openQuestions', questions.open), link: t('answerNow'), href: `options.html${answerHash(questions.first)}` }
      : null,
    fresh:
      fetchedAt !== undefined && refreshable
        ? {
            text: error ? t(offline ? 'offlineSince' : 'notUpdatedSince', age) : t('updatedAt', age),
            action: t(error ? 'retry' : 'popupRefresh'),
            busy: loading === true,
            alert: !!error,
            reason: error && !offline ? error.message : null,
          }
        : null,
  };
}

export type HeaderModel = ReturnType<typeof headerModel>;
