/**
 * results.md's first table (tests/bench/report-summary.ts): every figure the background, memory and
 * Firefox work aims at, from one run's results, with its spread and its target.
 */
import { describe, expect, test } from 'vitest';
import type { Results } from '../bench/report';
import { summaryTable } from '../bench/report-summary';
import { summarize } from '../bench/stats';

const ratio = (value: number, seriesRatios: number[]) => ({
  ratio: value,
  seriesRatios,
  spread: { min: Math.min(...seriesRatios), max: Math.max(...seriesRatios) },
});
const heap = (...bytes: number[]) => summarize(bytes);

/** Only what the table reads; the rest of a run's results plays no part in it. */
const results = {
  background: {
    chrome: [{ file: 'background.js', raw: 127_316, gzip: 41_316, modules: [] }],
    firefox: [{ file: 'background.js', raw: 127_316, gzip: 41_300, modules: [] }],
    sameAsRelease: { chrome: true, firefox: true },
  },
  wake: {
    message: { ...ratio(1.85, [2.28, 1.63, 1.85]), ours: summarize([37]), minimal: summarize([20]) },
    alarm: { ...ratio(1.47, [1.37, 1.47, 1.7]), ours: summarize([44]), minimal: summarize([30]) },
  },
  timing: {
    popupToFloor: { balance: ratio(1.19, [1.19, 1.22, 1.18]), withRows: ratio(1.43, [1.28, 1.43, 1.5]) },
    yardstick: { popupToFloor: ratio(1.21, [1.13, 1.25, 1.33]) },
  },
  scale: {
    blankHeapBytes: 1_600_000,
    minimalWorkerHeap: heap(436_000, 437_000, 440_000),
    cases: [
      {
        dimension: 'rewards',
        n: 10,
        heap: heap(2_400_000, 2_420_000),
        workerHeap: { woken: heap(1_036_000, 1_040_000), used: heap(1_100_000) },
      },
      {
        dimension: 'rewards',
        n: 5_000,
        heap: heap(2_500_000, 2_540_000),
        workerHeap: { woken: heap(1_036_000, 1_041_000), used: heap(1_300_000) },
      },
    ],
  },
  firefox: {
    notConnected: { promptToBlank: ratio(1.83, [1.8, 1.9]) },
    popupToBlank: { balance: ratio(1.62, [1.6, 1.7]) },
    floorToBlank: ratio(1.3, [1.2, 1.4]),
    popupToFloor: { balance: ratio(1.25, [1.2, 1.3]), withRows: ratio(1.5, [1.4, 1.6]) },
  },
} as unknown as Results;

describe('summaryTable', () => {
  const table = summaryTable(results);
  const row = (start: string) => table.find((line) => line.startsWith(`| ${start}`)) ?? '';

  test('the background in KiB of gzip, both browsers, against 20 KiB', () => {
    expect(row('background, gzip')).toContain('Chrome **40.3 KiB**, Firefox 40.3 KiB');
    expect(row('background, gzip')).toMatch(/≤ 20 KiB \|$/);
  });

  test('each wake-up with its series and its own target', () => {
    expect(row('wake-up of a stopped worker by a message')).toContain(
      '**1.85** (series 2.28, 1.63, 1.85); 37 ms against 20 ms | ≤ 1.3 |',
    );
    expect(row('wake-up by an alarm')).toContain('**1.47** (series 1.37, 1.47, 1.7); 44 ms against 30 ms | ≤ 1.2 |');
  });

  test('heap at 10 and 5,000 rewards in MB with min–max, and what the larger catalogue added', () => {
    expect(row('worker JS heap after GC, MB, right after a start')).toContain(
      '10 rewards **1.04 (1.04–1.04)**; 5,000 rewards **1.04 (1.04–1.04)** (+0.00)',
    );
    expect(row('worker JS heap after GC, MB, right after a start')).toContain('one-listener worker: 0.44 (0.44–0.44)');
    expect(row('worker JS heap after GC, MB, after the popup')).toContain('(+0.20)');
    expect(row('popup JS heap after GC')).toContain(
      '10 rewards **2.41 (2.40–2.42)**; 5,000 rewards **2.52 (2.50–2.54)** (+0.11)',
    );
  });

  test('rows and balance against the floor, by the probe and by the yardstick, and Firefox’s figures', () => {
    expect(row('first reward rows ÷ floor')).toContain('**1.43** (series 1.28, 1.43, 1.5) | ≤ 1.2 |');
    expect(row("header and balance ÷ floor, the bench's probe")).toContain('**1.19** (series 1.19, 1.22, 1.18)');
    expect(row('header and balance ÷ floor, the independent yardstick')).toContain(
      '**1.21** (series 1.13, 1.25, 1.33)',
    );
    expect(row('Firefox popup first paint ÷ blank')).toContain('**1.83** / **1.62** (series 1.8, 1.9 / 1.6, 1.7)');
    expect(row('Firefox popup ÷ floor')).toContain('**1.25** / **1.5**');
  });

  test('a run without the yardstick says so rather than failing', () => {
    const without = { ...results, timing: { ...results.timing, yardstick: undefined } } as Results;
    expect(summaryTable(without).find((line) => line.includes('independent yardstick'))).toContain('n/a (series n/a)');
  });
});
