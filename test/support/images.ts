/**
 * Every image fixture of the tests, built in code, never downloaded (hostile inputs apart, in
 * `hostile_images.ts` and `hostile_svg.ts`):
 *
 * - logos encoded by imagecore itself, for tests whose subject is not imagecore (store, CLI,
 *   endpoint, discovery): {@link flatImage}, {@link noiseImage}, {@link iconPng};
 * - images encoded and read back by sharp (libvips), an implementation independent of imagecore,
 *   so a test of imagecore never grades imagecore with itself: {@link fromPixels},
 *   {@link bytesOf}, {@link pixelsOf}, {@link discPixels}, {@link pixelAt};
 * - containers written byte by byte: {@link bmp24}, {@link icoOf}, {@link pngHeaderOnly}.
 *
 * @example
 * ```ts
 * import { flatImage, icoOf, iconPng } from "./support/images.ts";
 * const logo = flatImage(64, 64, [10, 120, 200, 255]);
 * const favicon = icoOf([{ png: iconPng(32, 32), side: 32 }]);
 * ```
 * @module
 */
import sharp, { type Sharp } from "sharp";
import { crc32 } from "node:zlib";
import { encodeRgba, type OutputFormat } from "../../imagecore/mod.ts";

/** RGBA colour, 0–255 each. */
export type Rgba = [number, number, number, number];

/** Raw RGBA pixels of a `width`×`height` image of one colour. */
function flatPixels(width: number, height: number, rgba: readonly number[]): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i += 4) pixels.set(rgba, i);
  return pixels;
}

/** A `width`×`height` image of one RGBA colour, encoded by imagecore as `format` (PNG by default). */
export function flatImage(
  width: number,
  height: number,
  rgba: readonly [number, number, number, number],
  format: OutputFormat = "png",
): Uint8Array {
  return encodeRgba(flatPixels(width, height, rgba), width, height, format);
}

/**
 * A solid `width` × `height` RGBA PNG (encoded by imagecore) with one transparent corner, which
 * keeps the PNG RGBA — what ICO-embedded PNGs must be. The favicons of discovery's fixture sites.
 */
export function iconPng(
  width: number,
  height: number,
  rgba: readonly number[] = [200, 30, 30, 255],
): Uint8Array<ArrayBuffer> {
  const pixels = flatPixels(width, height, rgba);
  pixels[3] = 0;
  return encodeRgba(pixels, width, height, "png").slice();
}

/**
 * A `width`×`height` opaque image of pseudo-random noise from `seed`, encoded by imagecore:
 * incompressible, so its PNG (and its normalised renditions) are large — about 3 bytes a pixel,
 * several 64 KiB KV chunks.
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

/** Raw RGBA pixels of a `width`×`height` image: a disc of `colour` on `background`. */
export function discPixels(
  width: number,
  height: number,
  colour: Rgba,
  background: Rgba,
): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  const [cx, cy] = [width / 2, height / 2];
  const r = Math.min(cx, cy) * 0.8;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) <= r;
      pixels.set(inside ? colour : background, (y * width + x) * 4);
    }
  }
  return pixels;
}

/** A sharp pipeline over raw RGBA pixels. */
export function fromPixels(pixels: Uint8Array, width: number, height: number): Sharp {
  return sharp(pixels, { raw: { width, height, channels: 4 } });
}

/** Encodes with sharp and returns the bytes. */
export async function bytesOf(pipeline: Sharp): Promise<Uint8Array> {
  return new Uint8Array(await pipeline.toBuffer());
}

/** Decodes any image with sharp to RGBA pixels. */
export async function pixelsOf(
  bytes: Uint8Array,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** The RGBA pixel at (x, y). */
export function pixelAt(image: { data: Uint8Array; width: number }, x: number, y: number): Rgba {
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2], image.data[i + 3]];
}

/** A 24-bit BMP (bottom-up, BGR, rows padded to 4 bytes); alpha is dropped. */
export function bmp24(pixels: Uint8Array, width: number, height: number): Uint8Array {
  const rowBytes = Math.ceil(width * 3 / 4) * 4;
  const out = new Uint8Array(54 + rowBytes * height);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * rowBytes;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      out.set([pixels[i + 2], pixels[i + 1], pixels[i]], row + x * 3);
    }
  }
  return out;
}

/** An ICO of PNG entries (the format modern favicons use); `sides` are written to the directory (0 for 256 and above). */
export function icoOf(entries: { png: Uint8Array; side: number }[]): Uint8Array {
  const header = 6 + 16 * entries.length;
  const out = new Uint8Array(header + entries.reduce((n, e) => n + e.png.length, 0));
  const view = new DataView(out.buffer);
  view.setUint16(2, 1, true);
  view.setUint16(4, entries.length, true);
  let offset = header;
  entries.forEach(({ png, side }, i) => {
    const at = 6 + 16 * i;
    out[at] = out[at + 1] = side >= 256 ? 0 : side;
    view.setUint16(at + 4, 1, true);
    view.setUint16(at + 6, 32, true);
    view.setUint32(at + 8, png.length, true);
    view.setUint32(at + 12, offset, true);
    out.set(png, offset);
    offset += png.length;
  });
  return out;
}

/** A PNG signature and a valid IHDR claiming `width`×`height` RGBA, and nothing after. */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const chunk = new Uint8Array(17);
  const view = new DataView(chunk.buffer);
  chunk.set([0x49, 0x48, 0x44, 0x52]);
  view.setUint32(4, width);
  view.setUint32(8, height);
  chunk.set([8, 6, 0, 0, 0], 12);
  const out = new Uint8Array(8 + 4 + 17 + 4);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  new DataView(out.buffer).setUint32(8, 13);
  out.set(chunk, 12);
  new DataView(out.buffer).setUint32(29, crc32(chunk));
  return out;
}
