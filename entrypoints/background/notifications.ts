import { browser } from 'wxt/browser';
import { goalView } from '../../utils/goal-view';
import { t } from '../../utils/i18n';
import { notifies } from '../../utils/preference-choices';
import { answerHash } from '../../utils/profile-link';
import { questionText } from '../../utils/question-text';
import { describeState } from '../../utils/redemption-state';
import {
  accountOf,
  goalItem,
  notifyStateItem,
  preferencesItem,
  rewardsItem,
  sessionItem,
  type LedgerEntry,
  type NotifyState,
  type RewardsData,
  type SessionInfo,
} from '../../utils/storage-items';
import type { Redemption } from '../../utils/types';
import { isCurrent } from './generation';
import { goalReached, ledgerSettled, newlySettled, redemptionChanges, type NotifyEvent } from './notify-events';
import { onStored } from './sync';

/** Told events kept, so an event seen again after a restart is recognised. */
const TOLD_KEPT = 500;
export const NOTIFICATION_PERMISSION = { permissions: ['notifications' as const] };

let queue: Promise<unknown> = Promise.resolve();

/** State reads and writes one at a time: two history reads landing together must not both tell a change. */
function serial(work: () => Promise<void>): Promise<void> {
  const run = queue.then(work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Records the events as told, then shows those the panelist asked for. Recorded first and whatever
 * the preferences: a change seen while notifications were off is not told later, and one told
 * before the worker stopped is not told again.
 */
async function tell(state: NotifyState, events: NotifyEvent[], gen: number | null): Promise<void> {
  const fresh = events.filter((e) => !state.told.includes(e.id));
  if (gen !== null && !isCurrent(gen)) return;
  await notifyStateItem.setValue({ ...state, told: [...state.told, ...fresh.map((e) => e.id)].slice(-TOLD_KEPT) });
  const prefs = await preferencesItem.getValue();
  for (const event of fresh) if (notifies(prefs, event.kind)) await show(event);
}

async function show(event: NotifyEvent): Promise<void> {
  const api = browser.notifications;
  if (!api || !(await browser.permissions.contains(NOTIFICATION_PERMISSION))) return;
  const { title, message } = words(event);
  await api.create(event.id, { type: 'basic', iconUrl: browser.runtime.getURL('/icon/128.png'), title, message });
}

/** Titles and texts in the browser's language. */
export function words(event: NotifyEvent): { title: string; message: string } {
  switch (event.kind) {
    case 'redemption':
      return { title: t('notifyRedemptionTitle'), message: t('notifyRedemptionText', event.rewardName, describeState(event.state)) };
    case 'outcome':
      return event.found
        ? { title: t('notifyFoundTitle'), message: t('notifyFoundText', event.rewardName) }
        : { title: t('notifyNotFoundTitle'), message: t('notifyNotFoundText', event.rewardName) };
    case 'goal':
      return { title: t('notifyGoalTitle'), message: t('notifyGoalText', event.rewardName) };
    case 'rejected':
      return { title: t('notifyRejectedTitle'), message: t('notifyRejectedText') };
    case 'question':
      return { title: t('notifyQuestionTitle'), message: t('notifyQuestionText', questionText(event)) };
  }
}

const connected = (session: SessionInfo) => session.connected && !session.rejected;

/** Work on what session `gen` has told, in turn with the rest; skipped once that session has ended. */
function forSession(gen: number, work: (state: NotifyState) => Promise<void>): Promise<void> {
  return serial(async () => {
    const [state, session] = await Promise.all([notifyStateItem.getValue(), sessionItem.getValue()]);
    if (!isCurrent(gen) || !session.connected) return;
    await work(state);
  });
}

/** A history read of session `gen`: the first of a session only records the states. */
export function onHistory(gen: number, history: readonly Redemption[]): Promise<void> {
  return forSession(gen, (state) => {
    const { states, events } = redemptionChanges(state.states, history);
    return tell({ ...state, states }, events, gen);
  });
}

/** A rewards read of session `gen`: whether the goal became affordable. */
export function onRewards(gen: number, rewards: RewardsData): Promise<void> {
  return goalCheck(gen, rewards, true);
}

/**
 * A goal just set: whether the cached balance already covers it is where it starts from, so the
 * next read that reaches it is told (and one that already could is not).
 */
export async function onGoalSet(gen: number): Promise<void> {
  const cached = await rewardsItem.getValue();
  if (cached) await goalCheck(gen, cached.data, false);
}

function goalCheck(gen: number, rewards: RewardsData, announce: boolean): Promise<void> {
  return serial(async () => {
    const [state, session, goal] = await Promise.all([notifyStateItem.getValue(), sessionItem.getValue(), goalItem.getValue()]);
    if (!isCurrent(gen) || !session.connected) return;
    const view = goalView({ goal, account: accountOf(session), rewards: rewards.rewards, points: rewards.balance.points });
    const now =
      goal && (view.kind === 'saving' || view.kind === 'affordable')
        ? { key: `${goal.rewardId}@${goal.setAt}`, affordable: view.kind === 'affordable', rewardName: view.reward.name }
        : null;
    const events = announce ? goalReached(state.goal, now) : [];
    await tell({ ...state, goal: now && { key: now.key, affordable: now.affordable } }, events, gen);
  });
}

/**
 * Events another module found in a read of session `gen` (new profile questions): told once, like
 * the others, and not at all once that session has ended.
 */
export function tellEvents(gen: number, events: NotifyEvent[]): Promise<void> {
  return forSession(gen, (state) => tell(state, events, gen));
}

/** Outcomes and the session, as the background writes them (old and new value side by side). */
function onStorageChanged(changes: Record<string, { oldValue?: unknown; newValue?: unknown }>, area: string): void {
  if (area !== 'local') return;
  const events: NotifyEvent[] = [];
  const ledger = changes.ledger;
  if (ledger) events.push(...ledgerSettled(ledger.oldValue as LedgerEntry | null, ledger.newValue as LedgerEntry | null));
  const settled = changes['ledger:settled'];
  if (settled) events.push(...newlySettled(settled.oldValue as LedgerEntry[] | undefined, settled.newValue as LedgerEntry[] | undefined));
  const session = changes.session;
  const before = session?.oldValue as SessionInfo | undefined;
  const after = session?.newValue as SessionInfo | undefined;
  if (before && after && connected(before) && after.connected && after.rejected && accountOf(before) === accountOf(after)) {
    events.push({ id: `rejected:${accountOf(after)}`, kind: 'rejected' });
  }
  if (events.length === 0) return;
  void serial(async () => {
    const [state, current] = await Promise.all([notifyStateItem.getValue(), sessionItem.getValue()]);
    // An outcome settling is the session's own; after a disconnect there is no one to tell.
    if (!current.connected) return;
    await tell(state, events, null);
  }).catch(() => undefined);
}

/** Resolves once every change seen so far has been handled (tests wait on it rather than on time). */
export function notificationsIdle(): Promise<void> {
  return queue.then(() => undefined);
}

/** Where a notification's click leads: the connection to renew, the new question to answer, or the history. */
export function clickTarget(id: string): string {
  if (id.startsWith('rejected:')) return '#connection';
  if (id.startsWith('question:')) return answerHash(id.slice('question:'.length));
  return '#history';
}

/** Clicking a notification opens where the panelist acts on it. */
function onClicked(id: string): void {
  const target = clickTarget(id);
  void browser.tabs.create({ url: browser.runtime.getURL(`/options.html${target}`) }).catch(() => undefined);
  void browser.notifications?.clear(id).catch(() => undefined);
}

function listenForClicks(): void {
  const api = browser.notifications;
  if (api && !api.onClicked.hasListener(onClicked)) api.onClicked.addListener(onClicked);
}

/** Registered synchronously at worker start; the click listener also once the permission is granted. */
export function watchNotifications(): () => void {
  const stopStored = onStored((area, data, gen) => {
    if (area === 'history') void onHistory(gen, data as Redemption[]).catch(() => undefined);
    if (area === 'rewards') void onRewards(gen, data as RewardsData).catch(() => undefined);
  });
  browser.storage.onChanged.addListener(onStorageChanged);
  listenForClicks();
  browser.permissions.onAdded.addListener(listenForClicks);
  return () => {
    stopStored();
    browser.storage.onChanged.removeListener(onStorageChanged);
    browser.permissions.onAdded.removeListener(listenForClicks);
  };
}
