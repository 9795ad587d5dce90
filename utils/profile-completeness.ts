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
 * `unreadable`: names whose stored answer the panel holds in a shape the extension cannot read
 * (ProfileData): answered, since the panel holds something there; never open, where "Answer now"
 * would invite the panelist to replace it unseen.
 */
export function completeness(
  definitions: readonly VariableDefinition[],
  values: StoredValues,
  unreadable: readonly string[] = [],
): Completeness {
  const names = new Set<string>();
  const held = new Set(unreadable);
  const open: string[] = [];
  for (const def of definitions) {
    if (!def.writable || names.has(def.name)) continue;
    names.add(def.name);
    if (!isAnswered(named(values, def.name)) && !held.has(def.name)) open.push(def.name);
  }
  return { answered: names.size - open.length, total: names.size, open };
}
