/** Value formats the sandbox accepts when writing a variable (design §4). */
import type { VariableDefinition, VariableValue } from '../../utils/types';

export const MAX_TEXT_LENGTH = 1000;

export type Validation = { ok: true; value: VariableValue } | { ok: false; message: string };

/** How a definition's values are shaped; a type without options is free text (design §4). */
type ValueKind = 'text' | 'date' | 'single' | 'multi';

function kindOf(definition: VariableDefinition): ValueKind {
  if (definition.type === 'date') return 'date';
  if (definition.options.length === 0) return 'text';
  return definition.type === 'checkbox' ? 'multi' : 'single';
}

export function validateValue(definition: VariableDefinition, value: unknown): Validation {
  switch (kindOf(definition)) {
    case 'text':
      return validateText(definition.name, value);
    case 'date':
      return validateDate(definition.name, value);
    case 'single':
      return validateSingle(definition, value);
    case 'multi':
      return validateMulti(definition, value);
  }
}

const refuse = (message: string): Validation => ({ ok: false, message });

function validateText(name: string, value: unknown): Validation {
  if (typeof value !== 'string') return refuse(`Variable ${name} expects a text value (string)`);
  if (value.length > MAX_TEXT_LENGTH) return refuse(`Variable ${name} accepts at most ${MAX_TEXT_LENGTH} characters`);
  return { ok: true, value };
}

function validateDate(name: string, value: unknown): Validation {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return refuse(`Variable ${name} expects a date as YYYY-MM-DD`);
  }
  if (!isCalendarDate(value)) return refuse(`${value} is not a valid date for ${name}`);
  return { ok: true, value };
}

/** Checked by arithmetic rather than Date parsing, which silently rolls 02-30 into March. */
function isCalendarDate(text: string): boolean {
  const [year = 0, month = 0, day = 0] = text.split('-').map(Number);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const monthLengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= (monthLengths[month - 1] ?? 0);
}

function validateSingle(definition: VariableDefinition, value: unknown): Validation {
  if (!Number.isInteger(value)) return refuse(`Variable ${definition.name} expects one option id (integer)`);
  const id = value as number;
  if (!offers(definition, id)) return refuse(notOffered(definition, id));
  return { ok: true, value: id };
}

function validateMulti(definition: VariableDefinition, value: unknown): Validation {
  const { name } = definition;
  // A lone id is taken as a one-element selection: the interface document only shows single ids.
  const ids = Number.isInteger(value) ? [value] : value;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) {
    return refuse(`Variable ${name} expects an array of option ids (integers)`);
  }
  const chosen = ids as number[];
  const seen = new Set<number>();
  for (const id of chosen) {
    if (!offers(definition, id)) return refuse(notOffered(definition, id));
    if (seen.has(id)) return refuse(`Option ${id} is given more than once for ${name}`);
    seen.add(id);
  }
  const exclusive = definition.options.find((option) => option.exclusive && seen.has(option.id));
  if (exclusive && chosen.length > 1) {
    return refuse(
      `Option ${exclusive.id} (${exclusive.text}) is exclusive and cannot be combined with other options for ${name}`,
    );
  }
  return { ok: true, value: chosen };
}

function offers(definition: VariableDefinition, id: number): boolean {
  return definition.options.some((option) => option.id === id);
}

function notOffered(definition: VariableDefinition, id: number): string {
  return `Option ${id} is not offered for ${definition.name}`;
}
