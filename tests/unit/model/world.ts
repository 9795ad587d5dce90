/**
 * The real background, two sandbox accounts over real HTTP, and workers that can be stopped: what
 * the model-based test (background-model.test.ts) drives and observes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Result } from '../../../utils/messages';
import type { LedgerEntry, SessionInfo } from '../../../utils/storage-items';
import { startSandbox, type FaultRule, type Sandbox } from '../../sandbox/server';
import { SEED_A, SEED_B } from '../accounts';

export type Account = 'A' | 'B';

/** Short but real: a redeem the sandbox holds longer than TIMEOUT_MS is a lost answer. */
export const TIMEOUT_MS = 50;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = <T>() => new Promise<T>(() => undefined);

type Modules = {
  handlers: typeof import('../../../entrypoints/background/handlers');
  result: typeof import('../../../entrypoints/background/result');
  api: typeof import('../../../entrypoints/background/api');
  checks: typeof import('../../../entrypoints/background/redemption-checks');
  recover: typeof import('../../../entrypoints/background/recover');
  items: typeof import('../../../utils/storage-items');
  sync: typeof import('../../../entrypoints/background/sync');
};

/**
 * One run of the service worker: its own copy of every background module (module state is what a
 * stopped worker loses). Stopping it is final: its requests never answer back and its storage
 * writes never land, as when the browser kills a worker, even though this process goes on.
 */
class Worker {
  dead = false;
  private stopWatching: () => void = () => undefined;

  private constructor(readonly mods: Modules) {}

  static async start(): Promise<Worker> {
    vi.resetModules();
    const mods: Modules = {
      handlers: await import('../../../entrypoints/background/handlers'),
      result: await import('../../../entrypoints/background/result'),
      api: await import('../../../entrypoints/background/api'),
      checks: await import('../../../entrypoints/background/redemption-checks'),
      recover: await import('../../../entrypoints/background/recover'),
      items: await import('../../../utils/storage-items'),
      sync: await import('../../../entrypoints/background/sync'),
    };
    Object.assign(mods.api.httpTuning, { timeoutMs: TIMEOUT_MS, retryBaseDelayMs: 1, retries: 1, maxRetryAfterSeconds: 0 });
    const worker = new Worker(mods);
    // What index.ts does at start: the history watch, then recovering from the stopped worker.
    await worker.run(async () => {
      worker.stopWatching = mods.sync.onStored(
        (area, data, sid) =>
          void (area === 'history' && worker.run(() => mods.checks.checkOutcomes(null, { sid, history: data as never })).catch(() => undefined)),
      );
      await mods.recover.recoverAfterStop();
    });
    return worker;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return scope.run(this, work);
  }

  /** A message from a page, answered as the real handler table answers it. */
  send<T = unknown>(type: keyof Modules['handlers']['handlers'], data: unknown): Promise<Result<T>> {
    const handler = this.mods.handlers.handlers[type] as (d: unknown) => Promise<T>;
    return this.run(() => this.mods.result.asResult(() => handler(data)));
  }

  stop(): void {
    this.dead = true;
    this.stopWatching();
  }
}

const scope = new AsyncLocalStorage<Worker>();

/** Requests and storage writes of a stopped worker never complete. */
function gateOnWorker(): void {
  const realFetch = globalThis.fetch;
  if (!(realFetch as { gated?: boolean }).gated) {
    const gated = async (...args: Parameters<typeof fetch>) => {
      const worker = scope.getStore();
      if (worker?.dead) return never<Response>();
      const response = await realFetch(...args);
      if (worker?.dead) return never<Response>();
      return response;
    };
    globalThis.fetch = Object.assign(gated, { gated: true }) as typeof fetch;
  }
  const local = fakeBrowser.storage.local as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const name of ['set', 'remove', 'clear']) {
    const original = local[name]!;
    if ((original as { gated?: boolean }).gated) continue;
    local[name] = Object.assign(
      (...a: unknown[]) => (scope.getStore()?.dead ? never() : original.apply(fakeBrowser.storage.local, a)),
      { gated: true },
    );
  }
}

/** What became of each redemption the panelist confirmed, as the ledger told it. */
export interface Confirmation {
  requestId: string;
  account: Account;
  rewardId: number;
  state: LedgerEntry['state'];
  nothingCharged: boolean;
  errorStatus?: number;
  /** Still unsettled when its session ended: its outcome was never the new session's to tell. */
  abandoned: boolean;
  /** Seen in storage again after its session ended. */
  resurrected?: boolean;
}

export class World {
  worker!: Worker;
  account: Account | null = null;
  readonly confirmations = new Map<string, Confirmation>();
  /** Seeded redemptions per account and reward, so commits are counted from the sandbox itself. */
  private seeded!: Record<Account, Map<number, number>>;
  steps = 0;
  checks = 0;

