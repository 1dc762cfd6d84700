/**
 * A stand-in for imagecore/mod.ts in the fuzz harness's own tests. It accepts the seed exactly
 * (bytes starting "BM" and of even length) and refuses every other input with a typed error,
 * except that in the mode named by the import URL's `?mode=` it misbehaves on inputs of odd
 * length: `untyped` throws a TypeError, `internal` an internal ImageCoreError, `wrong` returns a
 * result of the wrong width, `slow` spins 30 ms, `hang` never returns.
 *
 * @example
 * ```ts
 * const target = await import(new URL("./fake_target.ts?mode=hang", import.meta.url).href);
 * ```
 * @module
 */
import type { ProbeResult, TransformOptions, TransformResult } from "../../imagecore/mod.ts";
import { ImageCoreError } from "../../imagecore/mod.ts";

export { ImageCoreError };

const mode = new URL(import.meta.url).searchParams.get("mode") ?? "typed";

function misbehave(input: Uint8Array): boolean {
  if (input.length % 2 === 0) return false;
  if (mode === "untyped") throw new TypeError("fake untyped failure");
  if (mode === "internal") throw new ImageCoreError("internal", "Cannot process image: fake trap");
  if (mode === "slow") { for (const end = performance.now() + 30; performance.now() < end;); }
  if (mode === "hang") { for (;;); }
  return mode === "wrong";
}

function accept(input: Uint8Array): boolean {
  const wrong = misbehave(input);
  if (!wrong && !(input[0] === 0x42 && input[1] === 0x4d && input.length % 2 === 0)) {
    throw new ImageCoreError("corrupt", "Cannot decode image: corrupt data");
  }
  return wrong;
}

/** A 10×10 "bmp" for the seed. */
export function probe(input: Uint8Array): ProbeResult {
  accept(input);
  return { format: "bmp", width: 10, height: 10 };
}

/** The seed at the asked width and format (one px too wide in `wrong` mode). */
export function transform(input: Uint8Array, options: TransformOptions = {}): TransformResult {
  const wrong = accept(input);
  // As imagecore's: `svg` is stored, never encoded.
  if (options.format === "svg") {
    throw new ImageCoreError("invalid_argument", "Cannot encode image: svg is not a raster format");
  }
  const format = options.format ?? "png";
  const bytes = format === "png"
    ? new Uint8Array([0x89, 0x50, 0x4e, 0x47])
    : format === "jpeg"
    ? new Uint8Array([0xff, 0xd8])
    : new TextEncoder().encode("RIFF");
  const width = (options.width ?? 10) + (wrong ? 1 : 0);
  return { bytes, width, height: 10, format, inverted: false };
}
