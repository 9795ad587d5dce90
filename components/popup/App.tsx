import type { ComponentProps } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appError, type AppError } from '../../utils/errors';
import { t, tp } from '../../utils/i18n';
import { asSentence, sentences } from '../../utils/sentences';
import { send as sendMessage } from './send';
import { returnsOf } from '../../utils/balance-trend';
import { latestRedemption, redeemBlock } from '../../utils/reward-view';
import {
  DISCONNECTED,
  balanceHistoryItem,
  goalItem,
  historyItem,
  ledgerItem,
  popupViewItem,
  rewardsItem,
  sessionItem,
  settledItem,
  syncItem,
  unsettledItem,
  type LedgerEntry,
  type SyncState,
} from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { GoalContext } from './goal-context';
import { Header } from './Header';
import { PageLayout, PromptLayout } from './PopupLayout';
import { GoalPanel } from './GoalPanel';
import { useRemoveGoal } from './set-goal';
import { LazyConfirm, preloadConfirm } from './redeem/LazyConfirm';
import { lazyView } from './lazy/lazy-view';
import { LazyOutcome, preloadOutcome } from './redeem/LazyOutcome';
import { popupState, type PopupState } from './model/popup-state';
import { RewardList } from './RewardList';
import { Skeleton } from './Skeleton';
import { SYNC_ERROR_ID, SyncNotice } from './SyncNotice';
import { useFreshOutcome } from './redeem/seen-outcome';
import { isSettled } from './redeem/outcome-seen-item';
import { markSeen, toldFrom, TOLD_ITEMS } from './redeem/settled-seen-item';
import { storage } from '../../utils/storage-item';
import { useItem } from './use-item';
import { useNow } from './use-now';
import { useRedeemFlow, type RedeemFlow } from './redeem/use-redeem-flow';

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
const { Lazy: LatestRedemption } = lazyView<
  ComponentProps<typeof import('./redeem/LatestRedemption').LatestRedemption>
>(
  () => import('./redeem/LatestRedemption').then((m) => m.LatestRedemption),
  () => null,
);
/**
 * Redemptions still being checked that the outcome card no longer shows: rare, so outside the first
 * chunk; main.tsx loads it before the first render when there are some, so it is in that render.
 */
const { Lazy: StillChecking, preload: preloadStillChecking } = lazyView<
  ComponentProps<typeof import('./redeem/StillChecking').StillChecking>
>(
  () => import('./redeem/StillChecking').then((m) => m.StillChecking),
  () => null,
);

export { preloadStillChecking };

/** Asks the background to refresh; a failure the panelist asked about takes focus once it is known. */
function useRefresh(live: boolean, sync: SyncState | undefined) {
  // Only for a background that does not answer at all; its own failures arrive through syncItem.
  const [noAnswer, setNoAnswer] = useState<AppError | null>(null);
  // When the panelist asked for a refresh: the sync attempt it started from. Its failure takes focus;
  // its success is counted, for App to say.
  const askedAt = useRef<number | undefined>(undefined);
  const [updated, setUpdated] = useState(0);
  const refresh = (force: boolean) => {
    if (force) askedAt.current = sync?.attemptedAt ?? 0;
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
    if (askedAt.current === undefined || sync?.loading) return;
    if (noAnswer || (sync?.attemptedAt ?? 0) !== askedAt.current) {
      askedAt.current = undefined;
      if (sync?.error ?? noAnswer) document.getElementById(SYNC_ERROR_ID)?.focus();
      else setUpdated((n) => n + 1);
    }
  }, [sync?.attemptedAt, sync?.loading, noAnswer]);
  return { noAnswer, refresh, updated };
}

/**
 * What the page's polite status (SyncNotice's, outside the header) says besides "Updating…": what the
 * app last did that took a control away ("Goal removed"), or that a refresh the panelist asked for
 * (`updated` counts them) ended well, with the balance: the header's Refresh and "Updated just now"
 * say nothing a screen reader hears when it ends. Cleared when a refresh starts.
 */
