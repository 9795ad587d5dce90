import { humanise } from './humanise';
import type { VariableDefinition } from './types';

/** A question as the panelist reads it: its text, or its name in words when the panel gave no text. */
export function questionText(def: Pick<VariableDefinition, 'name' | 'text'>): string {
  const text = def.text.trim();
  return text && text !== def.name.trim() ? text : humanise(def.name);
}
