/**
 * A reward's raw `reward_point_cost` and price, as the panel wrote them, said in words: what is
 * wrong with a cost the extension quarantines (utils/api/records.ts decides which; this only says
 * why, for the report).
 */

/** The raw rewards of the rewards answer, by id, as the panel wrote them (before any parsing). */
export function rawRewards(body: unknown): Map<number, Record<string, unknown>> {
  const list = (body as { rewards?: unknown } | null)?.rewards;
  const out = new Map<number, Record<string, unknown>>();
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    if (typeof item === 'object' && item !== null && typeof (item as { id?: unknown }).id === 'number')
      out.set((item as { id: number }).id, item as Record<string, unknown>);
  }
  return out;
}

/** `-500 (below zero)`, `999.5 (a fraction)`, `"1650" (a string, not a number)`. */
export function costProblem(raw: unknown): string {
  const quoted = JSON.stringify(raw) ?? String(raw);
  if (typeof raw === 'string') return `${quoted} (a string, not a number)`;
  if (typeof raw !== 'number') return `${quoted} (not a number)`;
  if (!Number.isFinite(raw)) return `${quoted} (not a finite number)`;
  if (raw < 0) return `${quoted} (below zero)`;
  if (!Number.isInteger(raw)) return `${quoted} (a fraction: points are whole)`;
  return `${quoted} (beyond 2^53, more than a number keeps exactly)`;
}

/** `cost -10 (below zero)`, `cost null (not a number)`, `cost_currency 840 (not text)`, `cost 1e+308 (more than …)`. */
export function priceProblem(cost: unknown, currency: unknown): string {
  if (typeof currency !== 'string') return `cost_currency ${JSON.stringify(currency) ?? String(currency)} (not text)`;
  const quoted = `cost ${JSON.stringify(cost) ?? String(cost)}`;
  if (typeof cost === 'string') return `${quoted} (a string, not a number)`;
  if (typeof cost !== 'number' || !Number.isFinite(cost)) return `${quoted} (not a number)`;
  if (cost < 0) return `${quoted} (below zero)`;
  return `${quoted} (more than ${currency || 'its currency'} prints exactly: at most 15 digits)`;
}

/** `no cost`, `cost null`, `no cost_currency`: what a reward quarantined as `unpriced` left out. */
export function priceMissing(cost: unknown, currency: unknown): string {
  const fields: Array<[string, unknown]> = [
    ['cost', cost],
    ['cost_currency', currency],
  ];
  return fields
    .filter(([, value]) => value === undefined || value === null)
    .map(([name, value]) => (value === undefined ? `no ${name}` : `${name} null`))
    .join(', ');
}