function useSaid(loading: boolean, updated: number, balance: number | null) {
  const [said, say] = useState('');
  useEffect(() => {
    if (loading) say('');
  }, [loading]);
  useEffect(() => {
    if (updated === 0) return;
    say(sentences(asSentence(t('updatedAt', t('justNow'))), balance === null ? '' : tp('balanceNow', balance)));
  }, [updated]);
  return [said, say] as const;
}

/**
 * What "Still being checked" lists this opening. Once listed, an entry stays: one settling there
 * says what it became (StillChecking), and one that says to contact the panel first holds its reward
 * as the card would. With them, those that settled unseen since the last opening; and the record
 * of what this opening showed settled.
 */
function useListed(live: boolean, outcome: LedgerEntry | null) {
  const listed = useRef(new Set<string>()).current;
  // One that settles is in it in the same turn as it leaves the open ones.
  const settled = useItem(settledItem);
  // Those that settled unseen, as long as the background keeps them (another account's are gone).
  const told = useTold()?.filter((entry) => settled?.some((kept) => kept.requestId === entry.requestId));
  for (const entry of told ?? []) listed.add(entry.requestId);
  const settledListed = settled?.filter((entry) => listed.has(entry.requestId));
  useSeenSettled(live, told, outcome, settled, settledListed);
  return { listed, told: told ?? [], settledListed };
}

/**
 * The redemptions that settled while no popup showed them, as this opening found them: read once,
 * so this opening's own record of what it showed does not take them off the screen it shows them on.
 */
function useTold(): readonly LedgerEntry[] | undefined {
  const [told, setTold] = useState(() => toldFrom((item) => item.peek()));
  useEffect(() => {
    if (told === undefined)
      void storage()
        .local.get(TOLD_ITEMS.map((item) => item.key))
        .then((stored: Record<string, unknown>) => setTold(toldFrom((item) => item.fromStored(stored[item.key]))));
  }, []);
  return told;
}

/**
 * Records every redemption this opening shows settled, on the card or in the list, so the next one
 * does not tell it again. Only while the page shows them (`live`): behind the prompt to reconnect
 * nothing is shown, so nothing is told.
 */
function useSeenSettled(
  live: boolean,
  told: readonly LedgerEntry[] | undefined,
  outcome: LedgerEntry | null,
  settled: readonly LedgerEntry[] | undefined,
  settledListed: readonly LedgerEntry[] | undefined,
): void {
  const shown = [
    ...(outcome && isSettled(outcome) ? [outcome.requestId] : []),
    ...(settledListed ?? []).map((entry) => entry.requestId),
  ];
  const key = shown.join(' ');
  useEffect(() => {
    if (live && told !== undefined && settled !== undefined) void markSeen(shown, settled).catch(() => {});
  }, [live, key, told !== undefined, settled !== undefined]);
}

/**
 * Renders straight from storage; messages only ask the background to refresh or redeem. What it
 * shows is decided from the same snapshot the first frame paints (popup-state.ts).
 */
