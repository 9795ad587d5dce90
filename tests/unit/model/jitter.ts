/**
 * The model's delays, from a seed the run draws (mulberry32), so a failing run's seed also names its
 * delays (real HTTP still times itself). Most delays are a few turns of the event loop, in which
 * other work runs first; about one in ten is a real 1–3 ms, as a browser's storage read takes.
 */
export class Jitter {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  async wait(): Promise<void> {
    const r = this.next();
    if (r < 0.1) return new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(r * 30)));
    for (let turns = Math.floor(r * 4); turns > 0; turns--) await new Promise((resolve) => setImmediate(resolve));
  }
}
