/**
 * What must hold after every step and at the end, checked against the sandboxes' own records and
 * the extension's storage, never against the model's guess of what happened.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { LedgerEntry } from '../../../utils/storage-items';
import type { VariableValue } from '../../../utils/types';
import { isAccountB, isAccountBRedemption, SEED_A, SEED_B } from '../accounts';
import { sleep, type Account, type Confirmation, type World } from './world';

const REDEEM = '/v1/panel/redemption';

export interface Model {
  /** The account of the session in storage (read after each step). */
  account: Account | null;
  /** A refusal was arranged for this account's current session, so it may be marked rejected. */
  rejectable: Record<Account, boolean>;
  /** FIRST_NAME as last saved (null: removed) in the current session; undefined: not known. */
  saved: Record<Account, VariableValue | null | undefined>;
}

export const initialModel = (): Model => ({
  account: 'A',
  rejectable: { A: false, B: false },
  saved: { A: undefined, B: undefined },
});

class Violation extends Error {
  override name = 'InvariantViolation';
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Violation(what);
}

const SEED_NAME: Record<Account, unknown> = { A: SEED_A.values.FIRST_NAME, B: SEED_B.values.FIRST_NAME };
const accountOf = (rewardId: number | string): Account => (isAccountB(rewardId) ? 'B' : 'A');
const open = (entry: LedgerEntry | null) => entry?.state === 'pending' || entry?.state === 'unknown';

