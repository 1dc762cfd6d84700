/**
 * The answer to `format=svg` for a logo with a stored sanitised SVG (part of the render step,
 * `render_variant.ts`): the stored document, recoloured for `greyscale` and `theme` when asked
 * (by `themeSvg`, the render pool's) and sized — its root's `width` and `height` set to the width
 * asked and the height by the aspect ratio, as a raster's (`imagecore/sanitized_svg.ts`). The
 * recoloured document is kept with the stored sources, once per logo, greyscale and theme, so a
 * new size costs no new recolouring.
 *
 * @example
 * ```ts
 * import { svgAnswers } from "./svg_variant.ts";
 * import { VariantCache } from "./variant_cache.ts";
 * import { DEFAULT_OPTIONS } from "./request_options.ts";
 * const answer = svgAnswers(new VariantCache(), undefined);
 * const stored = new TextEncoder().encode(
 *   '<svg viewBox="0 0 20 10" width="20" height="10" xmlns="http://www.w3.org/2000/svg"/>',
 * );
 * const rendition = { hash: "a".repeat(64), type: "image/svg+xml", width: 20, height: 10, bytes: 0 };
 * const options = { ...DEFAULT_OPTIONS, size: 64, format: "svg" } as const;
 * const variant = await answer(stored, rendition, options, '"tag"');
 * variant.height; // 32
 * ```
 * @module
 */
import { outputSize } from "../../imagecore/output_size.ts";
import { RENDER_SPEC } from "../../imagecore/render_spec.ts";
import { sizeSanitizedSvg } from "../../imagecore/sanitized_svg.ts";
import { CONTENT_TYPES } from "../sdk/logo_options.ts";
import type { Rendition } from "../store/logo_record.ts";
import type { LogoTheme } from "../sdk/logo_options.ts";
import type { LogoOptions } from "./request_options.ts";
import type { Variant, VariantCache } from "./variant_cache.ts";

/** A sized SVG answer: its bytes and type, its strong ETag and its size in px. */
export interface SvgVariant extends Variant {
  /** Strong `ETag`, quoted. */
  readonly etag: string;
  /** The `width` set on the root. */
  readonly width: number;
  /** The `height` set on the root. */
  readonly height: number;
}

/** Recolours sanitised SVG text (`themeSvg`, in the render pool). */
export type SvgRecolour = (
  svg: string,
  options: { greyscale: boolean; theme: LogoTheme | undefined },
) => Promise<string>;

/** Makes a stored sanitised SVG's answer to some options. */
export type SvgAnswer = (
  stored: Uint8Array,
  rendition: Rendition,
  options: LogoOptions,
  etag: string,
) => Promise<SvgVariant>;

/**
 * The `format=svg` answers, recolouring with `recolour` (required for `greyscale` or `theme`:
 * the render step plans such requests as the PNG without it) and caching recoloured documents in
 * `sources`.
 */
export function svgAnswers(sources: VariantCache, recolour: SvgRecolour | undefined): SvgAnswer {
  async function coloured(stored: Uint8Array, rendition: Rendition, opts: LogoOptions) {
    const { greyscale, theme } = opts;
    if (!greyscale && theme === undefined) return stored;
    const key = rendition.hash + RENDER_SPEC.greyscale.tag(greyscale) +
      RENDER_SPEC.theme.tag(theme);
    const made = await sources.getOrCreate(key, async () => {
      const recoloured = await recolour!(new TextDecoder().decode(stored), { greyscale, theme });
      return { bytes: new TextEncoder().encode(recoloured), contentType: CONTENT_TYPES.svg };
    });
    return made.bytes;
  }

  return async (stored, rendition, opts, etag) => {
    const { width, height } = outputSize(rendition.width, rendition.height, opts.size);
    const bytes = sizeSanitizedSvg(await coloured(stored, rendition, opts), width, height);
    return { bytes, contentType: CONTENT_TYPES.svg, etag, width, height };
  };
}
