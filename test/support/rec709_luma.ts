/**
 * Rec. 709 luma of an sRGB pixel in 1/256ths, rounded: the formula of imagecore's greyscale step
 * (`imagecore/src/colour/greyscale.rs`), for tests and benches that make pixels grey themselves.
 *
 * @example
 * ```ts
 * import { rec709Luma } from "./rec709_luma.ts";
 * console.log(rec709Luma(255, 0, 0)); // 54
 * ```
 * @module
 */

/** Luma of one sRGB pixel, 0–255. */
export function rec709Luma(r: number, g: number, b: number): number {
  return (54 * r + 183 * g + 19 * b + 128) >> 8;
}
