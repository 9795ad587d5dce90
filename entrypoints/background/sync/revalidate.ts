import type { PanelApi, ReadName, Reads, Validator } from '../../../utils/api/client';

/**
 * One read of an area's refresh: `undefined` when the panel answered 304, i.e. the cached copy
 * is still its answer. `fresh` sends no validator (the caller needs the body itself).
 */
export type Reader = <K extends ReadName>(name: K, fresh?: boolean) => Promise<Reads[K] | undefined>;

/**
 * Reads sent with the validators `known` for the cached copy (none: plain reads, never a 304);
 * the validators of the answers are collected in `seen`, to be stored with what they answered.
 */
export function reader(
  api: PanelApi,
  known: Record<string, Validator> = {},
  seen: Record<string, Validator> = {},
): Reader {
  return async (name, fresh) => {
    const answer = await api.revalidate(name, fresh ? null : (known[name] ?? null));
    if (answer.validator) seen[name] = answer.validator;
    return answer.notModified ? undefined : answer.data;
  };
}
