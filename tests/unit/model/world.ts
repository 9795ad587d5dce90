/**
 * The real background, two sandbox accounts over real HTTP, and workers that can be stopped: what
 * the model-based test (background-model.test.ts) drives and observes. Storage and the network
 * answer late and out of order (jitter.ts), storage can be full, a worker can be stopped between
 * any two of its storage or network calls, account A's panel runs its own clock and signs in with
 * OAuth (tokens that expire and rotate, a token endpoint that can refuse or ask to wait).
 */
import { redemptionKey } from '../../../utils/ids';
import { instantOf } from '../../../utils/instants';
import { AsyncLocalStorage } from 'node:async_hooks';
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Result } from '../../../utils/messages';
import { notifyStateItem, type LedgerEntry, type SessionInfo } from '../../../utils/storage-items';
import { startSandbox, type FaultRule, type Sandbox } from '../../sandbox/server';
import type { IdsOnWire } from '../../sandbox/types';
import type { MadeRedemption, RecordedRequest, Reward } from '../../sandbox/types';
import { B_REDEMPTION_OFFSET, isAccountB, SEED_A, SEED_B } from '../accounts';
import { fakeNotifications, type Shown } from '../background-helpers';
import { actAsPanelist, installIdentity, oauthSettingsFor } from '../sign-in-helpers';
import { Jitter } from './jitter';
import { stateId, wireId } from '../../sandbox/wire-ids';

export type Account = 'A' | 'B';

/** Short but real: a redeem the sandbox holds longer than TIMEOUT_MS is a lost answer. */
export const TIMEOUT_MS = 50;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = <T>() => new Promise<T>(() => undefined);
const NOTIFY_STATE_KEY = notifyStateItem.key;

/** What one run draws besides its commands. */
export interface RunSettings {
  /** Seeds the delays of storage and network. */
  seed: number;
  /** Each panel's clock against the browser's, ms (±10 min). */
  skew: Record<Account, number>;
  /** Account A's access tokens' lifetime: under the renewal margin (30 s), every call renews first. */
  tokenSeconds: number;
  /** Whether the panels honour `Idempotency-Key`. */
  idempotency: boolean;
  /** How the panels write reward and redemption ids: as they hold them, or as a 64-bit panel's (wire-ids.ts). */
  ids: IdsOnWire;
  /** Account B's panel numbers its redemptions like A's (per panelist): the same ids, other rewards and dates. */
  sharedNumbering: boolean;
  /** How long a redemption takes to show in the history after the balance moved (0: at once). */
  historyLagMs: number;
  /**
   * Where the panels give the balance: in the rewards answer, or in the values answer read beside
   * it, whose read may fail while the rewards read does not (the balance is then not read).
   */
  balanceIn: 'rewards' | 'variables';
}

/** How another API server may spell the same created_at (utils/instants.ts accepts each). */
export const SPELLINGS = ['space', 'T', 'laravel', 'offset'] as const;
export type Spelling = (typeof SPELLINGS)[number];

