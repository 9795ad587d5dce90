/**
 * What a panelist, the browser and the panel can do, as fast-check commands. Each runs against the
 * real background (World), then a worker it stopped is started again (as the browser does on the
 * next event), and the invariants are checked against the sandboxes' own records.
 */
import fc from 'fast-check';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { FaultRule } from '../../sandbox/server';
import { B_OFFSET } from '../accounts';
import { checkInvariants, type Model } from './invariants';
import { SPELLINGS, TIMEOUT_MS, sleep, type Account, type Spelling, type World } from './world';
import type { IdsOnWire } from '../../sandbox/types';

type Command = fc.AsyncCommand<Model, World, boolean>;

const REDEEM = '/v1/panel/redemption';
const TOKEN = '/oauth/token';
const AREA_PATHS = {
  rewards: '/v1/panel/rewards',
  history: '/v1/panel/redemptions',
  profile: '/v1/panel/variables/data',
} as const;
type Area = keyof typeof AREA_PATHS;
const REFRESH = { rewards: 'refreshRewards', history: 'refreshHistory', profile: 'refreshProfile' } as const;

/** 500 and 1,000 points (the balance is 2,500, so both run out) and 11,000 (always refused). */
const REWARDS = [101, 102, 108];
const rewardOf = (account: Account, slot: number) => REWARDS[slot]! + (account === 'B' ? B_OFFSET : 0);

/** How the panel treats the redeem: committing or not, answering or not. */
const REDEEM_FAULTS: Record<string, FaultRule | null> = {
  none: null,
  commitsAfterTimeOut: { delayMs: TIMEOUT_MS + 40 },
  commitsThen500: { commit: true, status: 500 },
  commitsThenDrops: { commit: true, drop: true },
  commitsThenOddBody: { commit: true, status: 200, body: '{"message":"queued"}' },
  // The browser re-sends it after the connection closed without an answer: the copy commits again
  // (a panel ignoring the key), is refused for lack of points, or gets the first answer replayed.
  resentByBrowser: { repeat: true },
  // The copy arrives while the first is still being processed: 409 from a panel honouring the key,
  // and the first commits just after that answer, or well after the read that follows it.
  resentWhileProcessing: { repeat: 'overlapping', delayMs: 5 },
  resentWhileProcessingSlow: { repeat: 'overlapping', delayMs: TIMEOUT_MS * 3 },
  // A rate limit in front of the panel refuses the copy at once (429); the first commits after it.
  resentRateLimited: { repeat: 'overlapping', delayMs: 5, copyStatus: 429, headers: { 'Retry-After': '1' } },
  answers429: { status: 429, headers: { 'Retry-After': '1' } },
  refuses422AfterCommit: { commit: true, status: 422, body: '{"message":"The selected id is invalid."}' },
  successWithoutRecord: { status: 200, body: '{"message":"success"}' },
  drops: { drop: true },
  answers500: { status: 500 },
  answers503Late: { delayMs: TIMEOUT_MS + 40, status: 503 },
  refuses402: { status: 402, body: '{"message":"Insufficient points"}' },
  refuses401: { status: 401 },
};

const READ_FAULTS: Record<string, FaultRule | null> = {
  none: null,
  holdsOldAnswer: { holdMs: 80 },
  slow: { delayMs: 40 },
  answers500: { status: 500, times: 2 },
  answers401Late: { status: 401, delayMs: 70 },
};

abstract class Step implements Command {
  abstract check(m: Readonly<Model>): boolean;
  protected abstract act(m: Model, w: World): Promise<void>;
  abstract toString(): string;
  async run(m: Model, w: World): Promise<void> {
    await this.act(m, w);
    await w.wakeIfStopped();
    if (await w.syncSession()) {
      m.account = w.session.account;
      if (m.account) {
        // A new session; a refusal arranged before it and not yet met may still meet it.
        m.rejectable[m.account] = (await w.pendingRefusal(m.account)) || (m.account === 'A' && w.revoked);
        // Another session: what was saved before is re-read from the panel, not remembered.
        m.saved[m.account] = undefined;
      }
    }
    w.steps += 1;
    w.stepEnded();
    await checkInvariants(m, w);
  }
}

