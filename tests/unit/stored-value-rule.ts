/**
 * The oracle's rule for one stored profile value, written once for the property tests that check
 * what the client keeps from a panel's answer (stored-values.test.ts, api-hostile.test.ts): text, a
 * finite number, or a list of option ids and of the names of options a panel stored by name
 * (normaliseValue in utils/stored-values.ts), never a blank name. Not the client's own check: what
 * Save may send is narrower (ids only, `isVariableValue` in utils/api/client.ts).
 */
export function isStoredValue(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) &&
      value.every((item) => Number.isSafeInteger(item) || (typeof item === 'string' && item.trim() !== '')))
  );
}