export async function checkInvariants(m: Model, w: World): Promise<void> {
  w.checks += 1;
  // No request left with a token of a session that had ended (checked as each request left).
  expect(w.violations.length === 0, w.violations[0] ?? '');
  await onlyTheSessionsData(m, w);
  const { ledgerItem, unsettledItem, sessionItem } = w.items;
  const session = await sessionItem.getValue();
  if (m.account)
    expect(
      !session.rejected || m.rejectable[m.account] || w.panelRefused(m.account),
      'the session was marked rejected by a refusal it never got',
    );

  // Every pending or unknown outcome has its check scheduled, whatever stopped when. The ledger and
  // the alarm are read at one instant: a check still settling an outcome clears the alarm once its
  // write has taken effect, which a ledger read made before that write and an alarm read made after
  // it would take for an open outcome without a check.
  const { stored, alongside: alarm } = await w.storage.instant([ledgerItem.key, unsettledItem.key], () =>
    fakeBrowser.alarms.get(w.worker.mods.checks.CHECK_ALARM),
  );
  if (
    open(ledgerItem.fromStored(stored[ledgerItem.key])) ||
    unsettledItem.fromStored(stored[unsettledItem.key]).length > 0
  ) {
    expect(alarm !== undefined, 'an unsettled redemption has no history check scheduled');
  }

  await noBalanceTakenForNone(w);

  for (const c of w.confirmations.values()) {
    expect(!c.resurrected, `a redemption of a session that ended came back into storage (${c.requestId})`);
    expect(!c.reopened, `a settled redemption went back to pending or unknown (${c.requestId})`);
    // "Nothing was charged" only on the panel's own refusal, and only once the history backed it.
    if (c.nothingCharged) {
      expect(
        c.state === 'failed' &&
          c.errorStatus !== undefined &&
          c.errorStatus >= 400 &&
          c.errorStatus < 500 &&
          ![408, 409, 423, 425, 429].includes(c.errorStatus),
        `"nothing charged" said on ${c.state} (HTTP ${c.errorStatus})`,
      );
    }
    // Repeats are named by the read that first shows the Confirm's own, never later, and never a
    // redemption made after that read (another client's, which a later read would show).
    expect(!c.renamed, `the repeats of ${c.requestId} changed after it was named`);
    // Looked up whole (id, reward, instant), deleted ones included: a panel numbering max + 1 gives a
    // reversed copy's id, reward and second to a later redemption, and the copy named was the first.
    for (const key of c.named?.duplicates ?? []) {
      const made = w.madeEver(c.account).filter((r) => w.keyOf(r) === key);
      expect(
        made.length === 0 || made.some((r) => r.at <= c.named!.at),
        `redemption ${key}, made after ${c.requestId} was named, was told as its repeat`,
      );
    }
  }
  // A redemption a Confirm took as its own is no other Confirm's copy: the history never marks it so.
  const owners = new Map(
    [...w.confirmations.values()].flatMap((c) => (c.claimed && !c.abandoned ? [[c.claimed, c.requestId]] : [])),
  );
  for (const record of await w.items.duplicatesItem.getValue())
    for (const key of record.redemptions ?? []) {
      const owner = owners.get(key) ?? record.requestId;
      expect(owner === record.requestId, `redemption ${key}, ${owner}'s own, is marked as ${record.requestId}'s copy`);
    }
  // A Confirm is sent once: the browser may re-send it, the extension never does.
  for (const account of ['A', 'B'] as const) {
    const keys = w
      .sandbox(account)
      .requests.flatMap((r) =>
        r.path === REDEEM && !r.repeated && r.headers['idempotency-key'] ? [r.headers['idempotency-key']] : [],
      );
    expect(
      new Set(keys).size === keys.length,
      `a Confirm's redeem was sent more than once by the extension (${account})`,
    );
  }
  // Each outcome and each repeat is told at most once: a session records an event as told once, and
  // nothing is shown more often than sessions recorded it. The same id may come again only from a
  // new session (reconnecting an account the panel refused, whose new token is refused too).
  for (const [id, sessions] of w.recorded)
    expect(new Set(sessions).size === sessions.length, `notification ${id} was recorded as told twice in one session`);
  for (const [id, times] of w.notified()) {
    const sessions = w.recorded.get(id)?.length ?? 0;
    expect(
      times <= sessions,
      `notification ${id} was shown ${times} times, recorded as told by ${sessions} session(s)`,
    );
  }
  // A redemption made elsewhere before a Confirm was pressed is in its baseline: never taken for it,
  // even when a history read was already out at the press (the baseline is a read that left after it).
  // One made within the history's lag before the press is not in any read yet: no one can tell it apart.
  for (const c of w.confirmations.values()) {
    if (c.state !== 'done' || c.claimed === undefined || c.abandoned) continue;
    // Whole redemptions (id, reward, instant): a panel numbering max + 1 gives a deleted one's id again.
    const records = w.made(c.account).filter((r) => w.keyOf(r) === c.claimed);
    const earlier = records.filter((r) => r.key === null && r.at < c.startedAt - w.settings.historyLagMs);
    expect(
      records.length === 0 || earlier.length < records.length,
      `${c.requestId} was told done with redemption ${c.claimed}, made elsewhere before it was pressed`,
    );
  }
  for (const [account, rewardId, group] of groups(w)) {
    const commits = w.commits(account, rewardId);
    const done = group.filter((c) => c.state === 'done' && !c.abandoned).reduce((n, c) => n + 1 + c.duplicates, 0);
    const ruledOut = group.filter((c) => (c.state === 'failed' || c.state === 'not_found') && !c.abandoned);
    expect(done <= commits, `${done} redemptions of ${rewardId} reported done, the panel made ${commits}`);
    // Never "nothing charged" or "not redeemed" for a Confirm whose own copies made one. The
    // extension tells its redemptions apart from the history's ids alone, so two Confirms of one
    // reward may swap theirs: counted per reward, the Confirms that made something and those told
    // nothing was made never outnumber the Confirms.
    const made = madeBy(w, account, group);
    expect(
      made.size + ruledOut.length <= group.length,
      `${ruledOut.length} of ${group.length} Confirms of ${rewardId} told nothing was made, but ${made.size} made one`,
    );
    if (group.length === 1) {
      for (const c of ruledOut)
        expect(
          !made.has(c.key),
          `${c.requestId} was told ${c.state === 'failed' ? 'nothing was charged' : 'not found'}, but its request made a redemption`,
        );
    }
  }
}