class Redeem extends Step {
  constructor(
    readonly slot: number,
    readonly fault: string,
    readonly confirmUnsettled: boolean,
    readonly wait = true,
  ) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const account = m.account!;
    const rule = this.wait ? REDEEM_FAULTS[this.fault] : null;
    if (rule?.status === 401) m.rejectable[account] = true;
    // A fault the redeem never reached (refused as busy or unsettled) is taken back.
    // The page sends the reward's id as the catalogue wrote it (a 64-bit panel's: its digits).
    const redeem = async () => w.confirm(account, rewardOf(account, this.slot), this.confirmUnsettled);
    // Not awaited: the panelist closes the card or starts another redeem while this one is out.
    if (!this.wait) return void w.outstanding.push(redeem());
    await w.withFault(account, rule && { ...rule, path: REDEEM }, (r) => r.path === REDEEM && !r.repeated, redeem);
  }
  toString = () =>
    `Redeem(${this.slot}, ${this.wait ? this.fault : 'no fault, not awaited'}${this.confirmUnsettled ? ', confirmed again' : ''})`;
}

/** A Confirm during which the browser stops the worker after `calls` of its storage or network calls. */
class RedeemStopped extends Redeem {
  constructor(
    slot: number,
    fault: string,
    readonly calls: number,
  ) {
    super(slot, fault, true);
  }
  override async act(m: Model, w: World) {
    w.stopAfter(this.calls);
    return super.act(m, w);
  }
  override toString = () => `RedeemStopped(${this.slot}, ${this.fault}, after ${this.calls} calls)`;
}

/**
 * A history read is already out (a page opened) when the panelist, having just redeemed the same
 * reward on the website, presses Confirm: the baseline must be a read that left after the press.
 */
class RedeemWhileReading extends Step {
  constructor(
    readonly slot: number,
    readonly fault: string,
  ) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const account = m.account!;
    const reads = () => w.sandbox(account).requests.filter((r) => r.path === AREA_PATHS.history).length;
    const before = reads();
    // Held under the client's time-out: the read answers with what the panel held when it arrived.
    await w.fault(account, { path: AREA_PATHS.history, holdMs: TIMEOUT_MS - 15 });
    const reading = w.worker.send('refreshHistory', { force: true });
    for (let i = 0; i < 40 && reads() === before; i++) await sleep(2);
    await w.redeemElsewhere(account, rewardOf(account, this.slot));
    const rule = REDEEM_FAULTS[this.fault];
    if (rule?.status === 401) m.rejectable[account] = true;
    await w.withFault(
      account,
      rule && { ...rule, path: REDEEM },
      (r) => r.path === REDEEM && !r.repeated && r.headers['idempotency-key'] !== undefined,
      async () => w.confirm(account, rewardOf(account, this.slot), true),
    );
    await reading;
  }
  toString = () => `RedeemWhileReading(${this.slot}, ${this.fault})`;
}

/**
 * The panel cancels and deletes the account's newest redemption; numbering max + 1, the next gets
 * its id. `sameSecond`: the panel's clock then stands at the deleted one's second for the next
 * step, so the next redemption may be the same (id, reward, instant): what no history can tell apart.
 */
class PanelDeletes extends Step {
  constructor(
    readonly account: Account,
    readonly sameSecond = false,
  ) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    w.deleteNewest(this.account, this.sameSecond);
  }
  toString = () => `PanelDeletes(${this.account}${this.sameSecond ? ', its id and second given to the next' : ''})`;
}

/**
 * A Confirm whose request the panel holds a moment, while it deletes the newest redemption of that
 * reward and gives its id, within the same second, to the one this Confirm makes: the Confirm's own
 * redemption is whole-identical to one of its baseline (the one-second limit, utils/instants.ts).
 */
