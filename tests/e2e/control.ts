/** Test-side access to the sandbox's /__sandbox controls and to the extension's worker state. */
import type { FaultRule, RecordedRequest, SandboxState } from '../sandbox/server';
import type { ExtensionSession } from './harness';

export async function control<T>(
  ext: Pick<ExtensionSession, 'sandbox'>,
  path: string,
  method = 'GET',
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${ext.sandbox.url}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const serverState = (ext: Pick<ExtensionSession, 'sandbox'>) => control<SandboxState>(ext, '/state');
export const injectFault = (ext: Pick<ExtensionSession, 'sandbox'>, rule: FaultRule) =>
  control(ext, '/faults', 'POST', rule);

/** API requests the sandbox received for `path` (preflights not counted). */
export async function requestCount(ext: Pick<ExtensionSession, 'sandbox'>, path: string): Promise<number> {
  const { requests } = await control<{ requests: RecordedRequest[] }>(ext, '/requests');
  return requests.filter((r) => r.path === path && r.method !== 'OPTIONS').length;
}

/** A storage.local value as the worker sees it. */
export async function stored<T>(ext: ExtensionSession, key: string): Promise<T | undefined> {
  const sw = await ext.worker();
  return sw.evaluate(async (k) => (await chrome.storage.local.get(k))[k], key) as Promise<T | undefined>;
}

/**
 * Puts a redemption outcome of `rewardName` in the ledger as the background stores it, for the
 * states that take the background minutes to reach (checks 30 s to 30 min apart); null clears it.
 * Every redemption the sandbox has is marked known, so no history read settles it meanwhile.
 * `answer`: what the panel answered to the request (none: no clear answer was kept).
 */
export async function setLedger(
  ext: ExtensionSession,
  rewardName: string,
  state: 'unknown' | 'not_found' | null,
  answer?: 'success',
): Promise<void> {
  const reward = ext.sandbox.state.rewards.find((r) => r.name === rewardName)!;
  const entry =
    state === null
      ? null
      : {
          // Its own id for each kind: a card an earlier opening saw is not shown again.
          requestId: `test-${state}${answer ? `-${answer}` : ''}`,
          // Ids as the extension keeps them: the exact digits (utils/ids.ts).
          rewardId: String(reward.id),
          rewardName,
          points: reward.reward_point_cost,
          startedAt: Date.now() - 60_000,
          knownRedemptionIds: ext.sandbox.state.redemptions.map((r) => String(r.id)),
          state,
          ...(answer ? { answer } : {}),
          checks:
            state === 'unknown' ? { done: 1, nextAt: Date.now() + 90_000, lastAt: Date.now() - 30_000 } : undefined,
          // The balance read before sending and as it settled, unmoved: not found means most likely not made.
          ...(state === 'not_found'
            ? { balanceBefore: ext.sandbox.state.balance, balanceAfter: ext.sandbox.state.balance }
            : {}),
        };
  await (await ext.worker()).evaluate((value) => chrome.storage.local.set({ ledger: value }), entry);
}
