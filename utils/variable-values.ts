import { byName, entriesOf, named, type ByName } from './by-name';
import { formatDay, formatList, formatPoints } from './format';
import { t, tp } from './i18n';
import { countryName } from './region';
import type { StoredValues, VariableDefinition, VariableOption, VariableValue } from './types';

/**
 * The value rules (utils/types.ts, VariableValue) as pure functions: how each variable is edited, the exclusive rule, the
 * validation of a value before it is sent, and which drafted values differ from the stored ones.
 * The options page and the background both use these, so a page and the server check agree.
 */

export type EditKind = 'text' | 'date' | 'single' | 'multi';

export const MAX_TEXT_LENGTH = 1000;

type Shape = Pick<VariableDefinition, 'type' | 'options'>;

export function editKind(def: Shape): EditKind {
  const type = def.type.trim().toLowerCase();
  if (type === 'date') return 'date';
  if (type === 'text' || def.options.length === 0) return 'text';
  return type === 'checkbox' ? 'multi' : 'single';
}

/**
 * What one stored item of a choice answer holds: the offered option it names, by its id or, as some
 * panels store it, by the option's name ("MAN"); else the id or the word the panel holds for an
 * option it no longer offers.
 */
export function heldOption(
  def: Pick<VariableDefinition, 'options'>,
  item: string | number,
): { offered: VariableOption } | { retired: number | string } {
  const word = String(item).trim();
  const id = typeof item === 'number' ? item : /^\d+$/.test(word) ? Number(word) : null;
  const option =
    id === null
      ? def.options.find((o) => o.name.toLowerCase() === word.toLowerCase())
      : def.options.find((o) => o.id === id);
  return option ? { offered: option } : { retired: id ?? word };
}

/**
 * A checkbox answer as it is edited: each item the offered option's id, whether the panel held it by
 * its id or by its name, else what the panel holds for an option it no longer offers; each once.
 * Ticking another keeps them all: none is dropped because it was stored by name.
 */
export function heldChoices(
  def: Pick<VariableDefinition, 'options'>,
  value: VariableValue | undefined,
): Array<number | string> {
  if (value === undefined || isEmptyValue(value)) return [];
  const held: Array<number | string> = [];
  for (const item of Array.isArray(value) ? value : [value]) {
    const choice = heldOption(def, item);
    const key = 'offered' in choice ? choice.offered.id : choice.retired;
    if (!held.includes(key)) held.push(key);
  }
  return held;
}

/**
 * A retired option as the panelist reads it: the panel's word for it, or, held by a number they
 * never saw ("Option 139"), what it is: a choice no longer offered.
 */
export const retiredLabel = (retired: number | string): string =>
  typeof retired === 'number' ? t('choiceNotOffered') : retired;

export function textValue(value: VariableValue | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * A date as the date input and the panelist read it: a panel may store a date with a time
 * (`1988-04-17T00:00:00.000000Z`, Laravel's date cast), whose day is the date meant; the input
 * shows nothing for anything but `YYYY-MM-DD`.
 */
export function dateValue(value: VariableValue | undefined): string {
  const text = textValue(value);
  return DATE_WITH_TIME.exec(text)?.[1] ?? text;
}

const DATE_WITH_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function isEmptyValue(value: VariableValue | undefined): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'string' && value.trim() === '';
}

/** Same answer, whatever the order of checked options or how an id was typed. */
export function valuesEqual(a: VariableValue | undefined, b: VariableValue | undefined): boolean {
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (isEmptyValue(a) || isEmptyValue(b)) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    const left = choiceKeys(a!);
    const right = choiceKeys(b!);
    return left.length === right.length && left.every((key, i) => key === right[i]);
  }
  // A date stored with a time is the same answer as the day it names.
  return String(a) === String(b) || (DATE_WITH_TIME.test(String(a)) && dateValue(a) === dateValue(b));
}

/** A choice answer's items, each once, an id typed as digits the same as the number, in one order. */
function choiceKeys(value: VariableValue): string[] {
  const keys = (Array.isArray(value) ? value : [value]).map((item) => {
    const word = String(item).trim();
    return /^\d+$/.test(word) ? String(Number(word)) : word;
  });
  return [...new Set(keys)].sort();
}

/**
 * The checkbox group after the panelist (un)checks one option. Checking an exclusive option
 * ("None of these") clears the others; checking another option clears any exclusive one.
 */