class RedeemWhileDeleting extends Step {
  constructor(readonly slot: number) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const account = m.account!;
    const rewardId = rewardOf(account, this.slot);
    const redeems = () => w.sandbox(account).requests.filter((r) => r.path === REDEEM).length;
    const before = redeems();
    // withFault takes the delay back when the Confirm sent nothing (a reward with no cost, a busy
    // session): left armed, it would delay the next redeem and leave that step's own fault armed
    // for a request it was not meant for (another client's redeem).
    await w.withFault(
      account,
      { path: REDEEM, delayMs: 40 },
      (r) => r.path === REDEEM && !r.repeated,
      async () => {
        const confirming = w.confirm(account, rewardId, true);
        for (let i = 0; i < 100 && redeems() === before; i++) await sleep(2);
        w.deleteNewest(account, true, rewardId);
        await confirming;
      },
    );
  }
  toString = () => `RedeemWhileDeleting(${this.slot})`;
}

/** The panel changes a reward's points cost after the list was read: a Confirm at the old cost sends nothing. */
class PanelReprices extends Step {
  constructor(
    readonly account: Account,
    readonly slot: number,
    readonly delta: number,
  ) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    const reward = w.sandbox(this.account).state.rewards.find((r) => r.id === rewardOf(this.account, this.slot));
    if (reward && typeof reward.reward_point_cost === 'number')
      reward.reward_point_cost = Math.max(0, reward.reward_point_cost + this.delta);
  }
  toString = () => `PanelReprices(${this.account}, ${this.slot}, ${this.delta > 0 ? '+' : ''}${this.delta})`;
}

/** The panel's catalogue gives a reward no points cost, lists its id twice at two costs, or heals. */
class PanelCatalogue extends Step {
  constructor(
    readonly account: Account,
    readonly slot: number,
    readonly kind: 'nullCost' | 'twice' | 'heals',
  ) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    w.oddCatalogue(this.account, rewardOf(this.account, this.slot), this.kind);
  }
  toString = () => `PanelCatalogue(${this.account}, ${this.slot}, ${this.kind})`;
}

/** Another API server answers: every created_at the same instants, spelled another way. */
class PanelRespells extends Step {
  constructor(
    readonly account: Account,
    readonly spelling: Spelling,
  ) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    w.respell(this.account, this.spelling);
  }
  toString = () => `PanelRespells(${this.account}, ${this.spelling})`;
}

/** The panelist redeems on the panel's website (or another device): the extension did not ask for it. */
class RedeemElsewhere extends Step {
  constructor(
    readonly account: Account,
    readonly slot: number,
  ) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    await w.redeemElsewhere(this.account, rewardOf(this.account, this.slot));
  }
  toString = () => `RedeemElsewhere(${this.account}, ${this.slot})`;
}

class Refresh extends Step {
  constructor(
    readonly area: Area,
    readonly force: boolean,
    readonly fault: string,
    readonly wait: boolean,
  ) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const rule = READ_FAULTS[this.fault];
    if (rule) await w.fault(m.account!, { ...rule, method: 'GET', path: AREA_PATHS[this.area] });
    if (rule?.status === 401) m.rejectable[m.account!] = true;
    const reply = w.worker.send(REFRESH[this.area], { force: this.force });
    if (this.wait) await reply;
  }
  toString = () =>
    `Refresh(${this.area}${this.force ? ', force' : ''}, ${this.fault}${this.wait ? '' : ', not awaited'})`;
}

/** The refresh alarm: both areas, forced, nobody waiting. */
class AlarmRefresh extends Step {
  check = () => true;
  async act(_m: Model, w: World) {
    void w.worker.send('refreshRewards', { force: true });
    void w.worker.send('refreshHistory', { force: true });
  }
  toString = () => 'AlarmRefresh';
}

/**
 * The history-check alarm fires at its time (the browser removes a one-shot alarm as it fires).
 * Checks are minutes apart, a late commit seconds: before a check that may conclude, everything
 * the panel still had in hand has landed.
 */
