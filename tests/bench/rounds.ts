/**
 * Pages measured against each other load round by round: one load of each page per round, in an
 * order that turns round to round through every permutation, in `series` series of `runs` rounds
 * after `warmup` unmeasured ones. Drift on a noisy machine then hits every page alike, no page always
 * follows the same one, and the spread between series shows how far one series can be trusted.
 */
import { summarize, type Summary } from './stats';

export interface Rotation<T> {
  /** Per page, per series, the measured loads in the order they ran. */
  byPage: T[][][];
  /** Every load in the order it ran (warm-up included, `measured` false), for the predecessor check. */
  sequence: Array<{ page: number; measured: boolean; result: T }>;
}

export function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((first, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]),
  );
}

/**
 * Round `round`'s order. Pages come in `groups` (the pages of one browser each, numbered one group
 * after the other): each group turns through its own permutations, the second group half-way round
 * from the first, and the groups take turns load by load, so every page of a group follows each
 * other page of it in some rounds and no browser runs two loads in a row.
 */
export function roundOrder(groups: number[], round: number): number[] {
  const orders = groups.map((size, g) => {
    const first = groups.slice(0, g).reduce((n, m) => n + m, 0);
    const all = permutations([...Array(size).keys()].map((k) => first + k));
    return all[(round + Math.floor((g * all.length) / groups.length)) % all.length]!;
  });
  const longest = Math.max(...groups);
  return [...Array(longest).keys()].flatMap((i) => orders.flatMap((order) => (i < order.length ? [order[i]!] : [])));
}

export async function rotate<T>(options: {
  /** How many pages in each group (one group: every page against every other); pages are numbered across groups. */
  groups: number[];
  series: number;
  runs: number;
  warmup: number;
  /** Before each round (the cache made fresh, say). */
  prepare: () => Promise<void>;
  load: (page: number) => Promise<T>;
}): Promise<Rotation<T>> {
  const { groups, series, runs, warmup, prepare, load } = options;
  const pages = groups.reduce((n, m) => n + m, 0);
  const byPage: T[][][] = [...Array(pages)].map(() => []);
  const sequence: Rotation<T>['sequence'] = [];
  for (let s = 0; s < series; s += 1) {
    byPage.forEach((page) => page.push([]));
    for (let i = -warmup; i < runs; i += 1) {
      await prepare();
      for (const k of roundOrder(groups, i + warmup + s)) {
        const result = await load(k);
        sequence.push({ page: k, measured: i >= 0, result });
        if (i >= 0) byPage[k]![s]!.push(result);
      }
    }
  }
  return { byPage, sequence };
}

/**
 * Each page's measured loads split by the page loaded just before it in the same tab: a load that
 * pays for the one before it shows as a gap between these rows (the popup, a heavy page, was the
 * one that cost the others). `pick` gives a load's time, or null where it has none.
 */
export function byPredecessor<T>(
  sequence: Rotation<T>['sequence'],
  names: string[],
  pick: (page: number, result: T) => number | null,
): Record<string, Record<string, Summary>> {
  const out: Record<string, Record<string, number[]>> = {};
  sequence.forEach((load, i) => {
    if (i === 0 || !load.measured) return;
    const value = pick(load.page, load.result);
    if (value === null || Number.isNaN(value)) return;
    const page = names[load.page]!;
    const before = names[sequence[i - 1]!.page]!;
    ((out[page] ??= {})[before] ??= []).push(value);
  });
  return Object.fromEntries(
    Object.entries(out).map(([page, rows]) => [
      page,
      Object.fromEntries(Object.entries(rows).map(([before, values]) => [before, summarize(values)])),
    ]),
  );
}