export function toggleOption(
  def: Pick<VariableDefinition, 'options'>,
  current: ReadonlyArray<number | string>,
  id: number,
  checked: boolean,
): Array<number | string> {
  if (!checked) return current.filter((x) => x !== id);
  const option = def.options.find((o) => o.id === id);
  if (option?.exclusive) return [id];
  const exclusive = new Set<number | string>(def.options.filter((o) => o.exclusive).map((o) => o.id));
  const kept = current.filter((x) => x !== id && !exclusive.has(x));
  return [...kept, id];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Years a profile date may fall in: wide enough for any birth or event date, narrow enough to catch typos like 0199. */
export const DATE_YEARS = { min: 1900, max: 2100 } as const;

/** A real calendar date written `YYYY-MM-DD` (so 2023-02-30 is refused). */
export function isValidDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function offered(def: Shape, id: unknown): VariableOption | undefined {
  return typeof id === 'number' ? def.options.find((o) => o.id === id) : undefined;
}

/** Why a value cannot be sent for this variable, in words for the panelist; null when it can. */
export function validateValue(def: Shape, value: unknown): string | null {
  if (value === undefined || value === null || isEmptyValue(value as VariableValue)) {
    return t('valGiveAnswer');
  }
  switch (editKind(def)) {
    case 'text':
      if (typeof value !== 'string') return t('valText');
      // Counts in the panelist's number format ("1.000 … (sie hat 1.234)"); years below are no counts.
      return value.length > MAX_TEXT_LENGTH ? tp('valTooLong', MAX_TEXT_LENGTH, formatPoints(value.length)) : null;
    case 'date': {
      if (typeof value !== 'string' || !isValidDate(value)) return t('valDate');
      const year = Number(value.slice(0, 4));
      if (year < DATE_YEARS.min) return t('valDateTooEarly', DATE_YEARS.min);
      return year > DATE_YEARS.max ? t('valDateTooLate', DATE_YEARS.max) : null;
    }
    case 'single':
      return offered(def, value) ? null : t('valChooseOne');
    case 'multi': {
      if (!Array.isArray(value)) return t('valChooseOffered');
      // One the panel no longer offers is named: the panelist sees it ticked, with a note, and unticks it.
      const retired = value.filter((id) => !offered(def, id));
      // Named by the panel's words where it held it by them; one held by a number is said to be one.
      if (retired.some((id) => typeof id === 'number')) return t('valRetiredUnnamed');
      if (retired.length > 0) return t('valRetired', formatList(retired.map(String)));
      if (new Set(value).size !== value.length) return t('valOnce');
      const exclusive = value.map((id) => offered(def, id)).find((o) => o?.exclusive);
      return exclusive && value.length > 1 ? t('valExclusive', exclusive.text) : null;
    }
  }
}

/**
 * Every problem with a set of values about to be sent, by variable name; empty when all can go.
 * Also refuses names the panel does not define and variables the panelist may not change.
 */
export function validateValues(
  definitions: readonly VariableDefinition[],
  values: Readonly<ByName<unknown>>,
): ByName<string> {
  const problems: Array<[string, string]> = [];
  for (const [name, value] of entriesOf(values)) {
    const def = definitions.find((d) => d.name === name);
    const problem = !def ? t('valUnknownQuestion') : !def.writable ? t('valNotWritable') : validateValue(def, value);
    if (problem) problems.push([name, problem]);
  }
  return byName(problems);
}

/** The drafted values that differ from what is stored: exactly what "Save changes" sends. */
export function diffDraft(draft: StoredValues, stored: StoredValues): StoredValues {
  return byName(entriesOf(draft).filter(([name, value]) => !valuesEqual(value, named(stored, name))));
}

/**
 * A stored value as the panelist reads it: option labels rather than ids, an option the
 * panel stored by its name in the option's words, and a country stored as its code ("US") by its
 * name in the panelist's language.
 */
export function describeValue(
  def: Shape & Partial<Pick<VariableDefinition, 'name'>>,
  value: VariableValue | undefined,
): string {
  if (isEmptyValue(value)) return '';
  const kind = editKind(def);
  if (kind === 'date') return formatDay(dateValue(value));
  if (kind === 'text')
    return def.options.length === 0 && isCountry(def.name) ? countryName(textValue(value)) : textValue(value);
  const items: Array<string | number> = Array.isArray(value) ? value : [value!];
  return formatList(
    items.map((item) => {
      const held = heldOption(def, item);
      return 'offered' in held ? held.offered.text : retiredLabel(held.retired);
    }),
  );
}

const isCountry = (name: string | undefined) => /country/i.test(name ?? '');
