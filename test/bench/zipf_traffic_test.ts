/**
 * The lookup benchmark's skewed traffic (`bench/support/zipf_traffic.ts`): the same seed gives the
 * same stream, ranks follow 1/k, and every rank maps to its own domain.
 */
import { deepStrictEqual, notDeepStrictEqual, ok, strictEqual, throws } from "node:assert";
import { rankToIndex, zipfIndices, zipfShare } from "../../bench/support/zipf_traffic.ts";

Deno.test("zipf traffic: one seed, one stream; another seed, another", () => {
  const a = zipfIndices({ count: 1000, s: 1, seed: 7, length: 500 });
  deepStrictEqual(zipfIndices({ count: 1000, s: 1, seed: 7, length: 500 }), a);
  notDeepStrictEqual(zipfIndices({ count: 1000, s: 1, seed: 8, length: 500 }), a);
  ok(a.every((i) => i < 1000));
});

Deno.test("zipf traffic: the rank-to-index shuffle is a permutation", () => {
  const order = rankToIndex(10_000, 3);
  strictEqual(new Set(order).size, 10_000);
  ok(order.every((i) => i < 10_000));
  notDeepStrictEqual([...order.slice(0, 10)], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

Deno.test("zipf traffic: shares follow 1/k", () => {
  // H(4) = 1 + 1/2 + 1/3 + 1/4 = 25/12: rank 1 takes 12/25, ranks 1–2 take 18/25.
  ok(Math.abs(zipfShare(4, 1, 1) - 12 / 25) < 1e-12);
  ok(Math.abs(zipfShare(4, 1, 2) - 18 / 25) < 1e-12);
  strictEqual(zipfShare(4, 1, 10), 1);
  strictEqual(zipfShare(4, 1, 0), 0);
  // s = 0 is uniform.
  ok(Math.abs(zipfShare(100, 0, 25) - 0.25) < 1e-12);
});

Deno.test("zipf traffic: drawn frequencies match the distribution", () => {
  const count = 1000;
  const length = 200_000;
  const indices = zipfIndices({ count, s: 1, seed: 11, length });
  const order = rankToIndex(count, 11);
  const seen = new Map<number, number>();
  for (const i of indices) seen.set(i, (seen.get(i) ?? 0) + 1);
  // The most asked-for domain is rank 1's, about 1/H(1000) = 13.4% of requests (± 1%).
  const top = (seen.get(order[0]) ?? 0) / length;
  ok(Math.abs(top - zipfShare(count, 1, 1)) < 0.01, `rank 1 took ${top}`);
  // Rank 2 about half of rank 1, rank 10 about a tenth.
  const second = (seen.get(order[1]) ?? 0) / length;
  const tenth = (seen.get(order[9]) ?? 0) / length;
  ok(Math.abs(second / top - 0.5) < 0.05, `rank 2 / rank 1 = ${second / top}`);
  ok(Math.abs(tenth / top - 0.1) < 0.02, `rank 10 / rank 1 = ${tenth / top}`);
  // The top 100 ranks take their share, ± 1%.
  let top100 = 0;
  for (let r = 0; r < 100; r++) top100 += seen.get(order[r]) ?? 0;
  ok(Math.abs(top100 / length - zipfShare(count, 1, 100)) < 0.01);
});

Deno.test("zipf traffic: refuses an empty catalogue or a negative exponent", () => {
  throws(() => zipfIndices({ count: 0, s: 1, seed: 1, length: 1 }), RangeError);
  throws(() => zipfIndices({ count: 10, s: -1, seed: 1, length: 1 }), RangeError);
  throws(() => zipfIndices({ count: 10, s: 1, seed: 1, length: 0.5 }), RangeError);
});
