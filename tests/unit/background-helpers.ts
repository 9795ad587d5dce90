import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { httpTuning } from '../../entrypoints/background/auth/api';
import { credentialsItem, type Credentials } from '../../entrypoints/background/store/credentials';
import { CHECK_AFTER_MS, CHECK_ALARM, onCheckAlarm, redeem } from '../../entrypoints/background/redemption/service';
import type { RewardId } from '../../utils/ids';
import { rewardsItem, sessionItem, syncItem, type LedgerEntry } from '../../utils/storage-items';
import { startSandbox, type FaultRule, type Sandbox } from '../sandbox/server';
import { SEED_A, SEED_B } from './accounts';

/**
 * Puts the background in the connected state for `sandbox` without going through connect(): the
 * credentials and the session item naming the same new session, as one write. Returns its id.
 */
export async function connectTo(sandbox: Sandbox, extra: Partial<Credentials> = {}): Promise<string> {
  const id = crypto.randomUUID();
  await fakeBrowser.storage.local.set({
    [credentialsItem.key]: { session: id, baseUrl: sandbox.url, token: sandbox.token, ...extra },
    [sessionItem.key]: {
      connected: true,
      baseUrl: sandbox.url,
      origin: sandbox.url,
      tokenHint: (extra.token ?? sandbox.token).slice(-4),
      rejected: false,
      ...(extra.refreshToken ? { signedIn: true } : {}),
      id,
    },
  });
  return id;
}

/**
 * Waits for the reads a connect starts once it has answered (the catalogue, the history, the
 * profile: session/session.ts) to have landed or failed: each area's sync state, emptied by the
 * switch, says it was tried and is no longer loading.
 */
export async function firstReadsDone(): Promise<void> {
  await vi.waitFor(
    async () => {
      const sync = await syncItem.getValue();
      const waiting = (['rewards', 'history', 'profile'] as const).filter(
        (area) => sync[area].loading || sync[area].attemptedAt === 0,
      );
      if (waiting.length) throw new Error(`not read yet after connecting: ${waiting.join(', ')}`);
    },
    { timeout: 20_000, interval: 10 },
  );
}

/** The active session's id, as the background stores it. */
export async function activeSessionId(): Promise<string> {
  const id = (await sessionItem.getValue()).id;
  if (!id) throw new Error('not connected');
  return id;
}

/**
 * A Confirm as the popup sends it: for the session the popup shows, at the cost its catalogue
 * states (the stored one, else the sandbox's seed), unless the test names another.
 */
export async function redeemNow(rewardId: RewardId, confirmUnsettled = false, points?: number): Promise<LedgerEntry> {
  const session = await activeSessionId();
  const listed = (await rewardsItem.getValue())?.data.rewards.find((r) => r.id === rewardId)?.reward_point_cost;
  const seeded = [...SEED_A.rewards, ...SEED_B.rewards].find((r) => String(r.id) === rewardId)?.reward_point_cost;
  const cost = points ?? listed ?? seeded;
  if (typeof cost !== 'number') throw new Error(`no cost known for reward ${rewardId}`);
  return redeem({ rewardId, session, points: cost, confirmUnsettled });
}

export const OWN_PAGE = { id: 'test-extension-id', url: 'chrome-extension://test-extension-id/popup.html' };

/** Sends a message the way @webext-core/messaging frames it, from `sender`, and returns the reply. */
export async function deliver(type: string, data: unknown, sender: object = OWN_PAGE): Promise<unknown> {
  let reply!: (value: unknown) => void;
  const replied = new Promise((resolve) => (reply = resolve));
  // The listener answers through `reply`, awaited below; the values trigger hands back are not the answer.
  // oxlint-disable-next-line typescript/no-floating-promises
  await fakeBrowser.runtime.onMessage.trigger({ id: 1, type, data, timestamp: Date.now() }, sender, reply);
  const framed = (await replied) as { res?: unknown; err?: unknown };
  return framed.res;
}

export function apiRequests(sandbox: Sandbox, path: string): number {
  return sandbox.requests.filter((r) => r.path === path && r.method !== 'OPTIONS').length;
}

/**
 * Registers the hooks the background tests share: one sandbox per file, and before each test
 * fresh fake storage, a reset sandbox and stored credentials for it. `tuning` sets the client's
 * time-outs and retries for the file (as httpTuning takes it), given back after it.
 */
export function connectedSandbox(tuning?: Partial<typeof httpTuning>): { sandbox: Sandbox } {
  const env = {} as { sandbox: Sandbox };
  beforeAll(async () => {
    if (tuning) Object.assign(httpTuning, tuning);
    env.sandbox = await startSandbox();
  });
  afterAll(() => (tuning ? closeSandboxes(env.sandbox) : env.sandbox.close()));
  beforeEach(async () => {
    fakeBrowser.reset();
    env.sandbox.reset();
    await connectTo(env.sandbox);
  });
  return env;
}

/**
 * Two panels with an account each (SEED_A, SEED_B: other rewards, history and balance), and the
 * client's time-outs and retries set for the test file (`tuning`, as httpTuning takes it).
 */
export async function startTwoAccounts(tuning: Partial<typeof httpTuning>): Promise<{ a: Sandbox; b: Sandbox }> {
  Object.assign(httpTuning, tuning);
  const [a, b] = await Promise.all([
    startSandbox({ seed: SEED_A, token: 'token-account-a' }),
    startSandbox({ seed: SEED_B, token: 'token-account-b' }),
  ]);
  return { a, b };
}