/** The instant `text` names (as the panel wrote it), spelled `spelling`. */
function spelled(text: string, spelling: Spelling): string {
  const at = instantOf(text);
  if (!at) return text;
  const plain = at.slice(0, 19);
  if (spelling === 'space') return plain.replace('T', ' ');
  if (spelling === 'T') return plain;
  if (spelling === 'laravel') return `${plain}.000000Z`;
  return `${new Date(Date.parse(at) + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
}

type Modules = {
  handlers: typeof import('../../../entrypoints/background/handlers');
  result: typeof import('../../../entrypoints/background/result');
  api: typeof import('../../../entrypoints/background/auth/api');
  checks: typeof import('../../../entrypoints/background/redemption/service');
  recover: typeof import('../../../entrypoints/background/recover');
  newQuestions: typeof import('../../../entrypoints/background/profile/new-questions');
  items: typeof import('../../../utils/storage-items');
  storedReads: typeof import('../../../entrypoints/background/store/stored-reads');
  notifications: typeof import('../../../entrypoints/background/notify/notifications');
  balance: typeof import('../../../entrypoints/background/balance-history');
  settings: typeof import('../../../utils/settings');
};

/** A reply from a worker that was stopped before it answered. */
const STOPPED = { ok: false, error: { kind: 'unexpected', message: 'the worker stopped' } } as const;

/**
 * One run of the service worker: its own copy of every background module (module state is what a
 * stopped worker loses). Stopping it is final: its requests never answer back and its storage
 * calls never land, as when the browser kills a worker, even though this process goes on.
 */
class Worker {
  dead = false;
  /** Storage and network calls left before it stops (null: it runs on). */
  stopAfter: number | null = null;
  private stopWatching: Array<() => void> = [];
  private killed!: () => void;
  readonly died = new Promise<void>((resolve) => (this.killed = resolve));

  private constructor(readonly mods: Modules) {}

  static async start(oauth: ReturnType<typeof oauthSettingsFor>, apiBaseUrl: string): Promise<Worker> {
    vi.resetModules();
    const mods: Modules = {
      handlers: await import('../../../entrypoints/background/handlers'),
      result: await import('../../../entrypoints/background/result'),
      api: await import('../../../entrypoints/background/auth/api'),
      checks: await import('../../../entrypoints/background/redemption/service'),
      recover: await import('../../../entrypoints/background/recover'),
      newQuestions: await import('../../../entrypoints/background/profile/new-questions'),
      items: await import('../../../utils/storage-items'),
      storedReads: await import('../../../entrypoints/background/store/stored-reads'),
      notifications: await import('../../../entrypoints/background/notify/notifications'),
      balance: await import('../../../entrypoints/background/balance-history'),
      settings: await import('../../../utils/settings'),
    };
    Object.assign(mods.api.httpTuning, {
      timeoutMs: TIMEOUT_MS,
      retryBaseDelayMs: 1,
      retries: 1,
      maxRetryAfterSeconds: 0,
    });
    Object.assign(mods.settings.settings, { apiBaseUrl, oauth });
    const worker = new Worker(mods);
    // What index.ts does at start: the listeners, then recovering from the stopped worker.
    await worker.run(async () => {
      worker.stopWatching = [
        mods.storedReads.onStored(
          (area, data, sid) =>
            void (
              area === 'history' &&
              worker.run(() => mods.checks.checkOutcomes(null, { sid, history: data as never })).catch(() => undefined)
            ),
        ),
        mods.notifications.watchNotifications(),
        mods.balance.watchBalance(),
        mods.newQuestions.watchNewQuestions(),
      ];
      await mods.recover.recoverAfterStop();
    });
    return worker;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return scope.run(this, work);
  }

  /** A message from a page, answered as the real handler table answers it (or not, if the worker stops). */
  send<T = unknown>(type: keyof Modules['handlers']['handlers'], data: unknown): Promise<Result<T>> {
    const handler = this.mods.handlers.handlers[type] as (d: unknown) => Promise<T>;
    return this.event(() => this.mods.result.asResult(() => handler(data)), STOPPED);
  }

  /** An event the worker handles (a message, an alarm); `stopped` if the worker stops before it is done. */
  event<T>(work: () => Promise<T>, stopped: T): Promise<T> {
    return Promise.race([this.run(work), this.died.then(() => stopped)]);
  }

  /** Counts one storage or network call; false when the worker is (now) stopped and it must not happen. */
  call(): boolean {
    if (this.dead) return false;
    if (this.stopAfter !== null && this.stopAfter-- <= 0) this.stop();
    return !this.dead;
  }

  stop(): void {
    if (this.dead) return;
    this.dead = true;
    this.stopWatching.forEach((stop) => stop());
    this.killed();
  }
}

const scope = new AsyncLocalStorage<Worker>();

/** What became of each redemption the panelist confirmed, as the ledger told it. */
export interface Confirmation {
  requestId: string;
  /** The `Idempotency-Key` its request carried: the sandbox notes it on every redemption it made. */
  key: string | undefined;
  account: Account;
  rewardId: number;
  state: LedgerEntry['state'];
  nothingCharged: boolean;
  errorStatus?: number;
  /** Further redemptions the panel recorded for it (a re-sent request). */
  duplicates: number;
  /** It was unknown at some point: a check, not the panel's answer, settled it. */
  wasUnknown: boolean;
  /** When it was pressed (the worker's clock, as the sandbox notes what it made). */
  startedAt: number;
  /** The redemption it claimed, whole (utils/ids.ts: id as the panel wrote it, reward, instant). */
  claimed?: string;
  /** Still unsettled when its session ended: its outcome was never the new session's to tell. */
  abandoned: boolean;
  /**
   * Settled, but not yet on screen when its session ended: the extension records an outcome as told
   * in one turn and shows it in a later one only while that session is still active, so an account
   * left in between never has it shown (at most once, should the next session of the same account
   * tell it again).
   */
  endedUntold?: boolean;
  /** Seen in storage again after its session ended. */
  resurrected?: boolean;
  /** Went back from settled to pending or unknown. */
  reopened?: boolean;
  /** When storage first named its redemption, and the further ones it then said the panel recorded. */
  named?: { at: number; duplicates: readonly string[] };
  /** Its repeats changed after it was named: only the read that first shows a Confirm may name them. */
  renamed?: boolean;
}

export class World {
  worker!: Worker;
  /** The session in storage after the last step: its id and account. */
  session: { id: string | undefined; account: Account | null } = { id: undefined, account: null };
  /** The session before that one: a page still open from then sends its edits under it. */
  previousSessionId: string | undefined;
  readonly confirmations = new Map<string, Confirmation>();
  /** Replies to messages a step sent without waiting (a redeem left running): the end waits for them. */
  readonly outstanding: Array<Promise<unknown>> = [];
  /** Invariants broken where no step could see them (a request leaving with an old session's token). */
  readonly violations: string[] = [];
  /** Notifications shown, in order. */
  shown: Shown[] = [];
  /**
   * Per notification id, the session of each write that recorded it as told (newly in the list the
   * session keeps of what it told), in order; a session's list goes with it.
   */
  readonly recorded = new Map<string, Array<string | undefined>>();
  private toldList: readonly string[] = [];
  /** A worker of this run was stopped (between steps or inside one). */
  anyStop = false;
  /** Account A's sign-in was revoked: its session can no longer read anything. */
  revoked = false;
  /** The token endpoint asked to wait (Retry-After: 1) in this run. */
  rateLimited = false;
  /** Storage was nearly full at some point of this run. */
  storageWasFull = false;
  /** The panelist turned notifications off at some point of this run: what they hid is not counted. */
  notificationsWereOff = false;
  settings!: RunSettings;
  /** Seeded redemptions per account and reward, so commits are counted from the sandbox itself. */
  private seeded!: Record<Account, Map<number, number>>;
  private jitter = new Jitter(1);
  steps = 0;
  checks = 0;

  private constructor(readonly sandboxes: Record<Account, Sandbox>) {}

  static async create(): Promise<World> {
    let world: World | undefined;
    // A panel's clock: skewed, or standing still at a second a step pinned (a deleted redemption's).
    const clock = (account: Account) => () =>
      world?.pinned[account] ?? new Date(Date.now() + (world?.settings?.skew[account] ?? 0));
    const [a, b] = await Promise.all([
      startSandbox({ seed: SEED_A, token: 'model-token-a', now: clock('A') }),
      startSandbox({ seed: SEED_B, token: 'model-token-b', now: clock('B') }),
    ]);
    world = new World({ A: a, B: b });
    world.install();
    return world;
  }

  close(): Promise<unknown> {
    return Promise.all(Object.values(this.sandboxes).map((s) => s.close()));
  }

  /** A fresh browser profile connected to account A with its key. */
  async begin(settings: RunSettings): Promise<void> {
    this.worker?.stop();
    this.settings = settings;
    this.jitter = new Jitter(settings.seed);
    await this.storage.drain();
    fakeBrowser.reset();
    this.storage.reset();
    this.installBrowser();
    for (const sandbox of Object.values(this.sandboxes)) {
      sandbox.reset();
      sandbox.oauth.settings.accessTokenTtlSeconds = settings.tokenSeconds;
      sandbox.state.idsOnWire = settings.ids;
      sandbox.state.historyLagMs = settings.historyLagMs;
      sandbox.state.balanceIn = settings.balanceIn;
    }
    // A panel numbering each panelist's redemptions apart: B's carry A's ids (other rewards and dates).
    if (settings.sharedNumbering) for (const r of this.sandboxes.B.state.redemptions) r.id -= B_REDEMPTION_OFFSET;
    this.deleted.A.clear();
    this.deleted.B.clear();
    this.deletedMade.clear();
    this.deletedKeys.clear();
    this.pinned = { A: null, B: null };
    this.pinnedFor = { A: 0, B: 0 };
    this.listed = { A: new Map(), B: new Map() };
    await Promise.all(
      Object.values(this.sandboxes).map((s) =>
        fetch(`${s.url}/__sandbox/idempotency`, {
          method: 'PATCH',
          body: JSON.stringify({ honour: settings.idempotency }),
        }),
      ),
    );
    this.seeded = { A: countByReward(this.sandboxes.A), B: countByReward(this.sandboxes.B) };
    this.confirmations.clear();
    this.outstanding.length = 0;
    this.violations.length = 0;
    this.recorded.clear();
    this.toldList = [];
    this.anyStop = false;
    this.revoked = false;
    this.rateLimited = false;
    this.storageWasFull = false;
    this.notificationsWereOff = false;
    this.tokens.clear();
    this.activeId = undefined;
    this.session = { id: undefined, account: null };
    this.previousSessionId = undefined;
    this.worker = await this.startWorker();
    this.observeLedger();
    await fakeBrowser.storage.local.set({ preferences: { badge: true, refreshMinutes: 30, notify: true } });
    // Set-up, not under test: on a busy machine the first call may time out.
    for (let tries = 0; !(await this.connect('A', 'key')).ok; tries++) {
      if (tries === 20) throw new Error('could not connect to the sandbox to begin a run');
    }
    await this.syncSession();
  }

  get items(): Modules['items'] {
    return this.worker.mods.items;
  }

  sandbox(account: Account): Sandbox {
    return this.sandboxes[account];
  }

  private startWorker(): Promise<Worker> {
    return Worker.start(oauthSettingsFor(this.sandboxes.A), this.sandboxes.A.url);
  }

  /**
   * A pasted key for either account, signing in (account A's panel has the authorization server),
   * or a second key of the same account that the panel made for it (same-account.ts decides).
   */
  connect(account: Account, how: 'key' | 'signIn' | 'secondKey'): Promise<Result<SessionInfo>> {
    if (how === 'signIn') return this.worker.send<SessionInfo>('signIn', undefined);
    const sandbox = this.sandboxes[account];
    const token = how === 'secondKey' ? `${sandbox.token}-second` : sandbox.token;
    sandbox.otherKeys.add(`${sandbox.token}-second`);
    // Connecting checks the key with a real call before the session is its own: not an old session's request.
    this.connecting = token;
    return this.worker
      .send<SessionInfo>('connect', { baseUrl: sandbox.url, token })
      .finally(() => (this.connecting = null));
  }

  /** The key a connect is checking right now. */
  private connecting: string | null = null;

  disconnect(): Promise<Result<unknown>> {
    return this.worker.send('disconnect', undefined);
  }

  async restart(): Promise<void> {
    this.anyStop = true;
    this.worker.stop();
    this.worker = await this.startWorker();
  }

  /** The worker stops after `calls` more storage or network calls, wherever that lands. */
  stopAfter(calls: number): void {
    this.worker.stopAfter = calls;
  }

  /** A worker the last step stopped is started again, as the browser does on the next event. */
  async wakeIfStopped(): Promise<void> {
    if (!this.worker.dead) return;
    this.anyStop = true;
    this.worker = await this.startWorker();
  }

  /**
   * Reads which session storage holds: when it changed, what was still unsettled belongs to the
   * ended one (abandoned), and the model's per-session knowledge starts again. Returns whether it changed.
   */
  async syncSession(): Promise<boolean> {
    const session = await this.items.sessionItem.getValue();
    const account = !session.connected ? null : session.baseUrl === this.sandboxes.B.url ? 'B' : 'A';
    if (session.id === this.session.id) return false;
    // The new session took over the Confirms it found to be its account's (carry-over.ts); the rest
    // were never the new session's to settle.
    const [current, awaiting] = await Promise.all([
      this.items.ledgerItem.getValue(),
      this.items.unsettledItem.getValue(),
    ]);
    const carried = new Set([current, ...awaiting].flatMap((entry) => (entry ? [entry.requestId] : [])));
    const shown = this.notified();
    for (const c of this.confirmations.values()) {
      if (c.state !== 'pending' && c.state !== 'unknown') {
        if (!shown.has(`outcome:${c.requestId}`)) c.endedUntold = true;
        continue;
      }
      // One carried over can only be settled by a check of the new session (the old one's writes
      // are refused), however its answer went: it is told like any outcome a check settles.
      if (carried.has(c.requestId)) c.wasUnknown = true;
      else c.abandoned = true;
    }
    this.previousSessionId = this.session.id;
    this.session = { id: session.id, account };
    for (const [name, sandbox] of Object.entries(this.sandboxes))
      this.answersSeen[name as Account] = sandbox.answers.length;
    return true;
  }

  /** Whether the account's panel still takes the stored access token. */
  async tokenWorks(account: Account): Promise<boolean> {
    const stored = (await fakeBrowser.storage.local.get('credentials')).credentials as { token: string } | undefined;
    const sandbox = this.sandboxes[account];
    return (
      !!stored &&
      (stored.token === sandbox.token || sandbox.otherKeys.has(stored.token) || sandbox.oauth.accepts(stored.token))
    );
  }

  /** How many answers each panel had sent when the current session began. */
  private answersSeen: Record<Account, number> = { A: 0, B: 0 };

  /**
   * Whether the account's panel itself refused this session since it began: a 401, or a refresh
   * token its token endpoint refused (also one a stopped worker's renewal had rotated away, which
   * the server takes for a replay).
   */
  panelRefused(account: Account): boolean {
    return this.sandboxes[account].answers
      .slice(this.answersSeen[account])
      .some((a) => a.status === 401 || (a.path === '/oauth/token' && a.status === 400));
  }

  async fault(account: Account, rule: FaultRule): Promise<void> {
    const response = await fetch(`${this.sandboxes[account].url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify(rule),
    });
    if (!response.ok) throw new Error(`fault refused: ${await response.text()}`);
  }

  /**
   * Runs `send` with `rule` (if any) armed at `account`'s panel and counts the requests `aimed` picks
   * that reached it meanwhile. When none did (the worker stopped first, or refused the step), the
   * panel's faults are taken back, so an unreached one never meets the next step's request.
   */
  async withFault<T>(
    account: Account,
    rule: FaultRule | null | undefined,
    aimed: (r: RecordedRequest) => boolean,
    send: () => Promise<T>,
  ): Promise<{ reply: T; sent: number }> {
    if (rule) await this.fault(account, rule);
    const sent = () => this.sandboxes[account].requests.filter(aimed).length;
    const before = sent();
    const reply = await send();
    const count = sent() - before;
    if (rule && count === 0) await this.clearFaults(account);
    return { reply, sent: count };
  }

  async control(account: Account, path: string): Promise<void> {
    await fetch(`${this.sandboxes[account].url}/__sandbox${path}`, { method: 'POST' });
  }

  /** Whether a refusal arranged earlier (a 401, a refused refresh) is still waiting for a request of the account's panel. */
  async pendingRefusal(account: Account): Promise<boolean> {
    const response = await fetch(`${this.sandboxes[account].url}/__sandbox/faults`);
    const { faults } = (await response.json()) as { faults: FaultRule[] };
    return faults.some((rule) => rule.status === 401 || (rule.path === '/oauth/token' && rule.status === 400));
  }

  /** Everything the panels had in hand has been answered (or committed), and storage is still. */
  async settled(): Promise<void> {
    await Promise.all(Object.values(this.sandboxes).map((s) => s.idle()));
    // Checks are minutes apart; a history that lags the balance by seconds has caught up by then
    // (by the lag each panel has now: a test may change it during a run).
    await sleep(5 + Math.max(0, ...Object.values(this.sandboxes).map((s) => s.state.historyLagMs)));
    await this.storage.drain();
  }

  /** An id as the panels wrote it (wire-ids.ts), as the sandboxes hold it. */
  localId(id: string | number): number {
    return this.settings?.ids && this.settings.ids !== 'numbers'
      ? (stateId(String(id), this.settings.ids) ?? Number.NaN)
      : Number(id);
  }

  /** A redemption the panel made, whole, as the extension keys it (utils/ids.ts): id, reward and instant. */
  keyOf(r: { id: number; rewardId: number; createdAt: string }): string {
    return `${this.wireId(r.id)} ${this.wireId(r.rewardId)} ${instantOf(r.createdAt) ?? r.createdAt}`;
  }

  /** A reward's id as the extension shows it and a page sends it: as the panel wrote it. */
  wireId(id: number): string {
    return wireId(id, this.settings.ids);
  }

  /**
   * A Confirm as the popup sends it: for the session storage shows and at the points cost its
   * catalogue lists (the panel's own when none is stored yet), the reward's id as the panel wrote it.
   */
  async order(account: Account, rewardId: number, confirmUnsettled: boolean) {
    const id = this.wireId(rewardId);
    const listed = (await this.items.rewardsItem.getValue())?.data.rewards.find((r) => r.id === id);
    const panel = this.sandbox(account).state.rewards.find((r) => r.id === rewardId)?.reward_point_cost;
    return {
      session: (await this.items.sessionItem.getValue()).id ?? '',
      rewardId: id,
      points: listed?.reward_point_cost ?? panel ?? 0,
      confirmUnsettled,
    };
  }

  /**
   * A Confirm as the popup sends it (order), and what its answer must hold: carried out only at the
   * cost it was confirmed at, and never for a reward the panel's catalogue gives no cost or two
   * costs (when it still does as the answer comes: it may have healed meanwhile).
   */
  async confirm(account: Account, rewardId: number, confirmUnsettled: boolean) {
    const order = await this.order(account, rewardId, confirmUnsettled);
    const odd = this.listed[account].has(rewardId);
    const reply = await this.worker.send('redeem', order);
    if (reply.ok) {
      const entry = reply.data as LedgerEntry;
      if (entry.points !== order.points)
        this.violations.push(`a Confirm at ${order.points} points was carried out at ${String(entry.points)}`);
      if (odd && this.listed[account].has(rewardId))
        this.violations.push(`a Confirm of reward ${rewardId}, which the catalogue gives no or two costs, was sent`);
    }
    return reply;
  }

  /** Redemptions the panels deleted (cancelled) in this run, per account and reward. */
  readonly deleted: Record<Account, Map<number, number>> = { A: new Map(), B: new Map() };
  /** Those redemptions, whole (keyOf): a redemption made the same (id, reward, instant) is none the history can tell apart. */
  readonly deletedKeys = new Set<string>();
  /** A panel's clock standing at a deleted redemption's second, for the step after it. */
  pinned: Record<Account, Date | null> = { A: null, B: null };
  /** Rewards whose catalogue record a step made odd (no cost, or listed twice), with the record as it was. */
  listed: Record<Account, Map<number, Reward>> = { A: new Map(), B: new Map() };

  /**
   * The panel cancels and deletes the account's newest redemption it made in this run (not a
   * seeded one; of `rewardId` when given); numbering max + 1, it gives that id to the next one.
   * `sameSecond`: its clock stands at that redemption's second until the next step ends.
   */
  deleteNewest(account: Account, sameSecond = false, rewardId?: number): void {
    const state = this.sandboxes[account].state;
    const seededIds = new Set((account === 'A' ? SEED_A : SEED_B).redemptions.map((r) => r.id));
    const newest = [...state.redemptions]
      .reverse()
      .find(
        (r) =>
          !seededIds.has(r.id) &&
          !this.sharedSeed(account, r.id) &&
          (rewardId === undefined || r.reward.id === rewardId),
      );
    if (!newest) return;
    state.redemptions = state.redemptions.filter((r) => r !== newest);
    const made = this.sandboxes[account].made;
    const record = [...made].reverse().find((r) => r.id === newest.id && r.rewardId === newest.reward.id);
    if (record) this.deletedMade.add(record);
    this.deletedKeys.add(this.keyOf({ id: newest.id, rewardId: newest.reward.id, createdAt: newest.created_at }));
    const deleted = this.deleted[account];
    deleted.set(newest.reward.id, (deleted.get(newest.reward.id) ?? 0) + 1);
    if (!sameSecond) return;
    this.pinned[account] = new Date(Date.parse(instantOf(newest.created_at) ?? '') || Date.now());
    this.pinnedFor[account] = 2;
  }

  /** Steps left before a panel's clock runs again. */
  private pinnedFor: Record<Account, number> = { A: 0, B: 0 };

  /** A step ended: a clock pinned for the step after a deletion runs again once that step is over. */
  stepEnded(): void {
    for (const account of ['A', 'B'] as const) {
      if (this.pinnedFor[account] > 0 && --this.pinnedFor[account] === 0) this.pinned[account] = null;
    }
  }

  /** The panel writes every created_at it holds another way: the same instants. */
  respell(account: Account, spelling: Spelling): void {
    for (const r of this.sandboxes[account].state.redemptions) r.created_at = spelled(r.created_at, spelling);
  }

  /** The panel's catalogue gives `rewardId` no points cost, lists it twice at two costs, or heals. */
  oddCatalogue(account: Account, rewardId: number, kind: 'nullCost' | 'twice' | 'heals'): void {
    const state = this.sandboxes[account].state;
    const original = this.listed[account].get(rewardId);
    if (original) {
      // Heal first: one oddity at a time, back to the record as it was.
      state.rewards = [...state.rewards.filter((r) => r.id !== rewardId), original];
      this.listed[account].delete(rewardId);
    }
    if (kind === 'heals') return;
    const reward = state.rewards.find((r) => r.id === rewardId);
    if (!reward || reward.reward_point_cost === null) return;
    this.listed[account].set(rewardId, structuredClone(reward));
    if (kind === 'nullCost') reward.reward_point_cost = null;
    else state.rewards.push({ ...structuredClone(reward), reward_point_cost: reward.reward_point_cost + 100 });
  }

  /** Under shared numbering, B's seeded redemptions carry A's seeded ids. */
  private sharedSeed(account: Account, id: number): boolean {
    return account === 'B' && this.settings.sharedNumbering && SEED_A.redemptions.some((r) => r.id === id);
  }

  private fetching = 0;
  private lastActive = 0;

  /** A request of the worker leaves (+1) or is answered (-1). */
  busy(change: number): void {
    this.fetching += change;
    this.lastActive = Date.now();
  }

  /** How many times each notification was shown. */
  notified(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { id } of this.shown) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  }

  /** For a failure's message: what was still going on. */
  describeActivity(): string {
    const now = Date.now();
    return `now ${now}, requests out ${this.fetching}, last request ${now - this.lastActive} ms ago, last storage call ${now - this.storage.lastActive} ms ago, worker ${this.worker.dead ? 'stopped' : 'running'}`;
  }

  /**
   * The worker has nothing left to do: no request out, storage still, and nothing new for a while
   * (work it started without waiting, such as the refreshes connecting warms, has begun and ended).
   */
  async quiet(): Promise<void> {
    for (;;) {
      await this.settled();
      if (this.fetching === 0 && Date.now() - Math.max(this.lastActive, this.storage.lastActive) > TIMEOUT_MS) return;
      await sleep(TIMEOUT_MS / 2);
    }
  }

  /** Takes back every fault armed at `account`'s panel, or at both (one a request never reached must not meet the next). */
  async clearFaults(account?: Account): Promise<void> {
    const sandboxes = account ? [this.sandboxes[account]] : Object.values(this.sandboxes);
    await Promise.all(sandboxes.map((s) => fetch(`${s.url}/__sandbox/faults`, { method: 'DELETE' })));
  }

  /** What the account's panel made since the run began, and which request made each. */
  made(account: Account): readonly MadeRedemption[] {
    return this.sandboxes[account].made.filter((r) => !this.deletedMade.has(r));
  }

  /** What the account's panel made since the run began, those it deleted since included. */
  madeEver(account: Account): readonly MadeRedemption[] {
    return this.sandboxes[account].made;
  }

  /** What the panels made and then deleted: a Confirm whose redemption was cancelled may end not found. */
  private readonly deletedMade = new Set<MadeRedemption>();

  /** When the account's panel last sent an answer to a request carrying `key` (null: none left). */
  answeredAt(account: Account, key: string | undefined): number | null {
    const answers = this.sandboxes[account].answers.filter((a) => key !== undefined && a.key === key);
    return answers.length > 0 ? Math.max(...answers.map((a) => a.at)) : null;
  }

  /**
   * Another client of the same account (the panel's website, another device) redeems a reward,
   * with no `Idempotency-Key`: a redemption the extension must never take for a repeat of its own
   * unless it could not tell them apart (the same history read first showing both).
   */
  async redeemElsewhere(account: Account, rewardId: number): Promise<void> {
    const sandbox = this.sandboxes[account];
    await fetch(`${sandbox.url}/v1/panel/redemption?id=${this.wireId(rewardId)}`, {
      headers: { Authorization: `Bearer ${sandbox.token}` },
    });
  }

  /** Redemptions of `rewardId` the account's sandbox made since the run began (those it deleted since included). */
  commits(account: Account, rewardId: number): number {
    const now = this.sandboxes[account].state.redemptions.filter((r) => r.reward.id === rewardId).length;
    return now + (this.deleted[account].get(rewardId) ?? 0) - (this.seeded[account].get(rewardId) ?? 0);
  }

  /** Storage: its quota, and calls that answer late, out of order, and never for a stopped worker. */
  readonly storage = new ModelStorage(
    () => this.jitter,
    (key, value) => this.stored(key, value),
  );

  /** Access and refresh tokens each session stored, by session id: a token is the session's that stored it last. */
  private tokens = new Map<string, string>();
  private activeId: string | undefined;

  private stored(key: string, value: unknown): void {
    if (key === 'session') this.activeId = (value as SessionInfo | null)?.id;
    if (key === NOTIFY_STATE_KEY) {
      const told = (value as { told?: string[] } | null)?.told ?? [];
      for (const id of told)
        if (!this.toldList.includes(id)) this.recorded.set(id, [...(this.recorded.get(id) ?? []), this.activeId]);
      this.toldList = told;
    }
    if (key !== 'credentials' || !value) return;
    const { session, token, refreshToken } = value as { session: string; token: string; refreshToken?: string };
    this.tokens.set(token, session);
    if (refreshToken) this.tokens.set(refreshToken, session);
  }

  /** Patched once per process: fetch and storage.local go through the world. */
  private install(): void {
    const realFetch = globalThis.fetch;
    // oxlint-disable-next-line typescript/no-this-alias -- fetch's stand-in is a named function (modelFetch in stacks)
    const world = this;
    globalThis.fetch = async function modelFetch(input: RequestInfo | URL, init?: RequestInit) {
      const worker = scope.getStore();
      if (!worker) return realFetch(input, init);
      // Checked the moment the request is handed to fetch; the way there and back takes its time.
      if (!worker.call()) return never<Response>();
      world.leaving(input, init);
      world.busy(+1);
      let response: Response | null = null;
      try {
        await world.jitter.wait();
        if (!worker.dead) response = await realFetch(input, init);
        await world.jitter.wait();
      } finally {
        world.busy(-1);
      }
      // A stopped worker hears nothing back.
      return response && !worker.dead ? response : never<Response>();
    };
    this.storage.install(() => scope.getStore());
  }

  /** After a session change, no request leaves with a token an earlier session stored. */
  private leaving(input: RequestInfo | URL, init?: RequestInit): void {
    const headers = new Headers(init?.headers);
    const bearer = /^Bearer (.+)$/.exec(headers.get('authorization') ?? '')?.[1];
    const refresh = typeof init?.body === 'string' ? new URLSearchParams(init.body).get('refresh_token') : null;
    for (const token of [bearer, refresh]) {
      const owner = token ? this.tokens.get(token) : undefined;
      if (owner !== undefined && owner !== this.activeId && token !== this.connecting) {
        this.violations.push(
          `a request to ${String(input)} left with the token of ended session ${owner} (active: ${this.activeId ?? 'none'})`,
        );
      }
    }
  }

  private installBrowser(): void {
    this.shown = fakeNotifications();
    installIdentity(actAsPanelist);
  }

  /** Every state the ledger (or its lists of outcomes) ever showed, per confirmation. */
  private observeLedger(): void {
    const { ledgerItem, unsettledItem, settledItem } = this.items;
    const open = (state: LedgerEntry['state']) => state === 'pending' || state === 'unknown';
    const seen = (entry: LedgerEntry) => {
      const known = this.confirmations.get(entry.requestId);
      if (known?.abandoned) {
        known.resurrected = true;
        return;
      }
      const reopened = known !== undefined && !open(known.state) && open(entry.state);
      const duplicates = entry.duplicates ?? [];
      const named = known?.named ?? (entry.redemption ? { at: Date.now(), duplicates } : undefined);
      const renamed = known?.renamed === true || (named !== undefined && !sameIds(named.duplicates, duplicates));
      this.confirmations.set(entry.requestId, {
        requestId: entry.requestId,
        key: entry.idempotencyKey,
        account: isAccountB(this.localId(entry.rewardId)) ? 'B' : 'A',
        rewardId: this.localId(entry.rewardId),
        state: entry.state,
        nothingCharged: entry.error?.nothingCharged === true,
        ...(entry.error?.status !== undefined ? { errorStatus: entry.error.status } : {}),
        duplicates: entry.duplicates?.length ?? 0,
        wasUnknown: known?.wasUnknown === true || entry.state === 'unknown',
        startedAt: entry.startedAt,
        ...(entry.redemption ? { claimed: redemptionKey(entry.redemption) } : {}),
        abandoned: false,
        ...(known?.reopened || reopened ? { reopened: true } : {}),
        ...(named ? { named } : {}),
        ...(renamed ? { renamed: true } : {}),
      });
    };
    ledgerItem.watch((entry) => entry && seen(entry));
    unsettledItem.watch((entries) => entries.forEach(seen));
    settledItem.watch((entries) => entries.forEach(seen));
  }
}

