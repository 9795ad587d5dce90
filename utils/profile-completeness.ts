import { named } from './by-name';
import type { StoredValues, VariableDefinition, VariableValue } from './types';
import { isEmptyValue } from './variable-values';

/**
 * How complete the panelist's profile is, counted in this one place for the popup
 * view, the badge, the options page and the background's new-question records.
 */
export interface Completeness {
  /** Writable questions with a stored answer. */
  answered: number;
  /** Writable questions the panel lists (each name once); read-only ones are the panel's own. */
  total: number;
  /** Names of the writable questions without an answer, in the panel's order. */
  open: string[];
}

/**
 * A stored value counts as an answer unless it is empty: nothing stored, an empty checkbox list,
 * or text that is only blanks. A choice the definition no longer offers still counts: the panel
 * holds it and matches with it.
 */
export function isAnswered(value: VariableValue | undefined): boolean {
  return !isEmptyValue(value);
}

/**
 * Whether the panel holds an answer to `name`: a stored value that is not empty, or one it holds in
 * a shape the extension cannot read (`unreadable`, ProfileData), where "Answer now" or "New" would
 * invite the panelist to replace it unseen.
 */
export function holdsAnswer(values: StoredValues, unreadable: readonly string[] | undefined, name: string): boolean {
  return isAnswered(named(values, name)) || (unreadable?.includes(name) ?? false);
}

/** `unreadable`: names of answers held in a shape the extension cannot read ({@link holdsAnswer}). */
export function completeness(
  definitions: readonly VariableDefinition[],
  values: StoredValues,
  unreadable: readonly string[] = [],
): Completeness {
  const names = new Set<string>();
  const open: string[] = [];
  for (const def of definitions) {
    if (!def.writable || names.has(def.name)) continue;
    names.add(def.name);
    if (!holdsAnswer(values, unreadable, def.name)) open.push(def.name);
  }
  return { answered: names.size - open.length, total: names.size, open };
}