class CheckAlarm extends Step {
  constructor(readonly readFails = false) {
    super();
  }
  check = () => true;
  async act(m: Model, w: World) {
    const { checks, items } = w.worker.mods;
    const alarm = await fakeBrowser.alarms.get(checks.CHECK_ALARM);
    if (!alarm) return;
    if (this.readFails && m.account)
      await w.fault(m.account, { method: 'GET', path: AREA_PATHS.history, status: 503, times: 3 });
    const open = [...(await items.unsettledItem.getValue()), await items.ledgerItem.getValue()];
    if (open.some((e) => e?.state === 'unknown' && (e.checks?.done ?? 0) >= checks.CHECK_AFTER_MS.length - 1))
      await w.settled();
    await fakeBrowser.alarms.clear(checks.CHECK_ALARM);
    await w.worker.event(() => checks.onCheckAlarm(alarm), undefined);
    if (this.readFails && m.account) await w.clearFaults(m.account);
  }
  toString = () => `CheckAlarm${this.readFails ? '(its history read fails)' : ''}`;
}

/**
 * "Check now". One whose history read fails must say so: an ok answer while an open Confirm was
 * left unsettled means a history read was answered during it (never "checked, not there" unread).
 */
class CheckNow extends Step {
  constructor(readonly readFails = false) {
    super();
  }
  check = () => true;
  async act(m: Model, w: World) {
    const account = m.account;
    if (this.readFails && account)
      await w.fault(account, { method: 'GET', path: AREA_PATHS.history, status: 503, times: 3 });
    // A read is answered by a 200 or by a 304 (the history unchanged since the copy kept).
    const answered = () =>
      account ? w.sandbox(account).answers.filter((r) => r.path === AREA_PATHS.history && r.status < 400).length : 0;
    const before = answered();
    const reply = await w.worker.send('checkRedemption', undefined);
    if (this.readFails && account) await w.clearFaults(account);
    const left = reply.ok ? (reply.data as { state?: string } | null) : null;
    if (!w.worker.dead && left?.state === 'unknown' && answered() === before && this.readFails)
      w.violations.push('Check now answered ok with a Confirm still open, though no history read was answered');
  }
  toString = () => `CheckNow${this.readFails ? '(its history read fails)' : ''}`;
}

class Dismiss extends Step {
  check = () => true;
  async act(_m: Model, w: World) {
    await w.worker.send('dismissRedemption', undefined);
  }
  toString = () => 'Dismiss';
}

class Restart extends Step {
  check = () => true;
  async act(_m: Model, w: World) {
    await w.restart();
  }
  toString = () => 'RestartWorker';
}

/** The browser stops the worker after its next `calls` storage or network calls, wherever that lands. */
class StopWorker extends Step {
  constructor(readonly calls: number) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    w.stopAfter(this.calls);
  }
  toString = () => `StopWorkerAfter(${this.calls} calls)`;
}

class Disconnect extends Step {
  check = (m: Readonly<Model>) => m.account !== null;
  async act(_m: Model, w: World) {
    await w.disconnect();
  }
  toString = () => 'Disconnect';
}

class Connect extends Step {
  constructor(
    readonly account: Account,
    readonly how: 'key' | 'signIn' | 'secondKey',
  ) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    await w.connect(this.account, this.how);
  }
  toString = () =>
    `Connect(${this.account}${this.how === 'signIn' ? ', signing in' : this.how === 'secondKey' ? ', a second key of the account' : ''})`;
}

/**
 * One options page, or two at once, sends a draft edit under the session it was opened in: the
 * current one, or (a page left open across a switch) the one before. Values carry their account,
 * so the invariants can tell whose draft storage holds.
 */
