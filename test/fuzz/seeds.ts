/**
 * The fuzzer's seed corpus, made by code at start (no binaries in the repository): small valid
 * images of every source format and its common variants. PNG, lossless WebP and baseline JPEG
 * come from imagecore's own `encodeRgba`; the variants it cannot write (palette, 16-bit and
 * interlaced PNG, progressive, greyscale, CMYK and EXIF-rotated JPEG, lossy WebP with alpha) from
 * sharp (libvips); GIF, BMP and ICO are hand-built in `handmade_images.ts`; SVG is text.
 * @module
 */
import sharp, { type Sharp } from "sharp";
import { encodeRgba, type SourceFormat } from "../../imagecore/mod.ts";
import { icoOf } from "../support/images.ts";
import { bmpBitfields, bmpPalette, gif, ico, icoBmpEntry, type Pixels } from "./handmade_images.ts";

/** One seed input. */
export interface Seed {
  /** Label, e.g. "png-palette". */
  name: string;
  /** The format the seed is (and imagecore should detect). */
  format: SourceFormat;
  /** Encoded bytes. */
  bytes: Uint8Array;
}

/** A logo-like test card: a gradient, a disc, transparent corners and a soft edge. */
export function testCard(width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  const [cx, cy, r] = [width / 2, height / 2, Math.min(width, height) * 0.45];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      const alpha = d > r + 1 ? 0 : d > r ? 128 : 255;
      const inDisc = d < r * 0.5;
      data.set([
        inDisc ? 230 : (x * 255 / width) | 0,
        inDisc ? 40 : (y * 255 / height) | 0,
        ((x + y) * 8) & 0xff,
        alpha,
      ], (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

function sharpOf(image: Pixels): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
}

async function bytesOf(pipeline: Sharp): Promise<Uint8Array> {
  return new Uint8Array(await pipeline.toBuffer());
}

const SVG_NS = `xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"`;

/** SVG seeds: shapes, gradients, `<use>`, filters, patterns, masks, clip paths, text, markers. */
export function svgSeeds(): Seed[] {
  const docs: Record<string, string> = {
    "svg-shapes":
      `<svg ${SVG_NS} width="48" height="32" viewBox="0 0 48 32"><rect x="2" y="2" width="20" height="12" rx="3" fill="#1a73e8"/><circle cx="34" cy="16" r="10" fill="none" stroke="#e8453c" stroke-width="3"/><path d="M2 30 L46 26 Q40 20 30 28 C20 30 10 20 2 30 Z" fill="#34a853" opacity="0.7"/><polygon points="24,2 28,10 20,10"/></svg>`,
    "svg-gradient":
      `<svg ${SVG_NS} viewBox="0 0 100 50"><defs><linearGradient id="g" x1="0" x2="1" gradientTransform="rotate(20)"><stop offset="0" stop-color="#1a73e8"/><stop offset="0.5" stop-color="#fff" stop-opacity="0.5"/><stop offset="1" stop-color="#34a853"/></linearGradient><radialGradient id="r" cx="0.5" cy="0.5" r="0.5" fx="0.3"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></radialGradient></defs><rect width="100" height="25" fill="url(#g)"/><ellipse cx="50" cy="37" rx="40" ry="12" fill="url(#r)"/></svg>`,
    "svg-use":
      `<svg ${SVG_NS} width="40" height="40"><defs><g id="a"><rect width="4" height="4"/><circle cx="6" cy="6" r="2"/></g><symbol id="s" viewBox="0 0 10 10"><use href="#a"/></symbol></defs><use href="#a" x="2"/><use xlink:href="#a" x="10" transform="scale(1.5)"/><use href="#s" x="20" y="20" width="20" height="20"/></svg>`,
    "svg-filter":
      `<svg ${SVG_NS} width="32" height="32"><defs><filter id="f" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="2"/><feOffset dx="1" dy="1"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter></defs><rect x="4" y="4" width="24" height="24" fill="teal" filter="url(#f)"/></svg>`,
    "svg-pattern-mask":
      `<svg ${SVG_NS} width="64" height="32"><defs><pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="navy"/></pattern><mask id="m"><rect width="64" height="32" fill="white"/><circle cx="32" cy="16" r="10" fill="black"/></mask><clipPath id="c"><circle cx="16" cy="16" r="14"/></clipPath></defs><rect width="64" height="32" fill="url(#p)" mask="url(#m)"/><rect width="32" height="32" fill="orange" clip-path="url(#c)"/></svg>`,
    "svg-text-marker":
      `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg>\n<svg ${SVG_NS} width="60" height="20"><style>.a{fill:#333;stroke:#f00;stroke-dasharray:2 1}</style><defs><marker id="k" markerWidth="4" markerHeight="4" refX="2" refY="2"><circle cx="2" cy="2" r="2"/></marker></defs><text x="2" y="15" font-size="12">Logo</text><polyline class="a" points="2,2 20,18 40,2 58,18" fill="none" marker-mid="url(#k)"/></svg>`,
  };
  return Object.entries(docs).map(([name, text]) => ({
    name,
    format: "svg" as const,
    bytes: new TextEncoder().encode(text),
  }));
}

/** Every seed, each a valid image of its format (checked by the fuzzer before it starts). */
export async function makeSeeds(): Promise<Seed[]> {
  const card = testCard(23, 15);
  const big = testCard(64, 48);
  const opaque = sharpOf(card).flatten({ background: "#ffffff" });
  const seeds: Seed[] = [
    { name: "png-rgba", format: "png", bytes: encodeRgba(card.data, 23, 15, "png") },
    { name: "png-rgba-64", format: "png", bytes: encodeRgba(big.data, 64, 48, "png") },
    {
      name: "png-palette",
      format: "png",
      bytes: await bytesOf(sharpOf(card).png({ palette: true, dither: 0 })),
    },
    {
      name: "png-16bit",
      format: "png",
      bytes: await bytesOf(sharpOf(card).toColourspace("rgb16").png()),
    },
    {
      name: "png-interlaced",
      format: "png",
      bytes: await bytesOf(sharpOf(card).png({ progressive: true })),
    },
    { name: "png-grey", format: "png", bytes: await bytesOf(opaque.clone().greyscale().png()) },
    { name: "jpeg-baseline", format: "jpeg", bytes: encodeRgba(card.data, 23, 15, "jpeg") },
    {
      name: "jpeg-progressive",
      format: "jpeg",
      bytes: await bytesOf(opaque.clone().jpeg({ progressive: true })),
    },
    { name: "jpeg-grey", format: "jpeg", bytes: await bytesOf(opaque.clone().greyscale().jpeg()) },
    {
      name: "jpeg-cmyk",
      format: "jpeg",
      bytes: await bytesOf(opaque.clone().toColourspace("cmyk").jpeg()),
    },
    {
      name: "jpeg-exif-rotated",
      format: "jpeg",
      bytes: await bytesOf(
        opaque.clone().jpeg({ chromaSubsampling: "4:4:4" }).withMetadata({ orientation: 6 }),
      ),
    },
    { name: "webp-lossless", format: "webp", bytes: encodeRgba(card.data, 23, 15, "webp") },
    {
      name: "webp-lossy",
      format: "webp",
      bytes: await bytesOf(opaque.clone().webp({ quality: 70 })),
    },
    {
      name: "webp-lossy-alpha",
      format: "webp",
      bytes: await bytesOf(sharpOf(card).webp({ quality: 70, alphaQuality: 60 })),
    },
    { name: "gif", format: "gif", bytes: gif(card) },
    {
      name: "gif-interlaced-2frames",
      format: "gif",
      bytes: gif(card, { interlace: true, frames: 2 }),
    },
    { name: "gif-sharp", format: "gif", bytes: await bytesOf(sharpOf(card).gif()) },
    { name: "bmp-rle8", format: "bmp", bytes: bmpPalette(card, "rle8") },
    { name: "bmp-rle4", format: "bmp", bytes: bmpPalette(card, "rle4") },
    { name: "bmp-8bit-topdown", format: "bmp", bytes: bmpPalette(card, "8bit", true) },
    { name: "bmp-1bit", format: "bmp", bytes: bmpPalette(card, "1bit") },
    { name: "bmp-32bit-bitfields", format: "bmp", bytes: bmpBitfields(card) },
    {
      name: "ico-bmp",
      format: "ico",
      bytes: ico([
        { data: icoBmpEntry(testCard(16, 16), 8), side: 16, bpp: 8 },
        { data: icoBmpEntry(testCard(32, 32), 32), side: 32, bpp: 32 },
      ]),
    },
    {
      name: "ico-png",
      format: "ico",
      bytes: icoOf([
        { png: encodeRgba(testCard(16, 16).data, 16, 16, "png"), side: 16 },
        { png: await bytesOf(sharpOf(big).png({ palette: true })), side: 64 },
      ]),
    },
    {
      name: "ico-mixed",
      format: "ico",
      bytes: ico([
        { data: icoBmpEntry(testCard(24, 24), 32), side: 24, bpp: 32 },
        { data: encodeRgba(card.data, 23, 15, "png"), side: 23, bpp: 32 },
      ]),
    },
    ...svgSeeds(),
  ];
  return seeds;
}
