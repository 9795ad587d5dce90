/**
 * What must hold after every step, checked against the sandboxes' own records and the extension's
 * storage, never against the model's guess of what happened.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { VariableValue } from '../../../utils/types';
import { isAccountB, isAccountBRedemption, SEED_A, SEED_B } from '../accounts';
import { sleep, TIMEOUT_MS, type Account, type Confirmation, type World } from './world';

export interface Model {
  account: Account | null;
  /** A 401 was arranged for this account's current session, so it may be marked rejected. */
  rejectable: Record<Account, boolean>;
  /** FIRST_NAME as last saved (null: removed) in the current session; undefined: not known. */
  saved: Record<Account, VariableValue | null | undefined>;
}

export const initialModel = (): Model => ({ account: 'A', rejectable: { A: false, B: false }, saved: { A: undefined, B: undefined } });

class Violation extends Error {
  override name = 'InvariantViolation';
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Violation(what);
}

const SEED_NAME: Record<Account, unknown> = { A: SEED_A.values.FIRST_NAME, B: SEED_B.values.FIRST_NAME };
const accountOf = (id: number): Account => (isAccountB(id) ? 'B' : 'A');

export async function checkInvariants(m: Model, w: World): Promise<void> {
  w.checks += 1;
  const { rewardsItem, historyItem, profileItem, ledgerItem, unsettledItem, sessionItem, questionsItem } = w.items;
  const [rewards, history, profile, ledger, unsettled, session, questions] = await Promise.all([
    rewardsItem.getValue(),
    historyItem.getValue(),
    profileItem.getValue(),
    ledgerItem.getValue(),
    unsettledItem.getValue(),
    sessionItem.getValue(),
    questionsItem.getValue(),
  ]);

  // Storage holds only the current session's data.
  if (m.account === null) {
    expect(!session.connected, 'disconnected, but the session item says connected');
    expect(!rewards && !history && !profile && !ledger && unsettled.length === 0 && !questions, 'disconnected, but panelist data is still stored');
  } else {
    const mine = (id: number) => accountOf(id) === m.account;
    const rewardIds = [
      ...(rewards?.data.rewards ?? []).map((r) => r.id),
      ...(history?.data ?? []).map((r) => r.reward.id),
      ...[ledger, ...unsettled].flatMap((e) => (e ? [e.rewardId] : [])),
    ];
    const redemptionsMine = (history?.data ?? []).every((r) => isAccountBRedemption(r.id) === (m.account === 'B'));
    expect(rewardIds.every(mine) && redemptionsMine, `account ${m.account} is connected, but storage holds another account's rewards or history`);
    expect(session.baseUrl === w.sandbox(m.account).url, 'the session item names another panel');
    expect(!questions || questions.account.startsWith(`${w.sandbox(m.account).url}|`), `account ${m.account} is connected, but the new-question record is another account's`);
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
    expect(!session.rejected || m.rejectable[m.account], 'the session was marked rejected by a 401 it never got');
  }

  for (const c of w.confirmations.values()) {
    expect(!c.resurrected, `a redemption of a session that ended came back into storage (${c.requestId})`);
    // "Nothing was charged" only on the panel's own refusal.
    if (c.nothingCharged) {
      expect(c.state === 'failed' && c.errorStatus !== undefined && c.errorStatus >= 400 && c.errorStatus < 500, `"nothing charged" said on ${c.state} (HTTP ${c.errorStatus})`);
    }
  }
  for (const [account, rewardId, group] of groups(w)) {
    const commits = w.commits(account, rewardId);
    const done = group.filter((c) => c.state === 'done' && !c.abandoned).length;
    const ruledOut = group.filter((c) => (c.state === 'failed' || c.state === 'not_found') && !c.abandoned).length;
    expect(done <= commits, `${done} redemptions of ${rewardId} reported done, the panel made ${commits}`);
    expect(commits + ruledOut <= group.length, `${ruledOut} of ${group.length} redemptions of ${rewardId} reported as not made, but the panel made ${commits}`);
  }
}

/** At the end: everything out has landed, every scheduled check has run; then outcomes are exact. */
export async function checkFinal(m: Model, w: World): Promise<void> {
  await w.settled();
  // The panel is healthy again, and time passes: every scheduled check runs.
  await w.clearFaults();
  const { checks } = w.worker.mods;
  for (let i = 0; i < checks.CHECK_AFTER_MS.length + 2; i++) {
    const alarm = await fakeBrowser.alarms.get(checks.CHECK_ALARM);
    if (!alarm) break;
    await w.worker.run(() => checks.onCheckAlarm(alarm));
  }
  await w.settled();
  await checkInvariants(m, w);
  // Refreshes still out when the run ended finish within a time-out or two; then no flag is on.
  const loading = async () => {
    const sync = await w.items.syncItem.getValue();
    return sync.rewards.loading || sync.history.loading || sync.profile.loading;
  };
  for (let waited = 0; (await loading()) && waited < 40; waited++) await sleep(TIMEOUT_MS / 2);
  expect(!(await loading()), 'a loading flag was left on');
  for (const [account, rewardId, group] of groups(w)) {
    const open = group.filter((c) => (c.state === 'pending' || c.state === 'unknown') && !c.abandoned);
    expect(open.length === 0, `${open.length} redemptions of ${rewardId} still unsettled after every check`);
    const done = group.filter((c) => c.state === 'done' && !c.abandoned).length;
    const abandoned = group.filter((c) => c.abandoned).length;
    const commits = w.commits(account, rewardId);
    expect(commits <= done + abandoned, `the panel made ${commits} redemptions of ${rewardId}; ${done} were reported done`);
  }
}

function groups(w: World): Array<[Account, number, Confirmation[]]> {
  const by = new Map<string, Confirmation[]>();
  for (const c of w.confirmations.values()) {
    const k = `${c.account}:${c.rewardId}`;
    by.set(k, [...(by.get(k) ?? []), c]);
  }
  return [...by.entries()].map(([k, group]) => [k.split(':')[0] as Account, Number(k.split(':')[1]), group]);
}
