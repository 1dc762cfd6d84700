/**
 * The sanitised SVG served for `format=svg`, in the SVG WASM module (`src/svg/sanitize.rs`):
 * {@link sanitizeSvg} writes it from an SVG source, {@link checkSanitizedSvg} checks a stored one
 * (an archive's). `renditions` (`mod.ts`) writes it alongside an SVG source's PNGs, so ingest runs
 * it in the image pool's worker.
 *
 * @example
 * ```ts
 * import { sanitizeSvg } from "./svg_sanitize.ts";
 * const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"/>');
 * sanitizeSvg(svg).width; // 2
 * ```
 * @module
 */
import { markupStart } from "./markup_start.ts";
import * as svgGlue from "./pkg/imagecore_svg.js";
import { ImageCoreError } from "./refusals.ts";
import type { SanitizedSvg } from "./renditions.ts";
import { svgModule as svg } from "./svg_module.ts";
import { checkInput } from "./transform_options.ts";

/** Refuses what is not an SVG document (the raster formats open with a binary signature). */
function checkSvg(input: Uint8Array): void {
  checkInput(input);
  if (markupStart(input) < 0 || !svg.call(() => svgGlue.is_svg(input))) {
    throw new ImageCoreError("unsupported_format", "Cannot sanitise SVG: the input is not an SVG");
  }
}

/** {@link sanitizeSvg}, or `undefined` when it refuses the document as too large or unsafe. */
export function sanitizedOrNothing(input: Uint8Array): SanitizedSvg | undefined {
  try {
    return sanitizeSvg(input);
  } catch (error) {
    const code = (error as ImageCoreError).code;
    if (code === "too_large" || code === "unsupported_format") return undefined;
    throw error;
  }
}

/** The result header's size, and the body after it. */
function sizedBody(out: Uint8Array): SanitizedSvg {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const width = view.getUint32(0, true);
  return { width, height: view.getUint32(4, true), bytes: out.subarray(12) };
}

/**
 * The sanitised SVG of an SVG document, served for `format=svg` (imagecore's
 * `svg/sanitize.rs`): parsed within every budget of the SVG module, then written back from the
 * parsed tree by usvg's own writer — so no script, event handler, `foreignObject`, link, style
 * sheet, image or font (text is written as outlines) — and the writing checked against an allow
 * list. Its root is `<svg viewBox="0 0 w h" width="w" height="h"`, so setting `width` and
 * `height` scales it.
 *
 * @throws {ImageCoreError} as {@link probe} for a bad SVG (`corrupt`, `too_large` over a budget);
 *   `too_large` when the document written would pass 1 MiB; `unsupported_format` when the input
 *   is not an SVG, or when what was written falls outside the allow list (an `id` that could end
 *   a `url(…)`).
 * @example
 * ```ts
 * const svg = new TextEncoder().encode(
 *   '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" onload="alert(1)"><rect width="20" height="10"/></svg>',
 * );
 * const { bytes, width, height } = sanitizeSvg(svg); // 20 × 10, no onload
 * ```
 */
export function sanitizeSvg(input: Uint8Array): SanitizedSvg {
  checkSvg(input);
  return sizedBody(svg.call(() => svgGlue.svg_sanitize(input)));
}

/**
 * Checks that `input` is a sanitised document as {@link sanitizeSvg} writes them (within the
 * budgets, at most 1 MiB, inside the writer's allow list) and returns it with its intrinsic size,
 * `bytes` being `input` itself: what an archive import asks of a stored one.
 *
 * @throws {ImageCoreError} as {@link sanitizeSvg}; `unsupported_format` for anything the writer
 *   would not have written.
 * @example
 * ```ts
 * const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="1"/>');
 * checkSanitizedSvg(sanitizeSvg(svg).bytes).width; // 2
 * ```
 */
export function checkSanitizedSvg(input: Uint8Array): SanitizedSvg {
  checkSvg(input);
  const { width, height } = sizedBody(svg.call(() => svgGlue.svg_check_sanitized(input)));
  return { bytes: input, width, height };
}
