import { useEffect, useRef, useState } from 'preact/hooks';
import { appError, type AppError } from '../../utils/errors';
import { t } from '../../utils/i18n';
import { sendMessage } from '../../utils/messages';
import { latestRedemption } from '../../utils/reward-view';
import { accountOf, balanceHistoryItem, goalItem, historyItem, ledgerItem, rewardsItem, sessionItem, syncItem } from '../../utils/storage-items';
import { ConfirmDialog } from './ConfirmDialog';
import { ConnectPrompt } from './ConnectPrompt';
import { GoalContext } from './GoalButton';
import { Header } from './Header';
import { LazyGoal } from './LazyGoal';
import { LatestRedemption } from './LatestRedemption';
import { RedeemOutcome } from './RedeemOutcome';
import { RewardList } from './RewardList';
import { Skeleton } from './Skeleton';
import { SYNC_ERROR_ID, SyncNotice } from './SyncNotice';
import { useItem } from './use-item';
import { useRedeemFlow } from './use-redeem-flow';

/** Renders straight from storage; messages only ask the background to refresh or redeem. */
export function App() {
  const session = useItem(sessionItem);
  const rewards = useItem(rewardsItem);
  const history = useItem(historyItem);
  const sync = useItem(syncItem);
  const ledger = useItem(ledgerItem);
  const goal = useItem(goalItem);
  const samples = useItem(balanceHistoryItem);
  const flow = useRedeemFlow(ledger);
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
    if (live) refresh(false);
  }, [live]);
  useEffect(() => {
    if (asked.current === undefined || state?.loading) return;
    if (noAnswer || (state?.attemptedAt ?? 0) !== asked.current) {
      asked.current = undefined;
      if (error) document.getElementById(SYNC_ERROR_ID)?.focus();
    }
  }, [state?.attemptedAt, state?.loading, noAnswer]);

  if (!session) return <Header />;
  if (!live) {
    return (
      <>
        <Header />
        <main>
          <ConnectPrompt rejected={session.rejected} />
        </main>
      </>
    );
  }

  const balance = rewards?.data.balance.points ?? null;
  const pending = ledger?.state === 'pending';
  const latest = latestRedemption(history?.data);
  const account = accountOf(session);
  const blocked = pending ? t('waitForRedemption') : null;
  return (
    <GoalContext.Provider value={goal?.account === account ? goal.rewardId : null}>
      <div class="page" inert={flow.confirming !== null}>
        <Header
          balance={rewards?.data.balance}
          fetchedAt={rewards?.fetchedAt}
          stale={error !== null}
          loading={state?.loading}
          onRefresh={() => refresh(true)}
        />
        <main aria-busy={state?.loading === true}>
          <LazyGoal
            goal={goal ?? null}
            account={account}
            rewards={rewards?.data.rewards ?? null}
            points={balance}
            samples={samples ?? []}
            blocked={blocked}
            onRedeem={flow.open}
          />
          <SyncNotice error={error} loading={state?.loading === true} hasData={!!rewards} onRetry={() => refresh(true)} />
          {ledger ? (
            <RedeemOutcome entry={ledger} balance={balance} onDismiss={() => sendMessage('dismissRedemption').catch(() => {})} />
          ) : (
            latest && <LatestRedemption redemption={latest} />
          )}
          {rewards ? (
            <RewardList
              rewards={rewards.data.rewards}
              balance={balance}
              blocked={blocked}
              onRedeem={flow.open}
            />
          ) : (
            !error && <Skeleton />
          )}
        </main>
      </div>
      {flow.confirming && (
        <ConfirmDialog
          reward={flow.confirming}
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
