/**
 * How the bench orders the pages it measures against each other (tests/bench/rounds.ts), and its
 * check that no load pays for the one before it.
 */
import { describe, expect, test } from 'vitest';
import { afterPageLine } from '../bench/report-summary';
import { byPredecessor, permutations, rotate, roundOrder } from '../bench/rounds';

describe('rotate', () => {
  test('each round loads every page once, turning through every order; warm-up rounds are not kept', async () => {
    const loaded: number[] = [];
    let prepared = 0;
    const rotation = await rotate({
      groups: [3],
      series: 2,
      runs: 6,
      warmup: 1,
      prepare: async () => void (prepared += 1),
      load: async (page) => {
        loaded.push(page);
        return loaded.length;
      },
    });
    expect(prepared).toBe(2 * 7);
    expect(loaded).toHaveLength(3 * 2 * 7);
    // Each series turns through all six orders of three pages, starting one further along than the last.
    const rounds = (from: number) => [0, 1, 2, 3, 4, 5].map((i) => loaded.slice(from + 3 * i, from + 3 * i + 3));
    expect(rounds(0)).toEqual(permutations([0, 1, 2]));
    expect(rounds(21 + 3)).toEqual([...permutations([0, 1, 2]).slice(2), ...permutations([0, 1, 2]).slice(0, 2)]);
    expect(rotation.byPage.map((series) => series.map((runs) => runs.length))).toEqual([
      [6, 6],
      [6, 6],
      [6, 6],
    ]);
    expect(rotation.sequence.filter((load) => !load.measured)).toHaveLength(6);
  });
});

describe('roundOrder', () => {
  test('two browsers take turns load by load, each turning through its own orders, the second half-way round', () => {
    expect(roundOrder([3, 3], 0)).toEqual([0, 4, 1, 5, 2, 3]);
    const ours = [0, 1, 2, 3, 4, 5].map((round) => roundOrder([3, 3], round).filter((k) => k < 3));
    expect(ours).toEqual(permutations([0, 1, 2]));
    for (let round = 0; round < 6; round += 1) {
      const order = roundOrder([3, 3], round);
      expect(order.map((k) => (k < 3 ? 'a' : 'b')).join('')).toBe('ababab');
    }
  });

  test('one group is every order of its pages in turn', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((round) => roundOrder([3], round))).toEqual([
      ...permutations([0, 1, 2]),
      [0, 1, 2],
    ]);
  });
});

describe('byPredecessor', () => {
  const names = ['blank', 'floor', 'popup'];
  // floor after popup is slow, after blank fast: the check must show it.
  const sequence = [
    { page: 0, measured: false, result: 50 },
    { page: 2, measured: true, result: 100 },
    { page: 1, measured: true, result: 90 },
    { page: 0, measured: true, result: 60 },
    { page: 1, measured: true, result: 70 },
    { page: 2, measured: true, result: 101 },
    { page: 1, measured: true, result: 92 },
  ];

  test("groups each measured load by the page before it, a warm-up load counting as one's predecessor", () => {
    const split = byPredecessor(sequence, names, (_, v) => v);
    expect(split.floor!.popup!.samples).toEqual([90, 92]);
    expect(split.floor!.blank!.samples).toEqual([70]);
    expect(split.popup!.blank!.samples).toEqual([100]);
    expect(split.popup!.floor!.samples).toEqual([101]);
    expect(Object.keys(split.blank!)).toEqual(['floor']);
  });

  test('a load without a time is left out, not counted as zero', () => {
    const split = byPredecessor(sequence, names, (page, v) => (page === 1 && v === 70 ? null : v));
    expect(split.floor!.blank).toBeUndefined();
  });

  test('prints one line that names every page and predecessor', () => {
    const line = afterPageLine(
      'The bench',
      byPredecessor(sequence, names, (_, v) => v),
    );
    expect(line).toContain('floor after popup 91 ms (2), after blank 70 ms (1)');
  });
});