class EditDraft extends Step {
  constructor(
    readonly n: number,
    readonly twoPages: boolean,
    readonly stalePage: boolean,
  ) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const session = this.stalePage ? w.previousSessionId : w.session.id;
    if (!session) return;
    const value = `${m.account}-draft-${this.n}`;
    const edits = [{ FIRST_NAME: value }, ...(this.twoPages ? [{ POSTAL_CODE: value }] : [])];
    const replies = await Promise.all(edits.map((changes) => w.worker.send('editDraft', { session, changes })));
    if (this.stalePage) {
      if (replies.some((r) => r.ok)) w.violations.push(`an edit sent under ended session ${session} was taken`);
      return;
    }
    if (w.worker.dead || !replies.every((r) => r.ok)) return;
    // Both pages' edits stay: each was merged into the draft in the writer's turn.
    const draft = await w.items.profileDraftItem.getValue();
    for (const changes of edits) {
      for (const [name, sent] of Object.entries(changes)) {
        if (draft[name] !== sent)
          w.violations.push(
            `the draft edit ${name} = ${sent} was answered as stored but the draft holds ${String(draft[name])}`,
          );
      }
    }
  }
  toString = () =>
    `EditDraft(${this.n}${this.twoPages ? ', two pages at once' : ''}${this.stalePage ? ', from a page of the session before' : ''})`;
}

/** Two pages change two preferences at the same moment: both stay (a read-merge-write in the writer's turn). */
class PreferencesAtOnce extends Step {
  constructor(
    readonly badge: boolean,
    readonly notify: boolean,
  ) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    if (!this.notify) w.notificationsWereOff = true;
    const replies = await Promise.all([
      w.worker.send('setPreferences', { badge: this.badge }),
      w.worker.send('setPreferences', { notify: this.notify }),
    ]);
    if (w.worker.dead || !replies.every((r) => r.ok)) return;
    const stored = await w.items.preferencesItem.getValue();
    if (stored.badge !== this.badge || stored.notify !== this.notify) {
      w.violations.push(
        `preferences set at once to badge ${this.badge} and notify ${this.notify} were stored as ${stored.badge} and ${stored.notify}`,
      );
    }
  }
  toString = () => `PreferencesAtOnce(badge ${this.badge}, notify ${this.notify})`;
}

/** Sets the goal, sometimes while a balance read that left before is still out and lands during the goal's own work. */
class SetGoal extends Step {
  constructor(
    readonly slot: number,
    readonly readOut: boolean,
  ) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const account = m.account!;
    if (this.readOut) {
      await w.fault(account, { holdMs: 30, method: 'GET', path: AREA_PATHS.rewards });
      void w.worker.send('refreshRewards', { force: true });
      await sleep(5);
    }
    await w.worker.send('setGoal', { rewardId: w.wireId(rewardOf(account, this.slot)) });
  }
  toString = () => `SetGoal(${this.slot}${this.readOut ? ', a balance read out' : ''})`;
}

/** Account A's authorization server: access tokens end, or its token endpoint misbehaves once. */
const TOKEN_EVENTS = [
  'expireAccessTokens',
  'answers429',
  'answers500',
  'drops',
  'refusesGrant',
  'revokesEverything',
] as const;

class TokenEvent extends Step {
  constructor(readonly event: (typeof TOKEN_EVENTS)[number]) {
    super();
  }
  check = () => true;
  async act(m: Model, w: World) {
    switch (this.event) {
      case 'expireAccessTokens':
        return w.control('A', '/oauth/expire');
      case 'answers429':
        w.rateLimited = true;
        return w.fault('A', {
          path: TOKEN,
          status: 429,
          headers: { 'Retry-After': '1' },
          body: '{"error":"slow_down"}',
        });
      case 'answers500':
        return w.fault('A', { path: TOKEN, status: 500 });
      case 'drops':
        return w.fault('A', { path: TOKEN, drop: true });
      case 'refusesGrant':
        m.rejectable.A = true;
        return w.fault('A', { path: TOKEN, status: 400, body: '{"error":"invalid_grant"}' });
      case 'revokesEverything':
        // The panelist changed their password: no token of this sign-in works any more.
        m.rejectable.A = true;
        w.revoked = true;
        return w.control('A', '/oauth/revoke');
    }
  }
  toString = () => `Token(${this.event})`;
}

