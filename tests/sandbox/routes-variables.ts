/** Endpoints 1–4: variable definitions, stored values, updating and deleting values. */
import type { StoredValues, VariableValue } from '../../utils/types';
import { failure, isJsonObject, success } from './http-util';
import { variableByName } from './state';
import type { ApiRequest, ApiResult, SandboxState } from './types';
import { validateValue, type Validation } from './validate';

/** The name design §2 falls back to when the balance is exposed as a stored variable. */
export const BALANCE_VARIABLE = 'POINTS_BALANCE';

export function listDefinitions(state: SandboxState): ApiResult {
  return success({ data: state.variables });
}

export function readValues(state: SandboxState, req: ApiRequest): ApiResult {
  const filter = req.query.get('filter');
  // As Laravel's `in:writable` rule refuses it: 422 with the field's own text under `errors`.
  if (filter !== null && filter !== 'writable') {
    return failure(422, 'The selected filter is invalid.', { errors: { filter: ['The selected filter is invalid.'] } });
  }
  const writableOnly = filter === 'writable';
  const visible = (name: string): boolean => !writableOnly || variableByName(state, name)?.writable === true;

  // Null-prototype, as any panel's JSON: a variable named `__proto__` is sent as a name like any other.
  const values: StoredValues = Object.create(null) as StoredValues;
  for (const [name, value] of Object.entries(state.values)) {
    if (visible(name)) values[name] = value;
  }
  // Not a real definition, so a writable-only read leaves it out, as it would any read-only value.
  if (state.balanceIn === 'stored-variable' && visible(BALANCE_VARIABLE)) {
    values[BALANCE_VARIABLE] = String(state.balance);
  }

  const data = state.valuesShape === 'map' ? values : Object.entries(values).map(([name, value]) => ({ name, value }));
  return success(state.balanceIn === 'variables' ? { data, points: state.balance } : { data });
}

/**
 * Refusals answer as Laravel does (422, `{message, errors: {NAME: ["…"]}}`), naming every bad
 * entry at once; `message` is the first text, with "(and N more errors)" as Laravel words it.
 */
export function writeValues(state: SandboxState, req: ApiRequest): ApiResult {
  if (!req.bodyIsJson) return failure(400, 'Request body is not valid JSON');
  if (!isJsonObject(req.body)) return failure(400, 'Request body must be a JSON object of variable names to values');

  // All or nothing: every entry is checked before any is stored.
  const accepted: [string, VariableValue][] = [];
  // A Map, not an object: a body key such as `__proto__` must stay a name.
  const refused = new Map<string, string[]>();
  for (const [name, raw] of Object.entries(req.body)) {
    const definition = variableByName(state, name);
    const result = !definition
      ? refuse(`Unknown variable: ${name}`)
      : !definition.writable
        ? refuse(`Variable ${name} is not writable`)
        : validateValue(definition, raw);
    if (result.ok) accepted.push([name, result.value]);
    else refused.set(name, [result.message]);
  }
  if (refused.size > 0) return validationFailure(refused);
  for (const [name, value] of accepted)
    Object.defineProperty(state.values, name, { value, enumerable: true, writable: true, configurable: true });
  return success();
}

const refuse = (message: string): Validation => ({ ok: false, message });

function validationFailure(refused: Map<string, string[]>): ApiResult {
  const texts = [...refused.values()].flat();
  const more = texts.length - 1;
  const message = more > 0 ? `${texts[0]} (and ${more} more ${more === 1 ? 'error' : 'errors'})` : (texts[0] ?? '');
  return failure(422, message, { errors: Object.fromEntries(refused) });
}

export function deleteValue(state: SandboxState, name: string): ApiResult {
  const definition = variableByName(state, name);
  if (!definition) return failure(404, `Unknown variable: ${name}`);
  if (!definition.writable) return failure(422, `Variable ${name} is not writable`, { field: name });
  // Deleting a value that is not stored succeeds too, so a retried delete is harmless.
  delete state.values[name];
  return success();
}