export function App() {
  const session = useItem(sessionItem);
  // The first render comes from the small view (preloaded by main.tsx), however big the catalogue. The catalogue
  // is read only when its rows are asked for (a search, the filter, "Show more", redeeming again):
  // with thousands of rewards its read alone is a long task. Without a view (before the
  // background made one) both caches are read.
  const view = useItem(popupViewItem);
  const [wantAll, setWantAll] = useState(false);
  const catalogue = useItem(rewardsItem, wantAll || (view !== undefined && !view?.rewards));
  const history = useItem(historyItem, view === null);
  const sync = useItem(syncItem)?.rewards;
  const dismiss = () => void sendMessage('dismissRedemption').catch(() => {});
  const outcome = useFreshOutcome(useItem(ledgerItem), dismiss);
  const unsettled = useItem(unsettledItem) ?? [];
  const goal = useItem(goalItem) ?? null;
  const samples = useItem(balanceHistoryItem) ?? [];
  const live = session?.connected === true && !session.rejected;
  const { noAnswer, refresh, updated } = useRefresh(live, sync);
  const still = useListed(live, outcome);
  const state = popupState(
    { session: session ?? DISCONNECTED, view: view ?? null, sync, outcome, unsettled, told: still.told, goal, samples },
    { catalogue, returns: history ? returnsOf(history.data) : undefined, noAnswer, settledListed: still.settledListed },
  );
  for (const entry of state.checking) still.listed.add(entry.requestId);
  const flow = useRedeemFlow(outcome, state.checking, session?.id);
  const now = useNow(30_000);
  const [said, say] = useSaid(state.loading, updated, state.balance);
  const goalRemover = useRemoveGoal(state.goalId, say);
  useEffect(() => {
    // Redeeming again needs the reward, which may be anywhere in the catalogue.
    if (outcome?.state === 'not_found') setWantAll(true);
  }, [outcome?.state]);

  if (!session) return <Header now={now} />;
  if (!live) {
    return (
      <PromptLayout header={<Header now={now} />}>
        <ConnectPrompt rejected={session.rejected} signedIn={session.signedIn} />
      </PromptLayout>
    );
  }
  return (
    <GoalContext.Provider value={state.goalId}>
      <PageLayout
        inert={flow.confirming !== null}
        busy={state.loading}
        header={<Header now={now} {...state.header} onRefresh={() => refresh(true)} />}
      >
        {state.goal && (
          <GoalPanel {...state.goal} onRedeem={flow.open} onRemove={goalRemover.remove} notice={goalRemover.notice} />
        )}
        {/* With data on screen a refresh is the header's busy Refresh, beside how old that data is: said once. */}
        <SyncNotice
          error={state.rewards ? null : state.error}
          loading={state.loading && !state.rewards}
          onRetry={() => refresh(true)}
          said={said}
        />
        <Outcome state={state} flow={flow} now={now} dismiss={dismiss} />
        {still.listed.size > 0 && <StillChecking entries={state.checking} told={state.told} now={now} />}
        {state.list ? (
          <RewardList {...state.list} onRedeem={flow.open} onWantAll={catalogue ? undefined : () => setWantAll(true)} />
        ) : (
          state.skeleton && <Skeleton />
        )}
        {/* Below the rows, once the skeleton has gone (popup-state.ts): the history can arrive
            before the rewards on a busy machine. */}
        {!state.skeleton && <Latest outcome={outcome} latest={view ? view.latest : latestRedemption(history?.data)} />}
      </PageLayout>
      {flow.confirming && (
        <LazyConfirm
          reward={flow.confirming.reward}
          cost={flow.confirming.cost}
          unsettled={flow.confirming.unsettled}
          balance={state.balance}
          busy={state.pending || flow.inFlight}
          error={flow.error}
          onConfirm={flow.confirm}
          onCancel={flow.cancel}
        />
      )}
    </GoalContext.Provider>
  );
}

/** The latest redemption below the rewards, while no outcome card stands in its place. */
function Latest({ outcome, latest }: { outcome: LedgerEntry | null; latest: Redemption | null | undefined }) {
  return !outcome && latest ? <LatestRedemption redemption={latest} /> : null;
}

/**
 * The latest redemption's outcome card. After "not found in your history", the next step is to
 * redeem again, if the points still allow; not when the panel had answered that it went through:
 * then the panel is asked first.
 */
function Outcome({
  state,
  flow,
  now,
  dismiss,
}: {
  state: PopupState;
  flow: RedeemFlow;
  now: number;
  dismiss: () => void;
}) {
  const entry = state.outcome;
  if (!entry) return null;
  const catalogue = state.rewards?.data.rewards;
  const retry = entry.state === 'not_found' ? catalogue?.find((r) => r.id === entry.rewardId) : undefined;
  // The one rule for "redeemable now": never offered here while its row holds it back, nor when the
  // panel said yes or the balance showed the points gone (then the panel is asked first: state.contact).
  const { held, contact, pending } = state;
  const redeemable = retry && redeemBlock(retry, state.balance, { held, contact, pending }) === null;
  const redeemAgain = redeemable ? () => flow.open(retry) : undefined;
  const reward =
    catalogue?.find((r) => r.id === entry.rewardId) ?? state.goalRows?.find((r) => r.id === entry.rewardId);
  return (
    <LazyOutcome
      entry={entry}
      balance={state.balance}
      now={now}
      reward={reward ?? undefined}
      onDismiss={dismiss}
      onRedeemAgain={redeemAgain}
    />
  );
}