/** Storage is left with `slack` bytes: writes that would take more are refused as Chrome refuses them. */
class StorageFull extends Step {
  constructor(readonly slack: number) {
    super();
  }
  check = () => true;
  async act(_m: Model, w: World) {
    await w.storage.drain();
    w.storage.quota = w.storage.usage() + this.slack;
    w.storageWasFull = true;
  }
  toString = () => `StorageNearlyFull(${this.slack} bytes left)`;
}

class StorageFreed extends Step {
  check = () => true;
  async act(_m: Model, w: World) {
    w.storage.quota = null;
  }
  toString = () => 'StorageFreed';
}

const SAVE_FAULTS: Record<string, FaultRule | null> = {
  none: null,
  refuses422: { status: 422, body: '{"message":"The given data was invalid.","errors":{"FIRST_NAME":["Too odd."]}}' },
  answers500: { status: 500 },
  commitsThen500: { commit: true, status: 500 },
};

/** Saves FIRST_NAME, sometimes while a read that left before the save is still out. */
class Save extends Step {
  constructor(
    readonly n: number,
    readonly fault: string,
    readonly readOut: boolean,
  ) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const account = m.account!;
    if (this.readOut) {
      await w.fault(account, { holdMs: 80, method: 'GET', path: AREA_PATHS.profile });
      void w.worker.send('refreshProfile', { force: true });
      await sleep(10);
    }
    const rule = SAVE_FAULTS[this.fault];
    const value = `${account}-${this.n}`;
    // A fault the save never reached (the worker stopped before it left) is taken back.
    const { reply } = await w.withFault(
      account,
      rule && { ...rule, method: 'POST', path: AREA_PATHS.profile },
      (r) => r.method === 'POST' && r.path === AREA_PATHS.profile,
      () => w.worker.send('saveValues', { values: { FIRST_NAME: value } }),
    );
    if (reply.ok) m.saved[account] = value;
    else if (this.fault !== 'refuses422' || w.worker.dead) m.saved[account] = undefined; // may or may not be saved
  }
  toString = () => `Save(${this.n}, ${this.fault}${this.readOut ? ', a read out' : ''})`;
}

class Delete extends Step {
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    const reply = await w.worker.send('deleteValue', { name: 'FIRST_NAME' });
    m.saved[m.account!] = reply.ok ? null : undefined;
  }
  toString = () => 'Delete(FIRST_NAME)';
}

/**
 * The values answer fails for the next `times` requests (a read and its two retries are one failed
 * read) while every other answer comes: on a panel giving the balance there, the refresh, a
 * Confirm's balance reads or the profile read that meets it reads no balance.
 */
class ValuesFail extends Step {
  constructor(readonly times: number) {
    super();
  }
  check = (m: Readonly<Model>) => m.account !== null;
  async act(m: Model, w: World) {
    await w.fault(m.account!, { method: 'GET', path: AREA_PATHS.profile, status: 503, times: this.times });
  }
  toString = () => `ValuesFail(${this.times})`;
}

class Wait extends Step {
  constructor(readonly ms: number) {
    super();
  }
  check = () => true;
  async act() {
    await sleep(this.ms);
  }
  toString = () => `Wait(${this.ms})`;
}

const key = <T extends object>(o: T) => fc.constantFrom(...(Object.keys(o) as Array<keyof T & string>));

