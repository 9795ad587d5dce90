/** Summaries of repeated runs, and how a cost grows with the size of the data. */

export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
  samples: number[];
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return {
    median: round(median),
    min: round(sorted[0] ?? NaN),
    max: round(sorted[sorted.length - 1] ?? NaN),
    runs: samples.length,
    samples: samples.map((s) => round(s)),
  };
}

export interface Growth {
  /**
   * Exponent b of cost ≈ a·n^b between consecutive sizes (1 = linear, 2 = quadratic); null where a
   * size cost no more than the smallest one (no part that grows with n to fit).
   */
  exponents: Array<number | null>;
  /** Cost ratio between consecutive sizes, scaled to a 10× step in n. */
  ratioPer10x: number[];
  /** Extra cost per item between consecutive sizes (same unit as the cost, per item). */
  marginalPerItem: number[];
  verdict: string;
}

/**
 * Growth of the part of a cost that depends on n: the smallest case's cost stands for the fixed
 * part (page start-up), so a page that takes 40 ms empty does not hide a quadratic list.
 */
export function growth(points: Array<{ n: number; cost: number }>): Growth {
  const base = points[0]?.cost ?? 0;
  const exponents: Array<number | null> = [];
  const ratioPer10x: number[] = [];
  const marginalPerItem: number[] = [];
  for (let i = 1; i < points.length; i += 1) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const steps = Math.log10(b.n / a.n);
    ratioPer10x.push(round((b.cost / a.cost) ** (1 / steps), 2));
    marginalPerItem.push(round((b.cost - a.cost) / (b.n - a.n), 4));
    const [va, vb] = [a.cost - base, b.cost - base];
    if (i > 1) exponents.push(va > 0 && vb > 0 ? round(Math.log(vb / va) / Math.log(b.n / a.n), 2) : null);
  }
  const top = exponents[exponents.length - 1];
  const n = (i: number) => points[i]!.n.toLocaleString('en');
  const [last, smallest] = [points.length - 1, n(0)];
  const verdict =
    top === undefined
      ? 'too few sizes'
      : top === null
        ? points[last]!.cost <= base
          ? `flat (${n(last)} cost no more than ${smallest}, within noise)`
          : `flat up to ${n(last - 1)}, then ${round(points[last]!.cost - base, 1)} above ${smallest} at ${n(last)}`
        : top > 1.25
          ? `faster than linear (n^${top} at the top)`
          : top < 0.75
            ? `sub-linear (n^${top} at the top)`
            : `about linear (n^${top} at the top)`;
  return { exponents, ratioPer10x, marginalPerItem, verdict };
}