  private constructor(readonly sandboxes: Record<Account, Sandbox>) {}

  static async create(): Promise<World> {
    const [a, b] = await Promise.all([
      startSandbox({ seed: SEED_A, token: 'model-token-a' }),
      startSandbox({ seed: SEED_B, token: 'model-token-b' }),
    ]);
    return new World({ A: a, B: b });
  }

  close(): Promise<unknown> {
    return Promise.all(Object.values(this.sandboxes).map((s) => s.close()));
  }

  /** A fresh browser profile connected to account A. */
  async begin(): Promise<void> {
    this.worker?.stop();
    fakeBrowser.reset();
    gateOnWorker();
    for (const sandbox of Object.values(this.sandboxes)) sandbox.reset();
    this.seeded = { A: countByReward(this.sandboxes.A), B: countByReward(this.sandboxes.B) };
    this.confirmations.clear();
    this.account = null;
    this.worker = await Worker.start();
    this.observeLedger();
    // Set-up, not under test: on a busy machine the first call may time out.
    for (let tries = 0; !(await this.connect('A')).ok; tries++) {
      if (tries === 20) throw new Error('could not connect to the sandbox to begin a run');
    }
  }

  get items(): Modules['items'] {
    return this.worker.mods.items;
  }

  sandbox(account: Account): Sandbox {
    return this.sandboxes[account];
  }

  async connect(account: Account): Promise<Result<SessionInfo>> {
    const sandbox = this.sandboxes[account];
    const reply = await this.worker.send<SessionInfo>('connect', { baseUrl: sandbox.url, token: sandbox.token });
    if (reply.ok) this.sessionChanged(account);
    return reply;
  }

  async disconnect(): Promise<void> {
    await this.worker.send('disconnect', undefined);
    this.sessionChanged(null);
  }

  async restart(): Promise<void> {
    this.worker.stop();
    this.worker = await Worker.start();
  }

  async fault(account: Account, rule: FaultRule): Promise<void> {
    const response = await fetch(`${this.sandboxes[account].url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(rule) });
    if (!response.ok) throw new Error(`fault refused: ${await response.text()}`);
  }

  /** Whether a 401 arranged earlier is still waiting for a request of the account's panel. */
  async pending401(account: Account): Promise<boolean> {
    const response = await fetch(`${this.sandboxes[account].url}/__sandbox/faults`);
    const { faults } = (await response.json()) as { faults: FaultRule[] };
    return faults.some((rule) => rule.status === 401);
  }

  /** Everything the panels had in hand has been answered (or committed). */
  async settled(): Promise<void> {
    await Promise.all(Object.values(this.sandboxes).map((s) => s.idle()));
    await sleep(5);
  }

  async clearFaults(): Promise<void> {
    await Promise.all(Object.values(this.sandboxes).map((s) => fetch(`${s.url}/__sandbox/faults`, { method: 'DELETE' })));
  }

  /** Redemptions of `rewardId` the account's sandbox made since the run began. */
  commits(account: Account, rewardId: number): number {
    const now = this.sandboxes[account].state.redemptions.filter((r) => r.reward.id === rewardId).length;
    return now - (this.seeded[account].get(rewardId) ?? 0);
  }

  private sessionChanged(account: Account | null): void {
    for (const c of this.confirmations.values()) {
      if (c.state === 'pending' || c.state === 'unknown') c.abandoned = true;
    }
    this.account = account;
  }

  /** Every state the ledger (or its list of unsettled outcomes) ever showed, per confirmation. */
  private observeLedger(): void {
    const { ledgerItem, unsettledItem, settledItem } = this.items;
    const seen = (entry: LedgerEntry) => {
      const known = this.confirmations.get(entry.requestId);
      if (known?.abandoned) {
        known.resurrected = true;
        return;
      }
      this.confirmations.set(entry.requestId, {
        requestId: entry.requestId,
        account: known?.account ?? this.account!,
        rewardId: entry.rewardId,
        state: entry.state,
        nothingCharged: entry.error?.nothingCharged === true,
        ...(entry.error?.status !== undefined ? { errorStatus: entry.error.status } : {}),
        abandoned: false,
      });
    };
    ledgerItem.watch((entry) => entry && seen(entry));
    unsettledItem.watch((entries) => entries.forEach(seen));
    settledItem.watch((entries) => entries.forEach(seen));
  }
}

function countByReward(sandbox: Sandbox): Map<number, number> {
  const counts = new Map<number, number>();
  for (const r of sandbox.state.redemptions) counts.set(r.reward.id, (counts.get(r.reward.id) ?? 0) + 1);
  return counts;
}
