/**
 * How often each key was asked for lately, approximately, in a few bytes per cached entry: a
 * count-min sketch of 4-bit counters (4 rows, each key counted at one counter per row, its estimate
 * the smallest of the 4), halved every `sampleSize` increments (10 per counter of a row) so that old popularity fades. It is
 * the frequency half of TinyLFU (Einziger, Friedman and Manes, "TinyLFU: A Highly Efficient Cache
 * Admission Policy", 2017; what Caffeine and Ristretto use): a cache that must evict to keep a new
 * entry keeps it only when the new key was asked for more often than the entry it would evict
 * ({@link FrequencySketch.admits}). Under skewed traffic the one-off keys of the long tail then
 * never push out the popular ones, which a recency rule alone (LRU, CLOCK) lets every miss do.
 *
 * An estimate is never below the key's true count since the last halving (up to the counters'
 * ceiling, 15), and above it only when other keys share all four of its counters.
 *
 * @example
 * ```ts
 * import { FrequencySketch } from "./frequency_sketch.ts";
 * const sketch = new FrequencySketch(1_000);
 * for (let i = 0; i < 5; i++) sketch.increment("popular.com");
 * sketch.increment("once.com");
 * sketch.estimate("popular.com"); // 5
 * sketch.admits("once.com", "popular.com"); // false: the one-off key loses
 * ```
 * @module
 */

/** Largest count a counter holds (4 bits). */
export const MAX_COUNT = 15;

/** Counter rows: each key has one counter in each. */
const ROWS = 4;

/** Odd multipliers that spread a key's 32-bit hash to one counter per row. */
const ROW_SEEDS = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f];

/** FNV-1a of a string's UTF-16 code units: cheap, and spread well enough for counters. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A count-min sketch of recent key frequencies; see the module documentation. */
export class FrequencySketch {
  readonly #counters: Uint8Array;
  readonly #mask: number;
  readonly #sampleSize: number;
  readonly #indices = new Uint32Array(ROWS);
  #additions = 0;

  /**
   * Creates an empty sketch sized for a cache of about `entries` keys: 4 rows of the next power
   * of two ≥ `entries` (at least 16) counters each, a byte a counter, halved every `sampleSize`
   * increments (default 10 × the row's width).
   */
  constructor(entries: number, sampleSize?: number) {
    const width = 2 ** Math.max(4, Math.ceil(Math.log2(Math.max(1, entries))));
    this.#counters = new Uint8Array(width * ROWS);
    this.#mask = width - 1;
    this.#sampleSize = Math.max(1, Math.floor(sampleSize ?? 10 * width));
  }

  /** Where `key`'s counters are, one per row, into `#indices`. */
  #locate(key: string): Uint32Array {
    const hash = hashOf(key);
    const width = this.#mask + 1;
    for (let row = 0; row < ROWS; row++) {
      const spread = Math.imul(hash ^ (hash >>> 16), ROW_SEEDS[row]) >>> 0;
      this.#indices[row] = row * width + ((spread ^ (spread >>> 15)) & this.#mask);
    }
    return this.#indices;
  }

  /** Counts one more request for `key`; every `sampleSize` counts, halves every counter. */
  increment(key: string): void {
    const indices = this.#locate(key);
    const counters = this.#counters;
    let added = false;
    for (let row = 0; row < ROWS; row++) {
      const at = indices[row];
      if (counters[at] < MAX_COUNT) {
        counters[at]++;
        added = true;
      }
    }
    if (added && ++this.#additions >= this.#sampleSize) this.#halve();
  }

  /** How often `key` was counted since it last faded (at most {@link MAX_COUNT}). */
  estimate(key: string): number {
    const indices = this.#locate(key);
    let least = MAX_COUNT;
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.#counters[indices[row]]);
    return least;
  }

  /**
   * Whether a cache should keep `candidate` at the cost of evicting `victim`: only when the
   * candidate was asked for more often.
   */
  admits(candidate: string, victim: string): boolean {
    return this.estimate(candidate) > this.estimate(victim);
  }

  /** Halves every counter (the fading of old popularity). */
  #halve(): void {
    const counters = this.#counters;
    for (let i = 0; i < counters.length; i++) counters[i] >>= 1;
    this.#additions = 0;
  }
}