export const COMMANDS = [
  fc.tuple(fc.integer({ min: 0, max: 2 }), key(REDEEM_FAULTS), fc.boolean()).map(([s, f, c]) => new Redeem(s, f, c)),
  fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean()).map(([s, c]) => new Redeem(s, 'none', c, false)),
  fc
    .tuple(fc.constantFrom<Account>('A', 'B'), fc.integer({ min: 0, max: 2 }))
    .map(([a, s]) => new RedeemElsewhere(a, s)),
  fc
    .tuple(key(AREA_PATHS), fc.boolean(), key(READ_FAULTS), fc.boolean())
    .map(([a, force, f, wait]) => new Refresh(a, force, f, wait)),
  fc.tuple(fc.integer({ min: 0, max: 2 }), key(REDEEM_FAULTS)).map(([s, f]) => new RedeemWhileReading(s, f)),
  fc.tuple(fc.constantFrom<Account>('A', 'B'), fc.boolean()).map(([a, same]) => new PanelDeletes(a, same)),
  fc.integer({ min: 0, max: 2 }).map((s) => new RedeemWhileDeleting(s)),
  fc
    .tuple(fc.constantFrom<Account>('A', 'B'), fc.integer({ min: 0, max: 2 }), fc.constantFrom(-300, -1, 1, 300))
    .map(([a, s, d]) => new PanelReprices(a, s, d)),
  fc
    .tuple(
      fc.constantFrom<Account>('A', 'B'),
      fc.integer({ min: 0, max: 2 }),
      fc.constantFrom('nullCost' as const, 'twice' as const, 'heals' as const),
    )
    .map(([a, s, k]) => new PanelCatalogue(a, s, k)),
  fc.tuple(fc.constantFrom<Account>('A', 'B'), fc.constantFrom(...SPELLINGS)).map(([a, s]) => new PanelRespells(a, s)),
  fc.constant(new AlarmRefresh()),
  fc.boolean().map((fails) => new CheckAlarm(fails)),
  fc.boolean().map((fails) => new CheckNow(fails)),
  fc.constant(new Dismiss()),
  fc.constant(new Restart()),
  fc.integer({ min: 0, max: 15 }).map((calls) => new StopWorker(calls)),
  // The worker stopped after any one of a Confirm's storage or network calls: between every pair of its writes.
  fc
    .tuple(fc.integer({ min: 0, max: 2 }), key(REDEEM_FAULTS), fc.integer({ min: 0, max: 12 }))
    .map(([s, f, calls]) => new RedeemStopped(s, f, calls)),
  fc.constant(new Disconnect()),
  fc
    .constantFrom<[Account, 'key' | 'signIn' | 'secondKey']>(
      ['A', 'key'],
      ['A', 'signIn'],
      ['A', 'signIn'],
      ['B', 'key'],
      ['A', 'secondKey'],
    )
    .map(([a, how]) => new Connect(a, how)),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.boolean(), fc.boolean())
    .map(([n, two, stale]) => new EditDraft(n, two, stale)),
  fc.tuple(fc.boolean(), fc.boolean()).map(([badge, notify]) => new PreferencesAtOnce(badge, notify)),
  fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean()).map(([s, r]) => new SetGoal(s, r)),
  fc.constantFrom(...TOKEN_EVENTS).map((event) => new TokenEvent(event)),
  fc.integer({ min: 0, max: 6000 }).map((slack) => new StorageFull(slack)),
  fc.constant(new StorageFreed()),
  fc.tuple(fc.integer({ min: 1, max: 9 }), key(SAVE_FAULTS), fc.boolean()).map(([n, f, r]) => new Save(n, f, r)),
  fc.constant(new Delete()),
  fc.constantFrom(3, 6, 12).map((times) => new ValuesFail(times)),
  fc.integer({ min: 0, max: 100 }).map((ms) => new Wait(ms)),
];

/** What a run draws besides its commands: the delays' seed, the panels' clocks, A's token lifetime, idempotency. */
export const RUN_SETTINGS = fc.record({
  seed: fc.integer({ min: 1, max: 0x7fffffff }),
  skew: fc.record({ A: fc.integer({ min: -600_000, max: 600_000 }), B: fc.integer({ min: -600_000, max: 600_000 }) }),
  tokenSeconds: fc.constantFrom(3600, 20),
  idempotency: fc.boolean(),
  ids: fc.constantFrom<IdsOnWire>('numbers', 'beyond2^53', 'digitStrings'),
  sharedNumbering: fc.boolean(),
  historyLagMs: fc.oneof(fc.constant(0), fc.integer({ min: 5, max: 60 })),
  balanceIn: fc.constantFrom<'rewards' | 'variables'>('rewards', 'variables'),
});
