/**
 * Hostile images for `bench/hostile_discovery_bench.ts` and `test/discovery/discovery_hostile_test.ts`: small files that cost a naive decoder
 * far more than their size. Built here, in code (zlib from `node:zlib`), never downloaded.
 *
 * @module
 */
import { crc32, createDeflate } from "node:zlib";
import { encodeRgba } from "../../imagecore/mod.ts";
import { concat } from "../fuzz/mutate_bytes.ts";

/** A zlib stream inflating to `gib` GiB of zeros (about 1 MiB compressed per GiB). */
export async function zlibBomb(gib: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const deflate = createDeflate({ level: 9, memLevel: 9 });
  deflate.on("data", (chunk: Uint8Array) => parts.push(chunk));
  const ended = new Promise((resolve) => deflate.on("end", resolve));
  const zeros = new Uint8Array(1 << 24);
  for (let i = 0; i < 64 * gib; i++) deflate.write(zeros);
  deflate.end();
  await ended;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, (at += part.length) - part.length);
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A valid 64×64 PNG carrying an `iCCP` profile and a `zTXt` comment that each inflate to `bomb`'s
 * size (about 2 MiB of file for 2 × 1 GiB).
 */
export function pngWithZlibBombs(bomb: Uint8Array): Uint8Array {
  const png = encodeRgba(new Uint8Array(64 * 64 * 4).fill(200), 64, 64, "png");
  const ihdrEnd = 8 + 12 + 13; // signature, then IHDR
  const latin1 = (text: string) => new TextEncoder().encode(text);
  const iccp = concat([latin1("icc\0\0"), bomb]); // name, NUL, compression method 0
  const ztxt = concat([latin1("Comment\0\0"), bomb]);
  return concat([
    png.subarray(0, ihdrEnd),
    chunk("iCCP", iccp),
    chunk("zTXt", ztxt),
    png.subarray(ihdrEnd),
  ]);
}

/** An 8-bit RLE BMP of about 13 KB declaring `side`×`side` pixels. */
export function rleBmp(side: number): Uint8Array {
  const rle: number[] = [];
  for (let i = 0; i < 6000; i++) rle.push(255, i & 255); // runs of 255 pixels
  rle.push(0, 1); // end of bitmap: the rest is left to the decoder
  const paletteBytes = 256 * 4;
  const offset = 14 + 40 + paletteBytes;
  const out = new Uint8Array(offset + rle.length);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, offset, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, side, true);
  view.setInt32(22, side, true);
  view.setUint16(26, 1, true); // planes
  view.setUint16(28, 8, true); // bits per pixel
  view.setUint32(30, 1, true); // BI_RLE8
  view.setUint32(34, rle.length, true);
  view.setUint32(46, 256, true); // colours used
  for (let i = 0; i < 256; i++) out.set([i, 255 - i, i >> 1, 0], 54 + 4 * i);
  out.set(rle, offset);
  return out;
}

/** A GIF of about 826 bytes whose screen and only frame declare `side`×`side` pixels. */
export function hugeGif(side: number): Uint8Array {
  const head = new Uint8Array(13 + 768 + 10);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode("GIF89a"));
  view.setUint16(6, side, true);
  view.setUint16(8, side, true);
  head[10] = 0xf7; // global colour table of 256 entries
  for (let i = 0; i < 256; i++) head.set([i, i, 255 - i], 13 + 3 * i);
  const descriptor = 13 + 768;
  head[descriptor] = 0x2c;
  view.setUint16(descriptor + 5, side, true);
  view.setUint16(descriptor + 7, side, true);
  // LZW (minimum code size 8): clear codes then a few literal pixels, no end: the decoder must
  // still produce the whole declared frame.
  const lzw = [0x00, 0x01, 0x04, 0x0c, 0x38, 0xf0, 0xe0, 0xc1, 0x83, 0x07];
  const data = [8, lzw.length, ...lzw, 0, 0x3b];
  return concat([head, new Uint8Array(data)]);
}

/**
 * An SVG bomb: 1000 `<use>` copies (10 × 10 × 10) of a rectangle blurred with a huge deviation
 * over a filter region twenty times its size, drawn on a 4096-px canvas.
 */
export function svgBomb(): Uint8Array {
  const uses = (id: string) => Array.from({ length: 10 }, () => `<use href="#${id}"/>`).join("");
  return new TextEncoder().encode(
    `<svg xmlns="http://www.w3.org/2000/svg" width="4096" height="4096" viewBox="0 0 4096 4096">
<defs><filter id="b" x="-10" y="-10" width="20" height="20">
<feGaussianBlur stdDeviation="400"/></filter>
<g id="a0"><rect width="4096" height="4096" fill="#c00" filter="url(#b)"/></g>
<g id="a1" filter="url(#b)">${uses("a0")}</g><g id="a2" filter="url(#b)">${uses("a1")}</g>
<g id="a3" filter="url(#b)">${uses("a2")}</g></defs><use href="#a3"/></svg>`,
  );
}
