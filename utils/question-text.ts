import { nameLabel } from './humanise';
import type { VariableDefinition } from './types';

/**
 * A question as the panelist reads it: its text, or, when the panel gave no text, a label made
 * from its name in the page's language (utils/humanise.ts), else the panel's own name for it.
 */
export function questionText(def: Pick<VariableDefinition, 'name' | 'text'>): string {
  const text = def.text.trim();
  return text && text !== def.name.trim() ? text : nameLabel(def.name);
}
