/**
 * Runs one fuzz call and judges it: a valid result, or an `ImageCoreError` with a known code and
 * a "Cannot …" message. Anything else is a finding: an untyped error, an `internal` error (a trap
 * or an encoder failure), an invalid result, or a call slower than the limit.
 * @module
 */
import type {
  ImageCoreError,
  ProbeResult,
  TransformOptions,
  TransformResult,
} from "../../imagecore/mod.ts";
import { SOURCE_FORMATS } from "../../imagecore/formats.ts";
import type { Call } from "./generate.ts";

/** What the fuzzer calls: imagecore/mod.ts, or a stand-in in the harness's own tests. */
export interface FuzzTarget {
  /** imagecore's `probe`. */
  probe(input: Uint8Array): ProbeResult;
  /** imagecore's `transform`. */
  transform(input: Uint8Array, options?: TransformOptions): TransformResult;
  /** The one error class the target may throw. */
  ImageCoreError: new (...args: never[]) => ImageCoreError;
}

/** Kinds of finding. */
export type FindingKind = "untyped" | "internal" | "invalid_result" | "slow" | "hang";

/** Codes an input may be refused with; `internal` and `timeout` are findings when called directly. */
export const INPUT_CODES = ["unsupported_format", "corrupt", "too_large", "invalid_argument"];

/** The judgement of one call. */
export interface Verdict {
  /** "ok" or the error code ("untyped" when there was none). */
  outcome: string;
  /** Milliseconds the call took. */
  ms: number;
  /** Set when the call is a finding. */
  finding?: { kind: FindingKind; detail: string };
}

const MAGIC: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47],
  jpeg: [0xff, 0xd8],
  webp: [0x52, 0x49, 0x46, 0x46],
};
const MAX_SIDE = 4096;

/** A whole number of pixels from 1 to `max`. */
function side(n: unknown, max = 65535): boolean {
  return Number.isInteger(n) && (n as number) >= 1 && (n as number) <= max;
}

function probeProblem(out: ProbeResult): string | null {
  if (!SOURCE_FORMATS.includes(out.format)) return `probe format ${out.format}`;
  // A raster's sides are capped by the decoders; an SVG's intrinsic size is only a u32.
  const max = out.format === "svg" ? 0xffffffff : 65535;
  if (!side(out.width, max) || !side(out.height, max)) {
    return `probe size ${out.width}×${out.height}`;
  }
  return null;
}

function transformProblem(
  out: TransformResult,
  options: TransformOptions,
  probed?: ProbeResult,
): string | null {
  const format = options.format ?? "png";
  if (out.format !== format) return `format ${out.format}, asked ${format}`;
  if (!side(out.width) || !side(out.height) || out.width > MAX_SIDE || out.height > MAX_SIDE) {
    return `output size ${out.width}×${out.height}`;
  }
  // imagecore narrows a tall source to the widest output whose height fits the side limit
  // (imagecore/src/geometry.rs): a narrower width is right only when one more pixel of width
  // would take the height over the limit (estimated from the output's own rounded ratio, so
  // with a pixel of slack).
  const narrowed = (asked: number) =>
    out.width < asked && (out.width + 1) * out.height / out.width > MAX_SIDE - 1;
  if (options.width !== undefined && out.width !== options.width && !narrowed(options.width)) {
    return `width ${out.width}, asked ${options.width}`;
  }
  if (
    options.width === undefined && probed && out.width !== probed.width &&
    out.width !== probed.height && !narrowed(Math.max(probed.width, probed.height))
  ) {
    return `width ${out.width} is neither side of the probed ${probed.width}×${probed.height}`;
  }
  if (!MAGIC[format].every((b, i) => out.bytes[i] === b)) return `bytes are not ${format}`;
  return null;
}

/** Makes `call` on `input` and judges it; `probed` is this input's probe result, if any. */
export function checkCall(
  target: FuzzTarget,
  call: Call,
  input: Uint8Array,
  slowMs: number,
  probed?: ProbeResult,
): Verdict & { result?: ProbeResult | TransformResult } {
  const start = performance.now();
  let result: ProbeResult | TransformResult | undefined;
  let error: unknown;
  let threw = false;
  try {
    result = call.fn === "probe" ? target.probe(input) : target.transform(input, call.options);
  } catch (e) {
    threw = true;
    error = e;
  }
  const ms = performance.now() - start;
  let verdict: Verdict;
  if (!threw) {
    const problem = call.fn === "probe"
      ? probeProblem(result as ProbeResult)
      : transformProblem(result as TransformResult, call.options, probed);
    verdict = problem
      ? { outcome: "invalid_result", ms, finding: { kind: "invalid_result", detail: problem } }
      : { outcome: "ok", ms };
  } else if (!(error instanceof target.ImageCoreError)) {
    const detail = error instanceof Error
      ? `${error.name}: ${error.message}`
      : `threw ${String(error)}`;
    verdict = { outcome: "untyped", ms, finding: { kind: "untyped", detail } };
  } else if (error.code === "internal") {
    verdict = { outcome: "internal", ms, finding: { kind: "internal", detail: error.message } };
  } else if (!INPUT_CODES.includes(error.code) || !error.message.startsWith("Cannot ")) {
    verdict = {
      outcome: String(error.code),
      ms,
      finding: { kind: "untyped", detail: `${error.code}: ${error.message}` },
    };
  } else {
    verdict = { outcome: error.code, ms };
  }
  if (!verdict.finding && ms > slowMs) {
    verdict.finding = { kind: "slow", detail: `took ${ms.toFixed(0)} ms (limit ${slowMs} ms)` };
  }
  return { ...verdict, result };
}