/**
 * The keys of the group's Confirms whose copies made a redemption at the panel. One made the same
 * (id, reward, instant) as a redemption the panel deleted is left out: a max + 1 panel giving a
 * deleted one's id to the next within the same second makes two redemptions no history can tell
 * apart (the documented limit, utils/instants.ts); deleted ones are matched whole too.
 */
function madeBy(w: World, account: Account, group: readonly Confirmation[]): Set<string | undefined> {
  const keys = new Set(group.map((c) => c.key));
  return new Set(
    w
      .made(account)
      .filter((r) => r.key !== null && keys.has(r.key) && !w.deletedKeys.has(w.keyOf(r)))
      .map((r) => r.key ?? undefined),
  );
}

/** Storage holds only the current session's data: every id in every session-scoped item is its account's. */
async function onlyTheSessionsData(m: Model, w: World): Promise<void> {
  const items = w.items;
  const [
    rewards,
    history,
    profile,
    ledger,
    unsettled,
    settled,
    duplicates,
    goal,
    notify,
    view,
    questions,
    draft,
    stored,
  ] = await Promise.all([
    items.rewardsItem.getValue(),
    items.historyItem.getValue(),
    items.profileItem.getValue(),
    items.ledgerItem.getValue(),
    items.unsettledItem.getValue(),
    items.settledItem.getValue(),
    items.duplicatesItem.getValue(),
    items.goalItem.getValue(),
    items.notifyStateItem.getValue(),
    items.popupViewItem.getValue(),
    items.questionsItem.getValue(),
    items.profileDraftItem.getValue(),
    fakeBrowser.storage.local.get(null),
  ]);
  // The history's pages live under keys of their own, beside its head.
  const pages = Object.keys(stored).filter((key) => key.startsWith(`${items.historyItem.key}:`) && stored[key]);
  const credentials = stored.credentials as { baseUrl: string } | null | undefined;
  const entries = [ledger, ...unsettled, ...settled].filter((e): e is LedgerEntry => e !== null);
  if (m.account === null) {
    const left = {
      rewards,
      history,
      profile,
      ledger,
      credentials,
      goal,
      view,
      questions,
      notify: notify.states,
      unsettled: unsettled.length,
      settled: settled.length,
      duplicates: duplicates.length,
      pages: pages.length,
      draft: Object.keys(draft).length,
    };
    expect(
      Object.values(left).every((v) => !v),
      `disconnected, but session data is still stored: ${JSON.stringify(Object.keys(left).filter((k) => left[k as keyof typeof left]))}`,
    );
    return;
  }
  const url = w.sandbox(m.account).url;
  const rewardIds = [
    ...(rewards?.data.rewards ?? []).map((r) => r.id),
    ...(history?.data ?? []).map((r) => r.reward.id),
    ...entries.map((e) => e.rewardId),
    ...(view?.rewards?.first ?? []).map((r) => r.id),
    ...(view?.rewards?.next ? [view.rewards.next.id] : []),
    ...(view?.latest ? [view.latest.reward.id] : []),
  ];
  const redemptionIds = [
    ...(history?.data ?? []).map((r) => r.id),
    // Whole redemptions (`id reward instant`, as notify states and duplicates keep them): the id is their first part.
    ...Object.keys(notify.states ?? {}).map((key) => key.split(' ')[0]!),
    ...duplicates.flatMap((d): string[] => d.redemptions ?? d.redemptionIds ?? []).map((key) => key.split(' ')[0]!),
    ...entries.flatMap((e) => [
      ...(e.redemption ? [e.redemption.id] : []),
      ...(e.duplicates ?? []).map((key) => key.split(' ')[0]!),
    ]),
  ];
  // Under per-panelist numbering a redemption id alone says nothing of whose it is: the rewards do.
  const mine =
    rewardIds.every((id) => accountOf(w.localId(id)) === m.account) &&
    (w.settings.sharedNumbering ||
      redemptionIds.every((id) => isAccountBRedemption(w.localId(id)) === (m.account === 'B')));
  expect(mine, `account ${m.account} is connected, but storage holds another account's rewards, history or outcomes`);
  expect(!credentials || credentials.baseUrl === url, 'the credentials name another panel than the session');
  expect(!goal || goal.account.startsWith(`${url}|`), 'the goal is another account’s');
  expect(!questions || questions.account.startsWith(`${url}|`), 'the new-question record is another account’s');
  // An unsaved edit typed for one account is never in another's draft (a Save would send it).
  const foreign = Object.entries(draft).find(([, value]) => !String(value).startsWith(`${m.account}-`));
  expect(
    !foreign,
    `account ${m.account}'s draft holds ${foreign?.[0]} = ${String(foreign?.[1])}, typed for another account`,
  );
  const name = profile?.data.values.FIRST_NAME;
  expect(
    name === undefined || name === SEED_NAME[m.account] || String(name).startsWith(`${m.account}-`),
    `account ${m.account} shows another account's profile value ${String(name)}`,
  );
  // A saved value is never shown reverted.
  const saved = m.saved[m.account];
  if (saved !== undefined && profile) {
    expect((name ?? null) === saved, `FIRST_NAME was saved as ${String(saved)} but shows ${String(name)}`);
  }
}

