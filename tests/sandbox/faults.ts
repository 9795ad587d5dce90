/**
 * Injected faults. Rules are matched in the order they were added; each one expires after
 * `times` matching requests. A rule with `status` or `body` answers instead of the real handler,
 * so the state does not change (status defaults to 200 when only a body is given; the body to a
 * JSON message when only a status is). A rule with only `delayMs` and/or `headers` delays the
 * real answer and/or adds headers to it. With `commit`, the real handler makes its change first and
 * the rule's answer (or drop) replaces its response. Control paths (/__sandbox) are never faulted.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeRaw } from './http-util';
import type { FaultRule } from './types';

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
}

export class FaultStore {
  private rules: ActiveRule[] = [];
  /** Requests a `held` rule keeps waiting, each let through by release(). */
  private waiting: Array<() => void> = [];

  add(rule: FaultRule): void {
    this.rules.push({ rule, remaining: rule.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** Resolves when release() is called (or `signal` ends the wait). */
  hold(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // An AbortError, as a cut-short delay gives: the handler then drops the connection.
      const cut = () => reject(new DOMException('The sandbox was reset or closed', 'AbortError'));
      if (signal.aborted) return cut();
      this.waiting.push(resolve);
      signal.addEventListener('abort', cut, { once: true });
    });
  }

  /** Lets every held request through; says how many there were. */
  release(): number {
    const released = this.waiting.splice(0);
    for (const resolve of released) resolve();
    return released.length;
  }

  /** Rules still active, with how many matches each has left. */
  list(): (FaultRule & { remaining: number })[] {
    return this.rules.map(({ rule, remaining }) => ({ ...rule, remaining }));
  }

  /** The first rule matching the request, counted as used. */
  take(method: string, path: string): FaultRule | undefined {
    const index = this.rules.findIndex(({ rule }) => matches(rule, method, path));
    const active = this.rules[index];
    if (!active) return undefined;
    active.remaining -= 1;
    if (active.remaining <= 0) this.rules.splice(index, 1);
    return active.rule;
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  // A rule without a method ignores CORS preflights: otherwise a browser's preflight would use
  // up a one-shot fault meant for the real request that follows it.
  const methodMatches = rule.method === undefined ? method !== 'OPTIONS' : rule.method.toUpperCase() === method;
  return methodMatches && (rule.path === undefined || rule.path === path);
}

/**
 * Runs a matched rule: waits, then drops the connection or answers in place of the handler.
 * 'continue' means the real handler should answer (with the rule's headers added).
 * `signal` cuts the wait short when the sandbox closes.
 */
export async function applyFault(
  rule: FaultRule,
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal,
  commit: () => void,
): Promise<'answered' | 'continue'> {
  if (rule.delayMs) await sleep(rule.delayMs, undefined, { signal });
  if (rule.commit) commit();
  if (rule.drop) {
    req.socket.destroy();
    return 'answered';
  }
  if (rule.status === undefined && rule.body === undefined) return 'continue';
  const status = rule.status ?? 200;
  const body = rule.body ?? JSON.stringify({ message: `Sandbox fault: HTTP ${status}` });
  writeRaw(res, status, body, rule.headers ?? {});
  return 'answered';
}
