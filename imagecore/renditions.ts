/**
 * Several renditions of one source from a single decode ({@link ./mod.ts}'s `renditions`): the
 * types, and the reading of the packed result the WASM export returns (`src/raster/renditions.rs`).
 *
 * The packed form — one buffer with every image after a small table — is what crosses from an
 * image worker to the pool as one transferred `ArrayBuffer`; {@link unpackRenditions} turns it
 * into one view per rendition, without copying.
 *
 * @example
 * ```ts
 * import { renditions } from "./mod.ts";
 * const logo = await Deno.readFile("logo.png");
 * const { width, images } = renditions(logo, { sourceMaxWidth: 1200, widths: [128] });
 * images[0].width; // min(width, 1200): the source rendition
 * images[1].width; // 128
 * ```
 * @module
 */
import type { SourceFormat } from "./formats.ts";
import { ImageCoreError, LIMITS } from "./refusals.ts";

/** Most further widths one call takes (`MAX_EXTRA_WIDTHS` of `src/raster/renditions.rs`). */
export const MAX_EXTRA_WIDTHS = 8;

/** Options of `renditions`. */
export interface RenditionsOptions {
  /** The source rendition is the source at most this wide (never upscaled). */
  sourceMaxWidth: number;
  /** Widths of the further renditions, each resized from the source rendition's pixels (≤ 8). */
  widths: readonly number[];
  /**
   * What an SVG source also gives as the result's `svg`: `"sanitize"` (the default), its
   * sanitised document (`sanitizeSvg` of `mod.ts`); `"check"`, the source itself once
   * `checkSanitizedSvg` accepts it as a sanitised document (an archive's stored one), else the
   * call throws. A raster source ignores it.
   */
  svg?: "sanitize" | "check";
}

/**
 * A sanitised SVG document (`sanitizeSvg` of `mod.ts`): UTF-8, its root `<svg viewBox="0 0 w h"
 * width="…" height="…"`, and its intrinsic size in whole pixels.
 */
export interface SanitizedSvg {
  /** The document. */
  bytes: Uint8Array;
  /** Intrinsic width in px (rounded up). */
  width: number;
  /** Intrinsic height in px (rounded up). */
  height: number;
}

/** One rendition: a PNG. */
export interface RenditionImage {
  /** The PNG. */
  bytes: Uint8Array;
  /** Width in px. */
  width: number;
  /** Height in px. */
  height: number;
}

/** What `renditions` returns. */
export interface RenditionsResult {
  /** Format of the source, detected from its bytes. */
  format: SourceFormat;
  /** Source width in px (from its header). */
  width: number;
  /** Source height in px (from its header). */
  height: number;
  /** The source rendition first, then one per asked width, in order. */
  images: RenditionImage[];
  /**
   * An SVG source's sanitised document (see {@link RenditionsOptions.svg}); absent for a raster
   * source, or when the sanitised document would pass its size cap or could not be written
   * safely (`sanitizeSvg`'s `too_large` and `unsupported_format`): the PNGs alone are stored.
   */
  svg?: SanitizedSvg;
}

/**
 * `renditions`' result as it crosses a worker boundary: every image in one buffer, `bytes`, and
 * their sizes in `parts`.
 */
export interface PackedRenditions {
  /** Format of the source. */
  format: SourceFormat;
  /** Source width in px. */
  width: number;
  /** Source height in px. */
  height: number;
  /** The images, one after the other. */
  bytes: Uint8Array;
  /** Width, height and byte length of each image, in order. */
  parts: { width: number; height: number; length: number }[];
  /** As {@link RenditionsResult.svg}. */
  svg?: SanitizedSvg;
}

/**
 * Refuses options the WASM export would misread: every width must be a whole number from 1 to
 * the output limit, and at most 8 further widths.
 *
 * @throws {ImageCoreError} `invalid_argument`, e.g. "Cannot resize image: width must be an
 *   integer from 1 to 4096".
 * @example
 * ```ts
 * checkRenditionsOptions({ sourceMaxWidth: 1200, widths: [128] }); // fine
 * ```
 */
export function checkRenditionsOptions(options: RenditionsOptions): void {
  const asked = [options.sourceMaxWidth, ...options.widths];
  if (!asked.every((w) => Number.isInteger(w) && w >= 1 && w <= LIMITS.outputSide)) {
    throw new ImageCoreError(
      "invalid_argument",
      `Cannot resize image: width must be an integer from 1 to ${LIMITS.outputSide}`,
    );
  }
  if (options.svg !== undefined && options.svg !== "sanitize" && options.svg !== "check") {
    throw new ImageCoreError(
      "invalid_argument",
      "Cannot render renditions: svg must be sanitize or check",
    );
  }
  if (options.widths.length > MAX_EXTRA_WIDTHS) {
    throw new ImageCoreError(
      "invalid_argument",
      `Cannot render renditions: at most ${MAX_EXTRA_WIDTHS} widths`,
    );
  }
}

/**
 * Reads the WASM export's packed images (count, then width, height and length of each, all u32
 * LE, then the bytes) into a {@link PackedRenditions}; `bytes` is a view of `packed`.
 *
 * @example
 * ```ts
 * const packed = new Uint8Array(4); // zero renditions
 * readPacked(packed, { format: "png", width: 1, height: 1 }).parts.length; // 0
 * ```
 */
export function readPacked(
  packed: Uint8Array,
  source: { format: SourceFormat; width: number; height: number },
): PackedRenditions {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const count = view.getUint32(0, true);
  const parts = [];
  for (let i = 0; i < count; i++) {
    const at = 4 + 12 * i;
    parts.push({
      width: view.getUint32(at, true),
      height: view.getUint32(at + 4, true),
      length: view.getUint32(at + 8, true),
    });
  }
  return { ...source, bytes: packed.subarray(4 + 12 * count), parts };
}

/**
 * The images of a {@link PackedRenditions}, each a view of its `bytes`.
 *
 * @example
 * ```ts
 * const parts = [{ width: 2, height: 1, length: 3 }];
 * const packed: PackedRenditions = { format: "png", width: 2, height: 1, bytes: new Uint8Array(3), parts };
 * unpackRenditions(packed).images[0].bytes.length; // 3
 * ```
 */
export function unpackRenditions(packed: PackedRenditions): RenditionsResult {
  let offset = 0;
  const images = packed.parts.map(({ width, height, length }) => {
    const bytes = packed.bytes.subarray(offset, offset + length);
    offset += length;
    return { bytes, width, height };
  });
  const { format, width, height, svg } = packed;
  return svg === undefined
    ? { format, width, height, images }
    : { format, width, height, images, svg };
}
