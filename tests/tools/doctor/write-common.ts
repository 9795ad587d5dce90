/**
 * What the write checks share: their result, the exchange a write left as, how a failed write's
 * answer reads in a finding, and the balance as the extension reads it (design §2), read fresh.
 */
import type { PanelClient } from '../../../utils/api/client';
import { isImpossible, resolveBalance, type BodyBalance } from '../../../utils/balance';
import type { AppError } from '../../../utils/errors';
import type { StoredValues } from '../../../utils/types';
import { attempt } from './attempt';
import { bodyQuoted } from './body';
import type { Finding } from './report-types';
import type { Exchange, Wire } from './wire';

export interface CheckResult {
  findings: Finding[];
  /** Whether the answer was looked at (else the verdict says it was not). */
  checked: boolean;
  /** Why it was not, when it was not. */
  why?: string;
}

/** The last request of the extension's client with this method to this endpoint (not a redirect hop). */
export const lastOf = (wire: Wire, method: string, endpoint: string): Exchange | undefined =>
  [...wire.exchanges]
    .reverse()
    .find((e) => !e.hop && e.method === method && new URL(e.url).pathname.endsWith(endpoint));

/** What a failed write's answer means, for the finding's text. */
export function answerText(error: AppError, exchange: Exchange | undefined): string {
  const status = exchange?.status;
  if (exchange?.failure?.kind === 'timeout') return "gave no answer within the extension's time-out";
  if (exchange?.failure) return 'could not be reached';
  if (exchange?.redirectedTo)
    return `answered ${status} to ${exchange.redirectedTo} (the extension follows no redirect)`;
  if (status !== undefined && status !== null && status >= 200 && status < 300) {
    return `answered ${status} with ${bodyQuoted(exchange)}, not \`"message": "success"\`, which the extension needs from a write (design §5)`;
  }
  return `answered ${status ?? error.kind} with ${bodyQuoted(exchange)}`;
}

export function hasMessage(exchange: Exchange | undefined): boolean {
  try {
    const body = JSON.parse(exchange?.body ?? '') as { message?: unknown };
    return typeof body.message === 'string' && body.message.trim() !== '';
  } catch {
    return false;
  }
}

/** The profile's stored values and the balance, read as the extension reads them. */
export interface AccountRead {
  values: StoredValues | null;
  /** Points, or null when no place holds them (the extension's "unknown"). */
  balance: number | null;
  /** Why the balance could not be read at all (a read failed or was refused), else null. */
  failed: string | null;
}

/** Reads the rewards and the stored values, and resolves the balance from them in the extension's order. */
export async function readAccount(api: PanelClient, balanceVariable: string): Promise<AccountRead> {
  const [rewards, values] = [await attempt(() => api.listRewards()), await attempt(() => api.readValues())];
  const fromRewards = rewards.ok ? rewards.value.balance : null;
  const fromValues = values.ok ? values.value.balance : null;
  // A number that cannot be points leaves the balance not read, as in the extension: no later place stands in.
  const impossible = isImpossible(fromRewards)
    ? fromRewards
    : fromRewards === null && isImpossible(fromValues)
      ? fromValues
      : null;
  const failed = !rewards.ok
    ? rewards.error.message
    : !values.ok
      ? values.error.message
      : (impossible?.impossible.message ?? null);
  const points = (found: BodyBalance) => (isImpossible(found) ? null : found);
  const balance = resolveBalance({
    rewards: points(fromRewards),
    variables: points(fromValues),
    stored: values.ok ? values.value.values : null,
    variableName: balanceVariable,
  });
  return { values: values.ok ? values.value.values : null, balance: impossible ? null : balance.points, failed };
}

/** "2,500 points", or "unknown". */
export const pointsText = (points: number | null) =>
  points === null ? 'unknown' : `${points.toLocaleString('en')} points`;
