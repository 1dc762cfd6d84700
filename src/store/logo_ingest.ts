/**
 * Logo ingestion: validate an uploaded image and precompute what serving it needs, so that a
 * default request does no decoding at all.
 *
 * From any source imagecore decodes (PNG, JPEG, GIF, WebP, ICO, BMP, SVG) it produces two PNG
 * renditions, in ONE imagecore job that decodes the source once (`renditions` of
 * `imagecore/mod.ts`):
 * - `source`: the source as a PNG at most {@link SOURCE_MAX_WIDTH} px wide, never upscaled —
 *   every size but 128 px (and below) is rendered from it. A PNG that needs no resize is kept as
 *   it came, minus the chunks no decoder here reads (text, EXIF, colour profiles: imagecore's
 *   `png_as_is.rs` says which are kept and when a PNG is re-encoded instead); any other source is
 *   decoded and encoded as PNG;
 * - `default`: exactly the body of `GET /{domain}?token=…` with no options,
 *   `transform(source, { width: 128 })`.
 *
 * When the source is an SVG, recipe 3 (this one) also stores `svg`: its sanitised SVG
 * (`sanitizeSvg` of `imagecore/mod.ts`, written in the same job), which `format=svg` answers. An
 * SVG whose sanitised document would pass 1 MiB, or could not be written safely, is stored with
 * its PNGs alone, as is every raster source.
 *
 * Recipe 1 also stored a 256-px `mid`; recipe 2 does not: it was 31 % of the bytes stored and
 * served only requests from 129 to 256 px wide (docs/operate/ingestion.md has the measurements).
 * Records made by recipe 1 keep it until `logo rerender` (or a new `put`) replaces them. Records of
 * SVG sources made by recipes 1 and 2 have no `svg` and never will from `logo rerender`, which has
 * only their PNG source: a new `put` of the SVG (the same bytes are re-ingested, the recipe being
 * older) stores it.
 *
 * Where imagecore runs is passed in: untrusted bytes (discovery, `logo add`, `logo import`) go to
 * an image pool (`imagecore/image_pool.ts`), whose workers are bounded in time and memory;
 * {@link IN_PROCESS} (the default) is for the service's own bytes, such as the demo logos.
 *
 * @example
 * ```ts
 * import { prepareLogo } from "./logo_ingest.ts";
 * import { startImagePool } from "../../imagecore/image_pool.ts";
 * await using pool = startImagePool();
 * const prepared = await prepareLogo(await Deno.readFile("acme.jpg"), pool);
 * prepared.renditions.default.width; // 128
 * ```
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { probe, renditions, type RenditionsOptions, transform } from "../../imagecore/mod.ts";
import { SOURCE_MIME } from "../../imagecore/formats.ts";
import { CONTENT_TYPES, DEFAULT_SIZE, MAX_SECRET_SIZE } from "../sdk/logo_options.ts";
import { sha256Hex } from "./sha256.ts";

/** Widest normalised source kept, in px: the largest size a request may ask for (1200). */
export const SOURCE_MAX_WIDTH: number = MAX_SECRET_SIZE;
/** Width of the `default` rendition: the spec's default size (128). */
export const DEFAULT_WIDTH: number = DEFAULT_SIZE;
/**
 * Version of the rendition recipe. A record made by an older recipe is re-ingested by the next
 * `put` of the same bytes instead of being skipped as unchanged, and re-rendered from its stored
 * source by `logo rerender`. 2: no `mid`, renditions from one decode. 3: an SVG source's
 * sanitised `svg`.
 */
export const PIPELINE_VERSION = 3;

/** Name of the sanitised SVG rendition of an SVG source (recipe 3). */
export const SVG_RENDITION = "svg";

/** MIME type of each source format imagecore decodes (imagecore's format registry). */
export { SOURCE_MIME };

/**
 * imagecore in this isolate, with no time or memory bound: only for bytes the service made itself.
 *
 * @example
 * ```ts
 * const demoPng = await Deno.readFile("demo.png"); // made by the service itself
 * const prepared = await prepareLogo(demoPng, IN_PROCESS);
 * ```
 */
export const IN_PROCESS: ImageWork = Object.freeze({
  probe: (input: Uint8Array) => Promise.resolve().then(() => probe(input)),
  transform: (input: Uint8Array, options = {}) =>
    Promise.resolve().then(() => transform(input, options)),
  renditions: (input: Uint8Array, options: RenditionsOptions) =>
    Promise.resolve().then(() => renditions(input, options)),
});

/** One precomputed rendition with its bytes. */
export interface PreparedRendition {
  /** SHA-256 hex of `bytes`. */
  hash: string;
  /** MIME type of `bytes`: `image/png`, or `image/svg+xml` for {@link SVG_RENDITION}. */
  type: string;
  /** Width in px. */
  width: number;
  /** Height in px. */
  height: number;
  /** The encoded image. */
  bytes: Uint8Array;
}

/** What {@link prepareLogo} returns: facts about the source and the renditions to store. */
export interface PreparedLogo {
  /** SHA-256 hex of the bytes as given. */
  hash: string;
  /** MIME type of the source as detected from its bytes. */
  type: string;
  /** Source width in px. */
  width: number;
  /** Source height in px. */
  height: number;
  /** `source` and `default`, and {@link SVG_RENDITION} for an SVG source. */
  renditions: Record<string, PreparedRendition>;
}

async function prepared(
  image: { bytes: Uint8Array; width: number; height: number },
  type: string,
): Promise<PreparedRendition> {
  const { bytes, width, height } = image;
  return { hash: await sha256Hex(bytes), type, width, height, bytes };
}

/**
 * The sanitised SVG rendition of an SVG document, in `imaging`: of a stored one (`logo rerender`:
 * written again by the current sanitiser, the source as given not being kept), or of a wordmark's
 * SVG source (`wordmark_ingest.ts`, whose PNGs come from a wider raster); `undefined` when the
 * sanitiser refuses it.
 *
 * @throws {ImageCoreError} when imagecore refuses the stored document outright (a store damaged
 *   by hand).
 */
export async function resanitizeSvg(
  stored: Uint8Array,
  imaging: ImageWork = IN_PROCESS,
): Promise<PreparedRendition | undefined> {
  // Drawn 1 px wide, the cheapest raster the call makes alongside.
  const made = await imaging.renditions(stored, { sourceMaxWidth: 1, widths: [] });
  return made.svg === undefined ? undefined : await prepared(made.svg, SOURCE_MIME.svg);
}

/**
 * Validates `bytes` with imagecore (in `imaging`) and renders the renditions: one imagecore job,
 * one decode.
 *
 * @throws {ImageCoreError} for bytes imagecore refuses, with its message, e.g.
 *   "Cannot decode image: unsupported format".
 */
export async function prepareLogo(
  bytes: Uint8Array,
  imaging: ImageWork = IN_PROCESS,
): Promise<PreparedLogo> {
  const made = await imaging.renditions(bytes, {
    sourceMaxWidth: SOURCE_MAX_WIDTH,
    widths: [DEFAULT_WIDTH],
  });
  const [source, defaultImage] = made.images;
  const renditions: Record<string, PreparedRendition> = {};
  for (const [name, image] of [["source", source], ["default", defaultImage]] as const) {
    renditions[name] = await prepared(image, CONTENT_TYPES.png);
  }
  if (made.svg !== undefined) renditions[SVG_RENDITION] = await prepared(made.svg, SOURCE_MIME.svg);
  return {
    hash: await sha256Hex(bytes),
    type: SOURCE_MIME[made.format],
    width: made.width,
    height: made.height,
    renditions,
  };
}
