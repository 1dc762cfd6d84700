/**
 * A small seeded PRNG (mulberry32) for the fuzzer: every iteration draws from its own generator,
 * seeded from the run's seed and the iteration number, so one iteration can be replayed alone.
 * @module
 */

/** A deterministic random source. */
export class Rng {
  #state: number;

  /** A generator for iteration `iteration` of the run seeded with `seed` (both u32). */
  constructor(seed: number, iteration = 0) {
    this.#state = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(iteration + 1, 0x85ebca6b)) >>> 0;
    for (let i = 0; i < 4; i++) this.u32();
  }

  /** A uniform u32. */
  u32(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return n <= 0 ? 0 : Math.floor((this.u32() / 0x1_0000_0000) * n);
  }

  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.u32() / 0x1_0000_0000 < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }
}
