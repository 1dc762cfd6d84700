/**
 * RGBA8 pixels of a PNG written by imagecore, read without sharp (for the tests that must not run
 * it): imagecore writes unfiltered rows (filter type 0) of 8-bit grey, grey+alpha, RGB or RGBA,
 * or a 1-, 2-, 4- or 8-bit palette with `tRNS` (imagecore/README.md, **Encoding**). Anything
 * else (other filters, 16-bit samples, interlacing) is refused rather than misread.
 *
 * @example
 * ```ts
 * import { encodeRgba } from "../../imagecore/mod.ts";
 * import { pngPixels } from "./png_pixels.ts";
 * const png = encodeRgba(new Uint8Array([255, 0, 0, 255]), 1, 1, "png");
 * const { data } = pngPixels(png); // [255, 0, 0, 255]
 * ```
 * @module
 */
import { inflateSync } from "node:zlib";

/** Decoded pixels: straight-alpha RGBA8, row-major. */
export interface PngPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Decodes an imagecore PNG to RGBA8; throws on what imagecore never writes. */
export function pngPixels(png: Uint8Array): PngPixels {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0, height = 0, depth = 0, type = 0;
  let palette: Uint8Array = new Uint8Array(0), alphas: Uint8Array = new Uint8Array(0);
  const idat: Uint8Array[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = view.getUint32(at);
    const name = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    if (name === "IHDR") {
      [width, height, depth, type] = [
        view.getUint32(at + 8),
        view.getUint32(at + 12),
        body[8],
        body[9],
      ];
      if (body[12] !== 0) throw new Error("interlaced PNG");
    } else if (name === "PLTE") palette = body;
    else if (name === "tRNS") alphas = body;
    else if (name === "IDAT") idat.push(body);
    at += 12 + length;
  }
  const channels = CHANNELS[type];
  if (channels === undefined || (type !== 3 && depth !== 8)) {
    throw new Error(`PNG type ${type} at ${depth} bits`);
  }
  const zlib = new Uint8Array(idat.reduce((n, chunk) => n + chunk.length, 0));
  idat.reduce((at, chunk) => (zlib.set(chunk, at), at + chunk.length), 0);
  const raw = new Uint8Array(inflateSync(zlib));
  const stride = Math.ceil(width * channels * depth / 8);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * (stride + 1), (y + 1) * (stride + 1));
    if (row[0] !== 0) throw new Error(`PNG filter ${row[0]}`);
    for (let x = 0; x < width; x++) {
      const out = (y * width + x) * 4;
      if (type === 3) {
        const bit = x * depth;
        const index = (row[1 + (bit >> 3)] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
        data.set(palette.subarray(index * 3, index * 3 + 3), out);
        data[out + 3] = index < alphas.length ? alphas[index] : 255;
        continue;
      }
      const s = row.subarray(1 + x * channels, 1 + (x + 1) * channels);
      if (channels <= 2) data.set([s[0], s[0], s[0], channels === 2 ? s[1] : 255], out);
      else data.set([s[0], s[1], s[2], channels === 4 ? s[3] : 255], out);
    }
  }
  return { data, width, height };
}