/**
 * storage.local as the browser runs it, slowed down: calls take effect one after another in the
 * order they were made (Chrome runs them on one sequence, Firefox's IndexedDB transactions in
 * order of creation), each after a random delay, and each caller hears back after another random
 * delay, so answers come back in any order. A stopped worker's calls never take effect nor answer.
 * With a quota, a `set` that would take storage over it is refused as Chrome refuses it.
 */
class ModelStorage {
  /** Bytes allowed in all (null: no limit). */
  quota: number | null = null;
  /** When a call last took effect (epoch ms). */
  lastActive = 0;
  private effects: Promise<unknown> = Promise.resolve();
  private sizes = new Map<string, number>();

  constructor(
    private readonly jitter: () => Jitter,
    private readonly onStored: (key: string, value: unknown) => void,
  ) {}

  reset(): void {
    this.quota = null;
    this.sizes.clear();
  }

  usage(): number {
    let total = 0;
    for (const [key, size] of this.sizes) total += key.length + size;
    return total;
  }

  /** Resolves once every call made so far has taken effect. */
  drain(): Promise<void> {
    return this.effects.then(() => undefined);
  }

  /**
   * `keys` as storage holds them at one instant (every call made so far has taken effect, no later
   * one has), with `alongside` read in that same turn: an invariant over storage and what the
   * background keeps outside it (its alarms) then sees one moment, not storage at one and the
   * alarms at another while the background works on in between.
   */
  instant<T>(keys: string[], alongside: () => Promise<T>): Promise<{ stored: Record<string, unknown>; alongside: T }> {
    const local = fakeBrowser.storage.local as unknown as {
      unmodelledGet: (keys: string[]) => Promise<Record<string, unknown>>;
    };
    const effect = this.effects.then(async () => {
      const [stored, also] = [local.unmodelledGet.call(fakeBrowser.storage.local, keys), alongside()];
      return { stored: await stored, alongside: await also };
    });
    this.effects = effect.catch(() => undefined);
    return effect;
  }

