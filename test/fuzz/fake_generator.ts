/**
 * A stand-in for generate.ts in the fuzz harness's own tests: the real cases, except that on
 * every third iteration the harness itself fails, the way the import URL's `?mode=` names:
 * `mutator` hands the real mutators bytes they cannot read (every mutation throws inside
 * `generate`, which must skip it and say so), `case` throws out of `generate` itself (the Worker's
 * case loop must skip the case and go on).
 *
 * @example
 * ```ts
 * const generator = new URL("./fake_generator.ts?mode=mutator", import.meta.url).href;
 * ```
 * @module
 */
import { type Case, generate as real } from "./generate.ts";
import type { Seed } from "./seeds.ts";

const mode = new URL(import.meta.url).searchParams.get("mode") ?? "mutator";

/** The case of `iteration`, or on every third one a failure of the harness. */
export function generate(seeds: readonly Seed[], runSeed: number, iteration: number): Case {
  if (iteration % 3 !== 1) return real(seeds, runSeed, iteration);
  if (mode === "case") throw new RangeError(`fake case failure at ${iteration}`);
  // A Proxy is not a typed array: every TypedArray method a mutator calls on it throws.
  const unreadable = seeds.map((s) => ({ ...s, bytes: new Proxy(s.bytes, {}) }));
  const c = real(unreadable, runSeed, iteration);
  const seed = seeds.find((s) => s.name === c.seed)!;
  return { ...c, bytes: seed.bytes }; // the calls get real bytes: only the mutators failed
}
