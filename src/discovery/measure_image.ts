/**
 * What a fetched candidate really is, from its bytes alone: never from its URL, extension or
 * `Content-Type`.
 *
 * Markup is told apart first: a document whose first element is `<svg>` is an SVG (handed to
 * imagecore, which rasterises it with resvg); any other markup — typically an HTML error page
 * served as `icon.png` — is refused. Everything else goes to imagecore's `probe` (header only),
 * and {@link verifyImage} decodes all the pixels, which catches truncated files. imagecore only
 * ever sees these untrusted bytes in an image pool's worker (`imagecore/image_pool.ts`): bounded
 * in time and memory, and off the serving isolate.
 *
 * @module
 */
import { Parser } from "htmlparser2";
import { ImageCoreError } from "../../imagecore/mod.ts";
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { markupStart } from "../../imagecore/markup_start.ts";
import { SOURCE_MAX_WIDTH } from "../store/logo_ingest.ts";

/** Size and format of a candidate image. */
export interface ImageFacts {
  /** "svg", "png", "jpeg", "gif", "webp", "ico" or "bmp". */
  format: string;
  /** Width in px. */
  width: number;
  /** Height in px. */
  height: number;
}

/** Why a candidate is not usable; `message` is readable ("HTML, not an image"). */
export class NotAnImage extends Error {
  /** Creates the refusal. */
  constructor(message: string) {
    super(message);
    this.name = "NotAnImage";
  }
}

/** Rasterised width of an SVG winner; the store keeps sources at most this wide. */
export const SVG_RASTER_WIDTH: number = SOURCE_MAX_WIDTH;
/** Wall-clock cap on one imagecore job on untrusted bytes (probe, decode, rasterise), in ms. */
export const IMAGE_DEADLINE_MS = 2000;
const SNIFF_BYTES = 4096;

/**
 * The name of the first element of `bytes` if it starts as markup (see `markupStart`: after a
 * BOM and white space; then past an XML declaration, comments or a doctype), else undefined.
 *
 * @example
 * ```ts
 * firstElement(new TextEncoder().encode('<?xml version="1.0"?><svg/>')); // "svg"
 * ```
 */
export function firstElement(bytes: Uint8Array): string | undefined {
  const start = markupStart(bytes);
  if (start < 0) return undefined;
  const head = new TextDecoder().decode(bytes.subarray(start, start + SNIFF_BYTES));
  let name: string | undefined;
  const parser = new Parser({
    onopentag(tag) {
      name ??= tag.toLowerCase();
    },
  }, { xmlMode: true });
  parser.write(head);
  parser.end();
  // Markup whose first element lies beyond the sniffed prefix is still markup, not an image.
  return name ?? "";
}

/**
 * Sniffs and measures `bytes` without decoding pixels (imagecore's probe runs in `imaging`, the
 * discovery's image pool).
 *
 * @throws {NotAnImage} for HTML or other markup, and unknown or corrupt data (SVG included).
 * @example
 * ```ts
 * import { startImagePool } from "../../imagecore/image_pool.ts";
 *
 * const pool = startImagePool();
 * const pngBytes = await Deno.readFile("icon-512.png");
 * await measureImage(pngBytes, pool); // { format: "png", width: 512, height: 512 }
 * ```
 */
export async function measureImage(bytes: Uint8Array, imaging: ImageWork): Promise<ImageFacts> {
  if (bytes.length === 0) throw new NotAnImage("empty body");
  const element = firstElement(bytes);
  if (element !== undefined && element.replace(/^.*:/, "") !== "svg") {
    throw new NotAnImage(element === "html" ? "HTML, not an image" : "markup, not an image");
  }
  try {
    const facts = await imaging.probe(bytes, { deadlineMs: IMAGE_DEADLINE_MS });
    return { format: facts.format, width: facts.width, height: facts.height };
  } catch (error) {
    if (!(error instanceof ImageCoreError)) throw error;
    throw new NotAnImage(error.message);
  }
}

/**
 * Decodes every pixel of `bytes` (a truncated or corrupt file fails here even when its header
 * probes fine) and returns what to store: the bytes themselves for rasters, a PNG rasterised
 * {@link SVG_RASTER_WIDTH} px wide for SVG — in `imaging`, within {@link IMAGE_DEADLINE_MS}.
 *
 * @throws {NotAnImage} when imagecore cannot decode it.
 * @example
 * ```ts
 * import { startImagePool } from "../../imagecore/image_pool.ts";
 *
 * const pool = startImagePool();
 * const bytes = await Deno.readFile("logo.svg");
 * const storable = await verifyImage(bytes, await measureImage(bytes, pool), pool);
 * ```
 */
export async function verifyImage(
  bytes: Uint8Array,
  facts: ImageFacts,
  imaging: ImageWork,
): Promise<Uint8Array> {
  const job = { deadlineMs: IMAGE_DEADLINE_MS };
  try {
    if (facts.format === "svg") {
      return (await imaging.transform(bytes, { width: SVG_RASTER_WIDTH }, job)).bytes;
    }
    await imaging.transform(bytes, { width: Math.max(1, Math.min(facts.width, 64)) }, job);
    return bytes;
  } catch (error) {
    if (!(error instanceof ImageCoreError)) throw error;
    throw new NotAnImage(error.message);
  }
}