/** At the end: everything out has landed, every scheduled check has run; then outcomes are exact. */
export async function checkFinal(m: Model, w: World): Promise<void> {
  // A redeem left running has answered (or its worker stopped) before the last checks run.
  await Promise.all(w.outstanding);
  await w.wakeIfStopped();
  // The panel is healthy again, there is room in storage, the browser leaves the worker running,
  // and time passes: every scheduled check runs.
  w.worker.stopAfter = null;
  w.storage.quota = null;
  await w.settled();
  await w.clearFaults();
  await runEveryCheck(w);
  // A renewal the token endpoint asked to wait for (Retry-After: 1) is tried again once the wait is over.
  if (w.rateLimited && (await stillOpen(w))) {
    await sleep(1100);
    await runEveryCheck(w);
  }
  // Refreshes still out when the run ended finish (on a busy machine within a second or so); then no flag is on.
  await w.quiet();
  await checkInvariants(m, w);
  const loading = async () => {
    const sync = await w.items.syncItem.getValue();
    return sync.rewards.loading || sync.history.loading || sync.profile.loading;
  };
  for (let waited = 0; (await loading()) && waited < 40; waited++) await sleep(25);
  const sync = await w.items.syncItem.getValue();
  expect(
    !sync.rewards.loading && !sync.history.loading && !sync.profile.loading,
    `a loading flag was left on: ${JSON.stringify(sync)} (${w.describeActivity()})`,
  );
  // A sign-in the panel no longer renews (revoked, or its refresh token spent by a renewal a stopped
  // worker never stored) cannot read the history: its outcomes wait for the panelist to sign in again.
  const session = await w.items.sessionItem.getValue();
  const unreadable = session.rejected && m.account !== null && !(await w.tokenWorks(m.account));
  for (const [account, rewardId, group] of groups(w)) {
    const stillOpen = group.filter((c) => (c.state === 'pending' || c.state === 'unknown') && !c.abandoned);
    expect(
      unreadable || stillOpen.length === 0,
      `${stillOpen.length} redemptions of ${rewardId} still unsettled after every check: ${await describeOpen(w, stillOpen)}`,
    );
    // Every redemption a Confirm's copies made by the time the panel answered it is told, as done
    // or as a repeat (one committed after that answer may come after the read that names the
    // Confirm: then it is one more in the history), but for one no history can tell apart from a
    // redemption the panel deleted (the same id, reward and second). A lagging history shows each
    // copy the lag after it was made: the read that first shows the Confirm's own may show one copy
    // and not yet one the panel made a moment later (the browser's re-send; on a busy machine even
    // the sandbox's two copies of one request, made in one step a millisecond apart), which a later
    // read shows as one more in the history (design §5).
    const told = group.filter((c) => c.state === 'done' && !c.abandoned).reduce((n, c) => n + 1 + c.duplicates, 0);
    const made = group
      .filter((c) => !c.abandoned && !(unreadable && stillOpen.includes(c)))
      .reduce((n, c) => {
        const answered = w.answeredAt(account, c.key);
        const firstAt = Math.min(
          ...w.madeEver(account).flatMap((r) => (r.key !== null && r.key === c.key ? [r.at] : [])),
        );
        // Told done with a redemption not one of its copies: one made elsewhere within the lag before
        // the press (the claim invariant above allows it; the soak's case), or another Confirm's of
        // the same reward, which no answer names either. The read that named it need not have shown
        // its copies, which then come later as more in the history: it owes the one it was told.
        const tookAnother = w.madeEver(account).some((r) => w.keyOf(r) === c.claimed && r.key !== c.key);
        const owed = w.made(account).filter(
          (r) =>
            r.key !== null &&
            r.key === c.key &&
            (answered === null || r.at <= answered) &&
            (w.settings.historyLagMs === 0 || r.at <= firstAt) &&
            // Whole-identical to a redemption the panel deleted: the one-second limit (madeBy).
            !w.deletedKeys.has(w.keyOf(r)),
        ).length;
        return n + (tookAnother ? Math.min(owed, 1) : owed);
      }, 0);
    expect(made <= told, `the Confirms of ${rewardId} made ${made} redemptions by their answers; ${told} were told`);
  }
  // Told exactly once: each outcome a check settled, and none the panel's own answer settled. A
  // worker stopped between recording and showing, or a write storage refused, may lose one; so may
  // the end of its session between the two (`endedUntold`).
  if (w.anyStop || w.storageWasFull) return;
  await goalAgreesWithBalance(w);
  if (w.notificationsWereOff) return;
  for (const c of w.confirmations.values()) {
    if (c.abandoned || c.state === 'pending' || c.state === 'unknown') continue;
    const told = w.notified().get(`outcome:${c.requestId}`) ?? 0;
    const byCheck = c.wasUnknown && (c.state === 'done' || c.state === 'not_found');
    // One settled as its session ended may not have reached the screen: never more than once.
    expect(
      c.endedUntold && byCheck ? told <= 1 : told === (byCheck ? 1 : 0),
      `the outcome of ${c.requestId} (${c.state}${c.wasUnknown ? ', settled by a check' : ''}) was told ${told} times`,
    );
  }
}

