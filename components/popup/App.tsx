import type { ComponentProps } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { send as sendMessage } from './send';
import { returnsOf } from '../../utils/balance-trend';
import { goalView } from '../../utils/goal-view';
import { latestRedemption, redeemBlock } from '../../utils/reward-view';
import {
  accountOf,
  balanceHistoryItem,
  goalItem,
  historyItem,
  ledgerItem,
  popupViewItem,
  rewardsItem,
  sessionItem,
  syncItem,
  unsettledItem,
} from '../../utils/storage-items';
import { goalRewards } from './goal-rewards';
import { GoalContext } from './goal-context';
import { Header, useNow } from './Header';
import { PageLayout, PromptLayout } from './PopupLayout';
import { LazyGoal } from './LazyGoal';
import { LazyConfirm, preloadConfirm } from './LazyConfirm';
import { lazyView } from './lazy-view';
import { LazyOutcome, preloadOutcome } from './LazyOutcome';
import { heldRewards, openElsewhere } from './open-entries';
import { RewardList } from './RewardList';
import { SYNC_ERROR_ID, SyncNotice } from './SyncNotice';
import { useFreshOutcome } from './seen-outcome';
import { useItem } from './use-item';
import { useRedeemFlow } from './use-redeem-flow';

/**
 * Only a panelist without a working connection sees it: loaded then (main.tsx, before the first
 * render), outside the first chunk.
 */
const { Lazy: ConnectPrompt, preload: preloadPrompt } = lazyView<{ rejected: boolean; signedIn?: boolean | undefined }>(
  () => import('./ConnectPrompt').then((m) => m.ConnectPrompt),
  () => null,
);

export { preloadPrompt };

/**
 * Below the rewards, and shown only in some states: loaded when shown, outside the first chunk
 * (the first-frame script shares the 20 KiB budget with it). Appearing below what is on
 * screen, they move nothing.
 */
const { Lazy: LatestRedemption } = lazyView<ComponentProps<typeof import('./LatestRedemption').LatestRedemption>>(
  () => import('./LatestRedemption').then((m) => m.LatestRedemption),
  () => null,
);
/**
 * Redemptions still being checked that the outcome card no longer shows: rare, so outside the first
 * chunk; main.tsx loads it before the first render when there are some, so it is in that render.
 */
const { Lazy: StillChecking, preload: preloadStillChecking } = lazyView<
  ComponentProps<typeof import('./StillChecking').StillChecking>
>(
  () => import('./StillChecking').then((m) => m.StillChecking),
  () => null,
);

export { preloadStillChecking };

const { Lazy: Skeleton } = lazyView<object>(
  () => import('./Skeleton').then((m) => m.Skeleton),
  () => null,
);