/**
 * The hooks a file of ledger tests against two accounts starts from: the two panels started once
 * with `tuning` (3 s time-outs, retries at once, unless given; `use` receives them) and closed after; before each test a fresh browser, account
 * A's panel reset and notifications faked, then `each` (connecting, slowing storage…), whose
 * returned undo runs after the test, and every spy restored.
 */
export function twoAccountHooks(
  use: (accounts: { a: Sandbox; b: Sandbox }) => void,
  each: () => Promise<(() => void) | void>,
  tuning: Partial<typeof httpTuning> = { timeoutMs: 3000, retryBaseDelayMs: 1 },
): void {
  let accounts: { a: Sandbox; b: Sandbox };
  let undo: (() => void) | void;
  beforeAll(async () => {
    accounts = await startTwoAccounts(tuning);
    use(accounts);
  });
  afterAll(() => closeSandboxes(accounts.a, accounts.b));
  beforeEach(async () => {
    fakeBrowser.reset();
    accounts.a.reset();
    fakeNotifications();
    undo = await each();
  });
  afterEach(() => {
    undo?.();
    vi.restoreAllMocks();
  });
}

/**
 * Waits for `condition`, looking every 5 ms, then asserts it: state arrives late, and on a busy
 * machine much later than on a quiet one. The bound is by the clock (10 s), not by a count of
 * looks, which a loaded machine stretches; it only ends a wait for a state that never comes.
 */
export async function until(condition: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

/** Gives the client its own time-outs and retries back, and closes the sandboxes. */
export async function closeSandboxes(...sandboxes: Sandbox[]): Promise<void> {
  for (const key of Object.keys(httpTuning)) delete httpTuning[key as keyof typeof httpTuning];
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
}

/** Arms a fault at the sandbox: the next matching request meets it. */
export async function armFault(sandbox: Sandbox, rule: FaultRule): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
  if (!response.ok) throw new Error(`fault refused: ${await response.text()}`);
}

/** Lets the requests a `held` fault keeps waiting at `sandbox` through: the panel answers them now. */
export async function releaseHeld(sandbox: Sandbox): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/release`, { method: 'POST' });
  if (!response.ok) throw new Error(`release refused: ${await response.text()}`);
}

/**
 * Runs `work` with the client's time-out set to `ms`, then gives back the file's. A time-out is the
 * subject of the test that sets it, around the request that must time out (one the sandbox holds):
 * a short one for a whole file races every ordinary answer, which a loaded machine slows.
 */
export async function withClientTimeout<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const before = httpTuning.timeoutMs;
  httpTuning.timeoutMs = ms;
  try {
    return await work();
  } finally {
    if (before === undefined) delete httpTuning.timeoutMs;
    else httpTuning.timeoutMs = before;
  }
}

/** Fires the history-check alarm until none is left, as the browser would over half an hour. */
export async function runEveryCheck(): Promise<void> {
  for (let i = 0; i <= CHECK_AFTER_MS.length; i++) {
    const alarm = await fakeBrowser.alarms.get(CHECK_ALARM);
    if (!alarm) return;
    await fakeBrowser.alarms.clear(CHECK_ALARM);
    await onCheckAlarm(alarm);
  }
}

/** Every storage read answers `ms` later, as a real browser's may (2–7 ms). Returns the undo. */
export function slowReads(ms: number): () => void {
  const local = fakeBrowser.storage.local;
  const get = local.get.bind(local);
  local.get = (async (...args: Parameters<typeof get>) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return get(...args);
  }) as typeof local.get;
  return () => void (local.get = get);
}

export interface Shown {
  id: string;
  title: string;
  message: string;
}

/**
 * The notifications API in the fake browser: returns the list of notifications created, in order;
 * `granted` answers whether the permission is held. Events the fake browser leaves unimplemented are
 * stubbed (clicks are checked in Chromium, tests/e2e/notifications.test.ts).
 */
export function fakeNotifications(granted: () => boolean = () => true): Shown[] {
  const shown: Shown[] = [];
  // The notification centre: what is on screen now (getAll), as create and clear leave it.
  const centre = new Set<string>();
  const spies: Array<{ mockClear(): unknown }> = [
    vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async () => granted()),
    vi.spyOn(fakeBrowser.notifications, 'create').mockImplementation((async (
      id: string,
      options: { title: string; message: string },
    ) => {
      shown.push({ id, title: options.title, message: options.message });
      centre.add(id);
      return id;
    }) as never),
    vi
      .spyOn(fakeBrowser.notifications, 'getAll')
      .mockImplementation(async () => Object.fromEntries([...centre].map((id) => [id, true]))),
    vi.spyOn(fakeBrowser.notifications, 'clear').mockImplementation(async (id: string) => centre.delete(id)),
  ];
  for (const event of [fakeBrowser.permissions.onAdded, fakeBrowser.notifications.onClicked]) {
    spies.push(
      vi.spyOn(event, 'addListener').mockImplementation(() => undefined),
      vi.spyOn(event, 'removeListener').mockImplementation(() => undefined),
      vi.spyOn(event, 'hasListener').mockImplementation(() => false),
    );
  }
  // A spy outlives fakeBrowser.reset() and the next spyOn reuses it: what it recorded would keep
  // every listener ever added, and with them every worker's modules (the model test's soak ran
  // out of heap at about half a megabyte a run).
  for (const spy of spies) spy.mockClear();
  return shown;
}
