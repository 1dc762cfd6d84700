/**
 * Wordmark ingestion (`type=logo`): the renditions of a domain's wide logo, made as an icon's are
 * (`logo_ingest.ts`: a `source` at most 1200 px wide, never upscaled, and the 128-px `default`),
 * with one difference for vector sources.
 *
 * `size` is the width for a wordmark as for an icon, and a wordmark is wide: a page asks for it at
 * 300–800 px where it asks an icon at 32–128. Every size is rendered from the stored `source`
 * (`planRender` in `src/http/render_variant.ts`), so the source must be at least as wide as the
 * widest request it can serve. A raster source is kept at its own width (at most 1200 px): nothing
 * wider exists, and upscaling it at ingestion would only store a blur. An SVG source has no pixels
 * of its own; rasterised at its declared width (often 150–300 px for a wordmark), a 400-px request
 * would upscale that raster. So an SVG wordmark is rasterised at {@link vectorSourceWidth} — 1200 px,
 * the largest size a request may ask for, narrowed only to keep the height within imagecore's 4096
 * px — and the renditions are made from that raster. The record keeps the SVG's own facts (hash,
 * type, declared size), so a second `put` of the same file is still skipped before any decoding.
 *
 * Icons keep the recipe of `logo_ingest.ts` unchanged, so no stored icon changes.
 *
 * @example
 * ```ts
 * import { prepareWordmark } from "./wordmark_ingest.ts";
 * const svg = await Deno.readFile("acme-wordmark.svg"); // declared 200 × 50
 * const prepared = await prepareWordmark(svg);
 * prepared.renditions.source.width; // 1200: a 400-px request renders from a wider source
 * prepared.width;                   // 200: the SVG's declared width
 * ```
 * @module
 */
import type { ImageWork } from "../../imagecore/image_pool.ts";
import { LIMITS } from "../../imagecore/refusals.ts";
import {
  IN_PROCESS,
  type PreparedLogo,
  prepareLogo,
  resanitizeSvg,
  SOURCE_MAX_WIDTH,
  SVG_RENDITION,
} from "./logo_ingest.ts";
import { SOURCE_MIME } from "../../imagecore/formats.ts";
import { sha256Hex } from "./sha256.ts";

/**
 * The width an SVG wordmark declared `width`×`height` is rasterised at: {@link SOURCE_MAX_WIDTH},
 * or the widest whose height stays within imagecore's 4096-px side, and never less than the
 * declared width capped at {@link SOURCE_MAX_WIDTH} (what an icon would get).
 *
 * @example
 * ```ts
 * import { vectorSourceWidth } from "./wordmark_ingest.ts";
 * vectorSourceWidth(200, 50);  // 1200
 * vectorSourceWidth(100, 800); // 512: 4096 px high
 * ```
 */
export function vectorSourceWidth(width: number, height: number): number {
  const fitsHeight = Math.floor(LIMITS.outputSide * width / Math.max(1, height));
  return Math.max(Math.min(width, SOURCE_MAX_WIDTH), Math.min(SOURCE_MAX_WIDTH, fitsHeight));
}

/**
 * The widest `source` rendition a wordmark's record may have, from its source facts: for an SVG,
 * {@link vectorSourceWidth}; otherwise its width capped at 1200 px, as for an icon. Archive imports
 * check a wordmark's renditions against it (`archive_images.ts`).
 */
export function wordmarkSourceBound(
  record: { type: string; width: number; height: number },
): number {
  return record.type === SOURCE_MIME.svg
    ? vectorSourceWidth(record.width, record.height)
    : Math.min(record.width, SOURCE_MAX_WIDTH);
}

/**
 * Validates `bytes` with imagecore (in `imaging`) and renders a wordmark's renditions: those of
 * `prepareLogo`, from a {@link vectorSourceWidth}-wide raster when the source is an SVG.
 *
 * @throws {ImageCoreError} for bytes imagecore refuses, with its message.
 */
export async function prepareWordmark(
  bytes: Uint8Array,
  imaging: ImageWork = IN_PROCESS,
): Promise<PreparedLogo> {
  const probed = await imaging.probe(bytes);
  const width = vectorSourceWidth(probed.width, probed.height);
  if (probed.format !== "svg" || width <= probed.width) return prepareLogo(bytes, imaging);
  // Stored bytes: encoded at the storage effort, as `renditions` encodes a source.
  const raster = await imaging.transform(bytes, { width, effort: "small" });
  const prepared = await prepareLogo(raster.bytes, imaging);
  // The sanitised SVG comes from the SVG itself, as an icon's (`format=svg`).
  const svg = await resanitizeSvg(bytes, imaging);
  if (svg !== undefined) prepared.renditions[SVG_RENDITION] = svg;
  const { width: declaredWidth, height } = probed;
  return {
    ...prepared,
    hash: await sha256Hex(bytes),
    type: SOURCE_MIME.svg,
    width: declaredWidth,
    height,
  };
}
