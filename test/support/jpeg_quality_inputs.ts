/**
 * The quality inputs of JPEG shrink-on-load (issue 34 §1), made deterministically and encoded as
 * JPEG by imagecore itself, so that the bench (`bench/jpeg_quality_bench.ts`, which also runs
 * sharp) and the pinning test (`test/imagecore/jpeg_shrink_quality_test.ts`, which does not) see
 * the same bytes: a flat logo with a soft shadow, 1-px line grids, text-like rows and a photo-like
 * image (gradients, texture and noise), at 512², 1024² and 2048², resized to 32–512 px, in colour
 * and in greyscale.
 *
 * The reference of every case is the JPEG decoded at full size by imagecore (zune-jpeg; for a
 * greyscale case, made grey by imagecore's Rec. 709 luma), then one Lanczos3 convolution to the
 * output width (the WASM module's `bench_resize` with `reference`, no box pre-shrink). PSNR is over
 * R, G and B (a JPEG has no alpha), over the one grey channel for a greyscale case.
 *
 * @example
 * ```ts
 * import { imagecorePsnr, JPEG_QUALITY_CASES } from "./jpeg_quality_inputs.ts";
 * const first = JPEG_QUALITY_CASES[0];
 * console.log(first.name, imagecorePsnr(first).toFixed(1));
 * ```
 * @module
 */
import { encodeRgba, transform } from "../../imagecore/mod.ts";
import * as glue from "../../imagecore/pkg/imagecore.js";
import { pngPixels } from "./png_pixels.ts";

/** The kinds of source. */
export const KINDS = ["logo", "line grid", "text rows", "photo"] as const;
/** Square source sides. */
export const SIDES = [512, 1024, 2048] as const;
/** Output widths (those under the source side are used). */
export const WIDTHS = [32, 64, 100, 128, 200, 256, 512] as const;

/** One quality case: a source kind and side, the output width, colour or greyscale. */
export interface JpegQualityCase {
  /**
   * "kind side→width", e.g. "photo 1024→128", with " grey" after it for a greyscale output: the
   * key of the recorded sharp figures.
   */
  name: string;
  kind: (typeof KINDS)[number];
  side: number;
  width: number;
  greyscale: boolean;
}

/** Every case, in table order: the colour ones, then the same in greyscale. */
export const JPEG_QUALITY_CASES: JpegQualityCase[] = [false, true].flatMap((greyscale) =>
  KINDS.flatMap((kind) =>
    SIDES.flatMap((side) =>
      WIDTHS.filter((width) => width < side).map((width) => ({
        name: `${kind} ${side}→${width}${greyscale ? " grey" : ""}`,
        kind,
        side,
        width,
        greyscale,
      }))
    )
  )
);

/** Samples compared by the PSNR of a case: R, G and B, or the grey channel alone. */
function comparedChannels(c: Pick<JpegQualityCase, "greyscale">): number {
  return c.greyscale ? 1 : 3;
}

