/**
 * One fuzz case from (run seed, iteration): a seed picked, one to four mutations stacked on it,
 * and the calls to make (`probe`, then `transform` with one or two option sets). A pure function
 * of its arguments, so any iteration can be rebuilt to replay or save it.
 * @module
 */
import type { OutputFormat, SourceFormat, Theme, TransformOptions } from "../../imagecore/mod.ts";
import { mutateBytes, type Mutated } from "./mutate_bytes.ts";
import { mutateStructure } from "./mutate_structure.ts";
import { mutateSvg, type SvgContext } from "./mutate_svg.ts";
import { Rng } from "./rng.ts";
import type { Seed } from "./seeds.ts";

/** A call the fuzzer makes on a case's input. */
export type Call = { fn: "probe" } | { fn: "transform"; options: TransformOptions };

/** A generated input and the calls to make on it. */
export interface Case {
  /** Iteration number within the run. */
  iteration: number;
  /** The seed it was mutated from. */
  seed: string;
  /** The seed's format (the input may no longer be one). */
  format: SourceFormat;
  /** The mutated bytes. */
  bytes: Uint8Array;
  /** The mutations applied, in order. */
  mutations: string[];
  /** Calls to make. */
  calls: Call[];
  /**
   * Exceptions thrown by the fuzzer's own mutators while building this case (a bug in the
   * harness, not in imagecore): each mutation that threw was skipped, the case carried on from
   * the bytes before it. Empty for a healthy case.
   */
  mutatorErrors: MutatorError[];
}

/** A mutator that threw: which one, on what, and the error. */
export interface MutatorError {
  /** Which mutator: "structure", "bytes" or "svg" (and the seed format). */
  mutator: string;
  /** The error, e.g. "TypeError: Cannot read properties of undefined (reading 'toString')". */
  detail: string;
  /** The first line of its stack inside test/fuzz/, e.g. "structure.ts:109:81". */
  where: string;
  /** The bytes the mutator was given (to reproduce it in a unit test). */
  input: Uint8Array;
}

/** An exception as the report shows it: "Name: message", and where in test/fuzz/ it was thrown. */
export function describeError(error: unknown): { detail: string; where: string } {
  if (!(error instanceof Error)) return { detail: `threw ${String(error)}`, where: "" };
  const where = /test\/fuzz\/([\w.]+:\d+:\d+)/.exec(error.stack ?? "")?.[1] ?? "";
  return { detail: `${error.name}: ${error.message}`, where };
}

/** Output widths the fuzzer asks for (undefined keeps the source width). */
export const WIDTHS = [undefined, 1, 64, 128, 800, 1200] as const;
const THEMES: (Theme | undefined)[] = [undefined, undefined, "light", "dark"];
const FORMATS: (OutputFormat | undefined)[] = [undefined, "png", "webp", "jpeg"];
const MIME: Partial<Record<SourceFormat, string>> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

function options(rng: Rng): TransformOptions {
  const out: TransformOptions = {};
  const width = rng.pick(WIDTHS);
  if (width !== undefined) out.width = width;
  if (rng.chance(0.3)) out.greyscale = true;
  const theme = rng.pick(THEMES);
  if (theme) out.theme = theme;
  const format = rng.pick(FORMATS);
  if (format) out.format = format;
  return out;
}

/** Builds case `iteration` of the run seeded with `runSeed` over `seeds`. */
export function generate(seeds: readonly Seed[], runSeed: number, iteration: number): Case {
  const rng = new Rng(runSeed, iteration);
  const seed = rng.pick(seeds);
  const donors = seeds.filter((s) => s.format === seed.format && s !== seed).map((s) => s.bytes);
  let bytes = seed.bytes;
  const mutations: string[] = [];
  const mutatorErrors: MutatorError[] = [];
  for (let n = rng.pick([1, 1, 1, 2, 2, 3, 4]); n > 0; n--) {
    let mutator = `bytes (${seed.format})`;
    try {
      let out: Mutated;
      if (seed.format === "svg" && rng.chance(0.75)) {
        mutator = "svg";
        // No raster to embed when FUZZ_FORMATS leaves only SVG seeds.
        const raster = rng.pick(seeds.filter((s) => MIME[s.format])) as Seed | undefined;
        const context: SvgContext = {
          rasters: raster === undefined ? [] : [{
            mime: MIME[raster.format]!,
            bytes: rng.chance(0.3)
              ? mutateStructure(raster.format, raster.bytes, [], rng).bytes
              : raster.bytes,
          }],
        };
        out = mutateSvg(bytes, context, rng);
      } else if (seed.format !== "svg" && rng.chance(0.7)) {
        mutator = `structure (${seed.format})`;
        out = mutateStructure(seed.format, bytes, donors, rng);
      } else {
        out = mutateBytes(bytes, rng);
      }
      bytes = out.bytes;
      mutations.push(out.note);
    } catch (error) {
      // A bug in a mutator must not end the run (nor lose the case): note it, skip the mutation.
      const { detail, where } = describeError(error);
      mutatorErrors.push({ mutator, detail, where, input: bytes });
      mutations.push(`${mutator} mutator threw (${detail}), skipped`);
    }
  }
  const calls: Call[] = [{ fn: "probe" }, { fn: "transform", options: options(rng) }];
  if (rng.chance(0.3)) calls.push({ fn: "transform", options: options(rng) });
  return {
    iteration,
    seed: seed.name,
    format: seed.format,
    bytes,
    mutations,
    calls,
    mutatorErrors,
  };
}
