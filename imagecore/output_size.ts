/**
 * imagecore's output size, for TypeScript: what `transform` makes of a `srcWidth`×`srcHeight`
 * source asked `width` px wide (`output_size` of imagecore's `geometry.rs`), so a size can be
 * known without rendering — an archive import's check of a record's renditions, the
 * `width`/`height` set on a sanitised SVG for `format=svg`.
 *
 * @example
 * ```ts
 * import { outputSize } from "./output_size.ts";
 * outputSize(200, 100, 64); // { width: 64, height: 32 }
 * outputSize(10, 100000, 128).height; // 4096: narrowed to fit
 * ```
 * @module
 */
import { LIMITS } from "./refusals.ts";

/**
 * imagecore's size for `width` of a `srcWidth`×`srcHeight` image (`output_size` of imagecore's
 * `geometry.rs`): height = round(width × H / W), halves up, at least 1; a source too tall for
 * 4096 px at that width is narrowed to the widest width that fits.
 */
export function outputSize(
  srcWidth: number,
  srcHeight: number,
  width: number,
): { width: number; height: number } {
  const max = BigInt(LIMITS.outputSide);
  const [w, h] = [BigInt(srcWidth), BigInt(srcHeight)];
  const heightFor = (x: bigint) => {
    const height = (2n * x * h + w) / (2n * w);
    return height < 1n ? 1n : height;
  };
  let out = BigInt(width);
  if (heightFor(out) > max) {
    const widest = ((2n * max + 1n) * w - 1n) / (2n * h);
    out = widest < 1n ? 1n : widest > out ? out : widest;
  }
  const height = heightFor(out);
  return { width: Number(out), height: Number(height > max ? max : height) };
}