/**
 * Both panels always give a balance, so none stored is "the panel shows none": a stored one is points
 * or not read (its read failed), and no Confirm holds a null balance before sending or as it
 * settled. A read that failed taken for "none" would let two failed reads pass for a balance that
 * did not move, evidence that nothing was charged (design §5).
 */
async function noBalanceTakenForNone(w: World): Promise<void> {
  const { rewardsItem, ledgerItem, unsettledItem, settledItem } = w.items;
  const [rewards, current, awaiting, settled] = await Promise.all([
    rewardsItem.getValue(),
    ledgerItem.getValue(),
    unsettledItem.getValue(),
    settledItem.getValue(),
  ]);
  const balance = rewards?.data.balance;
  expect(balance?.source !== 'unknown', `a balance stored as none shown: ${JSON.stringify(balance)}`);
  for (const e of [current, ...awaiting, ...settled]) {
    if (!e) continue;
    expect(
      e.balanceBefore !== null && e.balanceAfter !== null,
      `${e.requestId} holds a balance of none shown (${String(e.balanceBefore)} → ${String(e.balanceAfter)})`,
    );
  }
}

/**
 * Where the goal's notification stands (affordable or not) was judged on the balance storage holds
 * now: a balance read landing during goal or notification work never leaves an older judgement.
 */
