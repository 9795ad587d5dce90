import { parseApiTimestamp } from './format';
import type { Redemption } from './types';
import { compareIds } from './ids';

/** Newest first by creation time (UTC); unreadable times go last, ties by id so order is stable. */
export function newestFirst(list: readonly Redemption[]): Redemption[] {
  const keyed = list.map((r) => ({ r, at: parseApiTimestamp(r.created_at) ?? -Infinity }));
  keyed.sort((a, b) => b.at - a.at || compareIds(b.r.id, a.r.id));
  return keyed.map((k) => k.r);
}