/** A seeded 32-bit generator (mulberry32), 0 ≤ n < 1. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Opaque RGBA8 pixels of a `side`² source of `kind`. */
export function sourcePixels(kind: JpegQualityCase["kind"], side: number): Uint8Array {
  const pixels = new Uint8Array(side * side * 4);
  const noise = random(side * 31 + KINDS.indexOf(kind));
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const [u, v] = [x / side, y / side];
      let rgb: number[];
      if (kind === "logo") {
        // An orange rounded badge with white bars, its soft shadow on a white page.
        const inBadge = (du: number, dv: number) => {
          const [cu, cv] = [
            Math.min(Math.max(u - du, 0.2), 0.8),
            Math.min(Math.max(v - dv, 0.3), 0.7),
          ];
          return Math.hypot(u - du - cu, v - dv - cv) < 0.08;
        };
        const bar = u > 0.22 && u < 0.78 && Math.floor(v * 20) % 3 === 0 && v > 0.32 && v < 0.68;
        const shadow = inBadge(-0.03, -0.03) ? 0 : inBadge(-0.015, -0.015) ? 0.5 : 1;
        rgb = inBadge(0, 0)
          ? (bar ? [255, 255, 255] : [240, 120, 20])
          : [1, 1, 1].map(() => 255 - 60 * (1 - shadow));
      } else if (kind === "line grid") {
        const line = x % 7 === 0 || y % 7 === 0 || (x + y) % 11 === 0;
        rgb = line ? [0, 0, 0] : [255, 255, 255];
      } else if (kind === "text rows") {
        const [row, line, glyph, column] = [Math.floor(y / 13), y % 13, Math.floor(x / 6), x % 6];
        const seed = Math.imul(Math.imul(row, 7919) ^ Math.imul(glyph, 104729), 2654435761) >>> 0;
        const stroke = line < 9 && column < 5 &&
          (((seed >>> (column + 5 * (line % 3))) & 1) === 1 || column === (seed >>> 28) % 5);
        rgb = stroke ? [32, 33, 36] : [255, 255, 255];
      } else {
        const texture = 18 * Math.sin(x * 0.9) * Math.cos(y * 0.7) + 24 * (noise() - 0.5);
        const disc = (u - 0.6) ** 2 + (v - 0.4) ** 2 < 0.06 ? 70 : 0;
        rgb = [40 + 160 * u, 60 + 120 * v, 200 - 150 * u * v].map((c) => c + texture + disc);
      }
      pixels.set(
        [...rgb.map((c) => Math.round(Math.min(255, Math.max(0, c)))), 255],
        (y * side + x) * 4,
      );
    }
  }
  return pixels;
}

const jpegs = new Map<string, Uint8Array>();
const fullDecodes = new Map<string, Uint8Array>();

/** The source of `c` as a JPEG (imagecore's encoder, quality 88), made once. */
export function sourceJpeg(c: Pick<JpegQualityCase, "kind" | "side">): Uint8Array {
  const key = `${c.kind} ${c.side}`;
  let jpeg = jpegs.get(key);
  if (!jpeg) {
    jpeg = encodeRgba(sourcePixels(c.kind, c.side), c.side, c.side, "jpeg").slice();
    jpegs.set(key, jpeg);
  }
  return jpeg;
}

/** The reference output of `c`, RGBA8: the full decode (grey), then one Lanczos3 convolution. */
export function referencePixels(c: JpegQualityCase): Uint8Array {
  const key = `${c.kind} ${c.side} ${c.greyscale}`;
  let full = fullDecodes.get(key);
  if (!full) {
    // At its own width, transform decodes at full size and does not resize (greyscale: only luma).
    const options = { width: c.side, greyscale: c.greyscale };
    full = pngPixels(transform(sourceJpeg(c), options).bytes).data;
    fullDecodes.set(key, full);
  }
  // The instance transform initialised; `reference`: Lanczos3 over every pixel.
  return glue.bench_resize(full, c.side, c.side, c.width, c.width, true, false);
}

/** imagecore's output of `c` (shrink-on-load where it applies), RGBA8. */
export function imagecorePixels(c: JpegQualityCase): Uint8Array {
  const options = { width: c.width, greyscale: c.greyscale };
  return pngPixels(transform(sourceJpeg(c), options).bytes).data;
}

/**
 * PSNR in dB over the first `compared` samples of each pixel (3: R, G and B; 1: grey) of `image`
 * against `reference`, each `imageChannels` and `referenceChannels` samples a pixel.
 */
export function rgbPsnr(
  image: Uint8Array,
  imageChannels: number,
  reference: Uint8Array,
  referenceChannels: number,
  compared = 3,
): number {
  const pixels = image.length / imageChannels;
  if (pixels !== reference.length / referenceChannels) throw new Error("sizes differ");
  let squared = 0;
  for (let p = 0; p < pixels; p++) {
    for (let c = 0; c < compared; c++) {
      squared += (image[p * imageChannels + c] - reference[p * referenceChannels + c]) ** 2;
    }
  }
  return 10 * Math.log10(255 * 255 / (squared / (pixels * compared)));
}

/** imagecore's PSNR on `c` against the reference. */
export function imagecorePsnr(c: JpegQualityCase): number {
  return rgbPsnr(imagecorePixels(c), 4, referencePixels(c), 4, comparedChannels(c));
}