async function goalAgreesWithBalance(w: World): Promise<void> {
  await w.worker.mods.notifications.notificationsIdle();
  const [goal, notify, rewards] = await Promise.all([
    w.items.goalItem.getValue(),
    w.items.notifyStateItem.getValue(),
    w.items.rewardsItem.getValue(),
  ]);
  if (!goal || !notify.goal || notify.goal.key !== `${goal.rewardId}@${goal.setAt}` || !rewards) return;
  const reward = rewards.data.rewards.find((r) => r.id === goal.rewardId);
  const points = rewards.data.balance.points;
  if (!reward || points === null || reward.reward_point_cost === null) return;
  const affordable = points >= reward.reward_point_cost;
  expect(
    notify.goal.affordable === affordable,
    `the goal ${goal.rewardId} is noted ${notify.goal.affordable ? '' : 'not '}affordable, but the stored balance ${points} against ${reward.reward_point_cost} says otherwise`,
  );
}

/** Fires the history-check alarm at its time until none is left, as half an hour would. */
async function runEveryCheck(w: World): Promise<void> {
  const { CHECK_ALARM, CHECK_AFTER_MS } = w.worker.mods.checks;
  // The browser fires the alarm for as long as one is set. Each Confirm has its own check times, and
  // a firing counts a check only for those due within a few seconds of it, so Confirms answered
  // further apart (a slow run on a loaded machine) take a firing each: a fixed count of one
  // Confirm's checks left a second one open (the soak on be775d7, seed 859331309, run 541). A
  // bound stays, so an alarm that never ends is a failure rather than a hang.
  const most = CHECK_AFTER_MS.length * (w.confirmations.size + 1) + 2;
  for (let i = 0; i < most; i++) {
    const alarm = await fakeBrowser.alarms.get(CHECK_ALARM);
    if (!alarm) break;
    await fakeBrowser.alarms.clear(CHECK_ALARM);
    await w.worker.run(() => w.worker.mods.checks.onCheckAlarm(alarm));
  }
  await w.settled();
}

/** How the still-open Confirms stand in storage, for the failure's message. */
async function describeOpen(w: World, open: readonly Confirmation[]): Promise<string> {
  const [ledger, unsettled, session] = await Promise.all([
    w.items.ledgerItem.getValue(),
    w.items.unsettledItem.getValue(),
    w.items.sessionItem.getValue(),
  ]);
  const ids = new Set(open.map((c) => c.requestId));
  const entries = [ledger, ...unsettled].filter((e): e is LedgerEntry => !!e && ids.has(e.requestId));
  const alarm = await fakeBrowser.alarms.get(w.worker.mods.checks.CHECK_ALARM);
  return JSON.stringify({
    entries: entries.map(({ state, answer, checks, error, startedAt, answeredAt }) => ({
      state,
      answer,
      checks,
      error: error?.kind,
      startedAt,
      answeredAt,
    })),
    session: { rejected: session.rejected, signedIn: session.signedIn },
    alarm: alarm?.scheduledTime ?? null,
    now: Date.now(),
  });
}

async function stillOpen(w: World): Promise<boolean> {
  const [ledger, unsettled] = await Promise.all([w.items.ledgerItem.getValue(), w.items.unsettledItem.getValue()]);
  return open(ledger) || unsettled.length > 0;
}

function groups(w: World): Array<[Account, number, Confirmation[]]> {
  const by = new Map<string, Confirmation[]>();
  for (const c of w.confirmations.values()) {
    const k = `${c.account}:${c.rewardId}`;
    by.set(k, [...(by.get(k) ?? []), c]);
  }
  return [...by.entries()].map(([k, group]) => [k.split(':')[0] as Account, Number(k.split(':')[1]), group]);
}
