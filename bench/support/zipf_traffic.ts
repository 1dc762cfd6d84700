/**
 * Skewed traffic for the lookup benchmark: a deterministic stream of domain indices drawn from a
 * Zipf distribution, where the domain of popularity rank `k` (1-based) is asked for with
 * probability `k^-s / H(n, s)`. With `s = 1` over 100,000 domains the first 1,000 take 61% of the
 * requests and the first 10,000 81%: a few thousand brands take most of a logo service's traffic.
 *
 * Ranks are drawn by inverting the cumulative distribution (a binary search in a precomputed
 * table) from a seeded stream (`seededRandom`, mulberry32), and mapped to domain indices through a
 * seeded shuffle, so the popular domains are spread over the store (the store's logos cycle through
 * 200 bases of different sizes) instead of being its first indices. The same seed always gives the
 * same stream, so two runs (and two stores) ask for the same domains in the same order.
 *
 * @example
 * ```ts
 * import { zipfIndices, zipfShare } from "./zipf_traffic.ts";
 * const indices = zipfIndices({ count: 100_000, s: 1, seed: 7, length: 10 }); // 10 indices
 * zipfShare(100_000, 1, 1_000); // ≈ 0.61: the share of requests to the 1,000 most asked for
 * ```
 * @module
 */
import { seededRandom } from "./growth_logos.ts";

/** Options of {@link zipfIndices}. */
export interface ZipfOptions {
  /** Domains to draw from (indices 0 to `count - 1`). */
  count: number;
  /** The exponent; 1 is the classic Zipf law. */
  s: number;
  /** Seeds both the draws and the rank-to-index shuffle. */
  seed: number;
  /** How many indices to draw. */
  length: number;
}

/** The cumulative probabilities of ranks 1 to `count`, normalised so the last is exactly 1. */
function cumulative(count: number, s: number): Float64Array {
  const cdf = new Float64Array(count);
  let sum = 0;
  for (let k = 1; k <= count; k++) {
    sum += Math.pow(k, -s);
    cdf[k - 1] = sum;
  }
  for (let i = 0; i < count; i++) cdf[i] /= sum;
  cdf[count - 1] = 1;
  return cdf;
}

/** The share of requests that go to the `top` most asked-for of `count` domains. */
export function zipfShare(count: number, s: number, top: number): number {
  if (top <= 0) return 0;
  return cumulative(count, s)[Math.min(top, count) - 1];
}

/** A seeded Fisher–Yates shuffle of 0 to `count - 1`: the domain index of each rank. */
export function rankToIndex(count: number, seed: number): Uint32Array {
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const random = seededRandom(Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d));
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return order;
}

/**
 * `length` domain indices drawn from the Zipf distribution over `count` domains (see the module
 * documentation).
 *
 * @throws {RangeError} unless `count` and `length` are whole numbers ≥ 1 and `s` ≥ 0.
 */
export function zipfIndices(options: ZipfOptions): Uint32Array {
  const { count, s, seed, length } = options;
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(length) || length < 1) {
    throw new RangeError("Cannot draw Zipf traffic: count and length must be whole numbers ≥ 1");
  }
  if (!(s >= 0)) throw new RangeError("Cannot draw Zipf traffic: s must be ≥ 0");
  const cdf = cumulative(count, s);
  const indexOf = rankToIndex(count, seed);
  const random = seededRandom(seed);
  const out = new Uint32Array(length);
  for (let i = 0; i < length; i++) {
    const u = random();
    // The first rank whose cumulative probability exceeds u.
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    out[i] = indexOf[lo];
  }
  return out;
}