/** Renders straight from storage; messages only ask the background to refresh or redeem. */
export function App() {
  const session = useItem(sessionItem);
  // The first render comes from the small view (preloaded by main.tsx), however big the catalogue. The catalogue
  // is read only when its rows are asked for (a search, the filter, "Show more", redeeming again):
  // with thousands of rewards its read alone is a long task. Without a view (before the
  // background made one) both caches are read.
  const view = useItem(popupViewItem);
  const [wantAll, setWantAll] = useState(false);
  const part = view?.rewards;
  const full = useItem(rewardsItem, wantAll || (view !== undefined && !part));
  const history = useItem(historyItem, view === null);
  const sync = useItem(syncItem);
  const dismiss = () => void sendMessage('dismissRedemption').catch(() => {});
  const ledger = useFreshOutcome(useItem(ledgerItem), dismiss);
  const elsewhere = openElsewhere(ledger, useItem(unsettledItem));
  // Once listed, the list stays for this opening: an entry settling there says what it became.
  const listed = useRef(false);
  if (elsewhere.length > 0) listed.current = true;
  const goal = useItem(goalItem);
  const samples = useItem(balanceHistoryItem);
  const flow = useRedeemFlow(ledger, elsewhere);
  const now = useNow(30_000);
  // Only for a background that does not answer at all; its own failures arrive through syncItem.
  const [noAnswer, setNoAnswer] = useState<AppError | null>(null);
  const state = sync?.rewards;
  const error = state?.error ?? noAnswer;
  // When the panelist asked for a refresh: the sync attempt it started from. Its failure takes focus.
  const asked = useRef<number | undefined>(undefined);

  const live = session?.connected === true && !session.rejected;
  const refresh = (force: boolean) => {
    if (force) asked.current = state?.attemptedAt ?? 0;
    setNoAnswer(null);
    const failed = () => setNoAnswer(appError('unexpected', t('extensionNotResponding')));
    sendMessage('refreshRewards', { force }).catch(failed);
    sendMessage('refreshHistory', { force }).catch(failed);
  };
  useEffect(() => {
    if (!live) return;
    refresh(false);
    void preloadConfirm().catch(() => {});
    void preloadOutcome().catch(() => {});
  }, [live]);
  useEffect(() => {
    // Redeeming again needs the reward, which may be anywhere in the catalogue.
    if (ledger?.state === 'not_found') setWantAll(true);
  }, [ledger?.state]);
  useEffect(() => {
    if (asked.current === undefined || state?.loading) return;
    if (noAnswer || (state?.attemptedAt ?? 0) !== asked.current) {
      asked.current = undefined;
      if (error) document.getElementById(SYNC_ERROR_ID)?.focus();
    }
  }, [state?.attemptedAt, state?.loading, noAnswer]);

  if (!session) return <Header now={now} />;
  if (!live) {
    return (
      <PromptLayout header={<Header now={now} />}>
        <ConnectPrompt rejected={session.rejected} signedIn={session.signedIn} />
      </PromptLayout>
    );
  }

  // The view stands in only until the catalogue's read returns: an absent catalogue is not shown from it.
  const rewards =
    full !== undefined
      ? full
      : part && { data: { balance: part.balance, rewards: part.first }, fetchedAt: part.fetchedAt };
  const balance = rewards?.data.balance.points ?? null;
  // Nothing cached (a reconnect, a first read that failed): the last balance seen stays in view, never a blank.
  // The last one a second read backed (utils/balance-trend.ts): a lone odd read is not "last known".
  const lastSeen = rewards ? undefined : samples?.filter((s) => !s.tentative).at(-1);
  const pending = ledger?.state === 'pending';
  // Rewards with a redemption still being checked, on the card or not: their Redeem is held back, saying why.
  const held = heldRewards(ledger, elsewhere);
  const latest = view ? view.latest : latestRedemption(history?.data);
  const account = accountOf(session);
  const goalRows = full ? full.data.rewards : goalRewards(view, goal);
  const catalogue = rewards?.data.rewards;
  // After "not found in your history", the next step is to redeem again, if the points still allow;
  // not when the panel had answered that it went through: then the panel is asked first.
  const again =
    ledger?.state === 'not_found' && ledger.answer !== 'success'
      ? catalogue?.find((r) => r.id === ledger.rewardId)
      : undefined;
  const redeemAgain = again && redeemBlock(again, balance) === null ? () => flow.open(again) : undefined;
  const ledgerReward =
    ledger && (catalogue?.find((r) => r.id === ledger.rewardId) ?? goalRows?.find((r) => r.id === ledger.rewardId));
  return (
    <GoalContext.Provider value={goal?.account === account ? goal.rewardId : null}>
      <PageLayout
        inert={flow.confirming !== null}
        busy={state?.loading === true}
        header={
          <Header
            now={now}
            live
            balance={rewards?.data.balance ?? (lastSeen && { points: lastSeen.points, source: 'rewards' })}
            lastKnown={lastSeen !== undefined}
            rewards={full ? full.data.rewards : part ? (part.next ? [part.next] : []) : undefined}
            fetchedAt={rewards?.fetchedAt}
            // With data on screen a failed refresh is one line in the header, not a card over what still holds.
            error={rewards ? error : null}
            loading={state?.loading}
            onRefresh={() => refresh(true)}
            questions={view?.profile}
            // The goal is the next step while there is one: the header and the goal say the same.
            goal={goalView({ goal: goal ?? null, account, rewards: goalRows, points: balance })}
          />
        }
      >
        {rewards && (
          // Never a trend without the balance it is about.
          <LazyGoal
            goal={goal ?? null}
            account={account}
            // The whole catalogue, or the goal's reward as the view has it: never the view's first rows
            // alone, where a goal further down would read as "no longer offered".
            rewards={goalRows}
            points={balance}
            samples={samples ?? []}
            // Refunds are not earned: the view's, or the history's before there is a view.
            returns={view ? view.returns : returnsOf(history?.data)}
            blocked={pending ? t('waitForRedemption') : goal && held.includes(goal.rewardId) ? t('heldBack') : null}
            onRedeem={flow.open}
          />
        )}
        <SyncNotice error={rewards ? null : error} loading={state?.loading === true} onRetry={() => refresh(true)} />
        {ledger && (
          <LazyOutcome
            entry={ledger}
            balance={balance}
            now={now}
            reward={ledgerReward ?? undefined}
            onDismiss={dismiss}
            onRedeemAgain={redeemAgain}
          />
        )}
        {listed.current && <StillChecking entries={elsewhere} now={now} />}
        {rewards ? (
          <RewardList
            rewards={rewards.data.rewards}
            total={full ? undefined : part?.total}
            brands={full ? undefined : part?.brands}
            kinds={full ? undefined : part?.kinds}
            balance={balance}
            blocked={pending}
            held={held}
            onRedeem={flow.open}
            onWantAll={full ? undefined : () => setWantAll(true)}
          />
        ) : (
          !error && <Skeleton />
        )}
        {/* History usually arrives after the rewards: below them it pushes nothing out of place. */}
        {!ledger && latest && <LatestRedemption redemption={latest} />}
      </PageLayout>
      {flow.confirming && (
        <LazyConfirm
          reward={flow.confirming.reward}
          unsettled={flow.confirming.unsettled}
          balance={balance}
          busy={pending || flow.inFlight}
          error={flow.error}
          onConfirm={flow.confirm}
          onCancel={flow.cancel}
        />
      )}
    </GoalContext.Provider>
  );
}
