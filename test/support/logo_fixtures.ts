/**
 * Image fixtures for the store and CLI tests, built with imagecore's encoder: flat logos that
 * compress to a few hundred bytes and noisy ones whose PNGs span several 64 KiB KV chunks.
 *
 * @module
 */
import { encodeRgba, type OutputFormat } from "../../imagecore/mod.ts";

/** A `width`×`height` image of one RGBA colour, encoded as `format` (PNG by default). */
export function flatImage(
  width: number,
  height: number,
  rgba: readonly [number, number, number, number],
  format: OutputFormat = "png",
): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i += 4) pixels.set(rgba, i);
  return encodeRgba(pixels, width, height, format);
}

/**
 * A `width`×`height` opaque image of pseudo-random noise from `seed`: incompressible, so its PNG
 * (and its normalised renditions) are large — about 3 bytes a pixel.
 */
export function noiseImage(width: number, height: number, seed: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < pixels.length; i += 4) {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    pixels[i] = state & 255;
    pixels[i + 1] = (state >>> 8) & 255;
    pixels[i + 2] = (state >>> 16) & 255;
    pixels[i + 3] = 255;
  }
  return encodeRgba(pixels, width, height, "png");
}
