/**
 * RGBA8 pixels of a PNG written by imagecore, read without sharp (for the tests that must not run
 * it): imagecore writes rows with any of PNG's five filters (photo-like renders are filtered) of
 * 8-bit grey, grey+alpha, RGB or RGBA, or a 1-, 2-, 4- or 8-bit palette with `tRNS`
 * (imagecore/README.md, **Encoding**). Anything else (16-bit samples, interlacing) is refused
 * rather than misread.
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
  unfilter(raw, stride, height, Math.max(1, Math.ceil(channels * depth / 8)));
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * (stride + 1), (y + 1) * (stride + 1));
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

/**
 * Undoes PNG's row filters in place (PNG spec §9: None, Sub, Up, Average, Paeth), leaving each
 * row's filter byte at 0; `bpp` is the bytes of one pixel (at least 1).
 */
function unfilter(raw: Uint8Array, stride: number, height: number, bpp: number): void {
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    const filter = raw[at];
    if (filter > 4) throw new Error(`PNG filter ${filter}`);
    for (let i = 1; i <= stride; i++) {
      const left = i > bpp ? raw[at + i - bpp] : 0;
      const up = y > 0 ? raw[at - stride - 1 + i] : 0;
      const upLeft = y > 0 && i > bpp ? raw[at - stride - 1 + i - bpp] : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      raw[at + i] = (raw[at + i] + predicted) & 0xff;
    }
    raw[at] = 0;
  }
}
