/**
 * Logo ingestion: validate an uploaded image and precompute what serving it needs, so that a
 * default request does no decoding at all.
 *
 * From any source imagecore decodes (PNG, JPEG, GIF, WebP, ICO, BMP) it produces PNG renditions:
 * - `source`: the normalised source, at most {@link SOURCE_MAX_WIDTH} px wide, never upscaled —
 *   every other size is rendered from it (or from `mid`);
 * - `default`: exactly the body of `GET /{domain}?token=…` with no options,
 *   `transform(source, { width: 128 })`;
 * - `mid`: {@link MID_WIDTH} px wide, only when the source is wider, for cheap small renders.
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
import { probe, type SourceFormat, transform, type TransformOptions } from "../../imagecore/mod.ts";
import { CONTENT_TYPES, DEFAULT_SIZE, MAX_SECRET_SIZE } from "../sdk/logo_options.ts";
import { sha256Hex } from "./sha256.ts";

/** Widest normalised source kept, in px: the largest size a request may ask for (1200). */
export const SOURCE_MAX_WIDTH: number = MAX_SECRET_SIZE;
/** Width of the `default` rendition: the spec's default size (128). */
export const DEFAULT_WIDTH: number = DEFAULT_SIZE;
/** Width of the `mid` rendition, made when the source is wider. */
export const MID_WIDTH = 256;
/**
 * Version of the rendition recipe. A record made by an older recipe is re-ingested by the next
 * `put` of the same bytes instead of being skipped as unchanged.
 */
export const PIPELINE_VERSION = 1;

/** MIME type of each source format imagecore decodes. */
export const SOURCE_MIME: Readonly<Record<SourceFormat, string>> = Object.freeze({
  ...CONTENT_TYPES,
  gif: "image/gif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  svg: "image/svg+xml",
});

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
});

/** One precomputed rendition with its bytes. */
export interface PreparedRendition {
  /** SHA-256 hex of `bytes`. */
  hash: string;
  /** MIME type of `bytes` (always `image/png`). */
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
  /** `source`, `default` and (for sources wider than {@link MID_WIDTH}) `mid`. */
  renditions: Record<string, PreparedRendition>;
}

/**
 * Validates `bytes` with imagecore (in `imaging`) and renders the renditions: a few milliseconds
 * of imagecore work per rendition.
 *
 * @throws {ImageCoreError} for bytes imagecore refuses, with its message, e.g.
 *   "Cannot decode image: unsupported format".
 */
export async function prepareLogo(
  bytes: Uint8Array,
  imaging: ImageWork = IN_PROCESS,
): Promise<PreparedLogo> {
  const info = await imaging.probe(bytes);
  // Stored renditions are written once and served many times: the encoder's smallest setting.
  const stored = (input: Uint8Array, options: TransformOptions) =>
    imaging.transform(input, { ...options, effort: "small" });
  const source = await stored(bytes, { width: Math.min(info.width, SOURCE_MAX_WIDTH) });
  const outputs = {
    source,
    default: await stored(source.bytes, { width: DEFAULT_WIDTH }),
  };
  if (source.width > MID_WIDTH) {
    Object.assign(outputs, { mid: await stored(source.bytes, { width: MID_WIDTH }) });
  }
  const renditions: Record<string, PreparedRendition> = {};
  for (const [name, out] of Object.entries(outputs)) {
    renditions[name] = {
      hash: await sha256Hex(out.bytes),
      type: CONTENT_TYPES[out.format],
      width: out.width,
      height: out.height,
      bytes: out.bytes,
    };
  }
  return {
    hash: await sha256Hex(bytes),
    type: SOURCE_MIME[info.format],
    width: info.width,
    height: info.height,
    renditions,
  };
}
