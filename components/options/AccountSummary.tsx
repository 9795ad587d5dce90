import type { Ref } from 'preact';
import { unread } from '../../utils/balance';
import { formatPoints, formatRelative } from '../../utils/format';
import { goalView } from '../../utils/goal-view';
import { t, tp } from '../../utils/i18n';
import { answerHash } from '../../utils/profile-link';
import { quarantinedReward } from '../../utils/reward-view';
import { goalItem, popupViewItem, syncItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { goalRewards } from '../popup/model/goal-rewards';
import { asName } from '../../utils/qty';
import { Joined } from '../popup/Joined';
import { Qty } from '../popup/Qty';

interface Props {
  account: string;
  /** Said once, just after connecting ("Connected to Panel."). */
  status: string;
  headingRef: Ref<HTMLHeadingElement>;
}

/** The page's sections, in its order, for the summary's links. */
const SECTIONS = [
  ['profile', 'profileHeading'],
  ['history', 'historyHeading'],
  ['balance', 'balanceHeading'],
  ['connection', 'connectionHeading'],
  ['preferences', 'preferencesHeading'],
] as const;

/**
 * What matters first: the balance, the goal and the open profile questions, from the
 * popup's own small view (the background keeps it; no catalogue is read), with links to the
 * sections below. The goal's step is worded as the popup's header words it, so the two agree.
 */
export function AccountSummary({ account, status, headingRef }: Props) {
  const view = useStorageItem(popupViewItem);
  const goal = useStorageItem(goalItem);
  const sync = useStorageItem(syncItem);
  const rewards = view.value?.rewards;
  // "Loading…" only while the catalogue's read is under way or not yet tried: after a failed one
  // the balance was not read, which the popup explains with a way to try again.
  const reading = !sync.value || sync.value.rewards.loading || sync.value.rewards.attemptedAt === 0;
  const points = rewards?.balance.points ?? null;
  // "Unknown" says a read found the panel shows none (utils/balance.ts); a balance no read brought
  // (its read failed, or the rewards came without it) is said not read.
  const noPoints = !rewards
    ? reading
      ? 'loading'
      : 'balanceUnread'
    : unread(rewards.balance)
      ? 'balanceUnread'
      : 'balanceUnknown';
  const target = goalView({ goal: goal.value ?? null, account, rewards: goalRewards(view.value, goal.value), points });
  const profile = view.value?.profile;
  return (
    <section class="card summary" aria-labelledby="summary-heading">
      <h2 id="summary-heading" ref={headingRef} tabIndex={-1}>
        {t('summaryHeading')}
      </h2>
      <p role="status" class="status">
        {status}
      </p>
      <dl class="summary-facts">
        <div>
          <dt>{t('summaryBalance')}</dt>
          <dd>
            {points === null ? (
              <span class="muted">{t(noPoints)}</span>
            ) : (
              <>
                <strong class="summary-points qty">{tp('points', points)}</strong>{' '}
                <span class="muted">{t('updatedAt', formatRelative(rewards!.fetchedAt))}</span>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('summaryGoal')}</dt>
          <dd>
            {target.kind === 'saving' ? (
              <Qty text={tp('pointsToReward', target.toGo, asName(target.reward.name))} />
            ) : target.kind === 'affordable' ? (
              <Qty text={t('goalReadyNext', asName(target.reward.name))} />
            ) : target.kind === 'gone' ? (
              <Qty text={t('goalGone', asName(target.name))} />
            ) : target.kind === 'quarantined' ? (
              <Qty text={quarantinedReward(target.reward.name, target.reason)} />
            ) : target.kind === 'unknown' ? (
              target.reward.name
            ) : target.kind === 'unread' ? (
              target.name
            ) : (
              t('summaryNoGoal')
            )}
            {(target.kind === 'saving' || target.kind === 'affordable') && (
              <progress
                value={Math.max(0, Math.min(target.points, target.cost))}
                max={Math.max(1, target.cost)}
                aria-label={tp(
                  'progressPoints',
                  target.cost,
                  formatPoints(Math.max(0, Math.min(target.points, target.cost))),
                )}
              />
            )}
          </dd>
        </div>
        {profile && (
          <div>
            <dt>{t('summaryProfile')}</dt>
            <dd class="joined-line">
              {profile.open > 0 ? (
                <Joined
                  first={tp('openQuestions', profile.open)}
                  then={<a href={answerHash(profile.first)}>{t('answerNow')}</a>}
                />
              ) : (
                t('profileAllAnswered')
              )}
            </dd>
          </div>
        )}
      </dl>
      <nav class="summary-links" aria-label={t('sectionsNav')}>
        {SECTIONS.map(([id, heading]) => (
          <a key={id} href={`#${id}`}>
            {t(heading)}
          </a>
        ))}
      </nav>
    </section>
  );
}