  install(current: () => Worker | undefined): void {
    const local = fakeBrowser.storage.local as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> & {
      modelled?: boolean;
    };
    if (local.modelled) return;
    local.modelled = true;
    const original = { get: local.get!, set: local.set!, remove: local.remove!, clear: local.clear! };
    Object.assign(local, { unmodelledGet: original.get });
    const call =
      (name: keyof typeof original) =>
      (...args: unknown[]) => {
        const worker = current();
        if (worker && !worker.call()) return never();
        const effect = this.effects.then(async () => {
          await this.jitter().wait();
          if (worker?.dead) return { dropped: true as const };
          this.lastActive = Date.now();
          if (name === 'set') this.admit(args[0] as Record<string, unknown>);
          const value = await original[name].apply(fakeBrowser.storage.local, args);
          this.account(name, args[0]);
          return { value };
        });
        this.effects = effect.catch(() => undefined);
        return effect.then(async (done) => {
          await this.jitter().wait();
          if ('dropped' in done || worker?.dead) return never();
          return done.value;
        });
      };
    local.get = call('get');
    local.set = call('set');
    local.remove = call('remove');
    local.clear = call('clear');
  }

  /** Refuses a write that would take storage over its quota, as Chrome does (nothing of it is written). */
  private admit(items: Record<string, unknown>): void {
    if (this.quota === null) return;
    const after = new Map(this.sizes);
    for (const [key, value] of Object.entries(items)) {
      if (value === null) after.delete(key);
      else if (value !== undefined) after.set(key, JSON.stringify(value).length);
    }
    let total = 0;
    for (const [key, size] of after) total += key.length + size;
    if (total > this.quota) throw new Error('QUOTA_BYTES quota exceeded');
  }

  private account(name: string, arg: unknown): void {
    if (name === 'set') {
      for (const [key, value] of Object.entries(arg as Record<string, unknown>)) {
        if (value === undefined) continue;
        if (value === null) this.sizes.delete(key);
        else this.sizes.set(key, JSON.stringify(value).length);
        this.onStored(key, value);
      }
    } else if (name === 'remove') {
      for (const key of Array.isArray(arg) ? arg : [arg]) {
        this.sizes.delete(key as string);
        this.onStored(key as string, null);
      }
    } else if (name === 'clear') {
      for (const key of this.sizes.keys()) this.onStored(key, null);
      this.sizes.clear();
    }
  }
}

const sameIds = (a: ReadonlyArray<number | string>, b: ReadonlyArray<number | string>) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

function countByReward(sandbox: Sandbox): Map<number, number> {
  const counts = new Map<number, number>();
  for (const r of sandbox.state.redemptions) counts.set(r.reward.id, (counts.get(r.reward.id) ?? 0) + 1);
  return counts;
}
