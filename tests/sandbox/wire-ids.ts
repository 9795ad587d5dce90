/**
 * How the sandbox writes reward and redemption ids (a response switch, `idsOnWire`): as the JSON
 * numbers it holds (`numbers`), or as a 64-bit panel does — every id moved past 2^60, written as a
 * bare JSON number no `JSON.parse` can hold exactly (`beyond2^53`) or as a string of digits
 * (`digitStrings`). The state keeps its small numbers either way; only the wire changes, and the
 * redeem's `?id=` is read back the same way.
 */
import type { IdsOnWire } from './types';

/** Where a 64-bit panel's ids start here: 2^60. */
export const WIRE_BASE = 2n ** 60n;

const MARK = '@@wire-id:';

/** The id as this panel writes it. */
export function wireId(id: number, form: IdsOnWire): string {
  return form === 'numbers' ? String(id) : String(BigInt(id) + WIRE_BASE);
}

/** The id a `?id=` names, as the state holds it; null when it names none. */
export function stateId(text: string, form: IdsOnWire): number | null {
  if (!/^\d+$/.test(text)) return null;
  if (form === 'numbers') return Number(text);
  const id = BigInt(text) - WIRE_BASE;
  return id >= 0n && id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : null;
}

/** A rewards or history body as JSON text, its `id`s (rewards, redemptions, nested rewards) in `form`. */
export function withWireIds(body: unknown, form: IdsOnWire): string {
  const text = JSON.stringify(body, (key, value: unknown) =>
    key === 'id' && typeof value === 'number' ? `${MARK}${wireId(value, form)}` : value,
  );
  return text.replace(new RegExp(`"${MARK}(\\d+)"`, 'g'), form === 'digitStrings' ? '"$1"' : '$1');
}
