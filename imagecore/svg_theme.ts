/**
 * Greyscale and theme for SVG text: the sanitised SVG that `format=svg` serves (usvg's writer),
 * recoloured by the same per-colour rule as rasters (imagecore's `src/colour/`).
 *
 * @example
 * ```ts
 * import { themeSvg } from "./svg_theme.ts";
 * const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
 *   '<rect width="10" height="10" fill="#000000" fill-opacity="0.5"/></svg>';
 * const dark = themeSvg(svg, { greyscale: false, theme: "dark" });
 * ```
 * @module
 */
import type { LogoTheme } from "../src/sdk/logo_options.ts";
import { ImageCoreError } from "./refusals.ts";

/** What {@link themeSvg} does to the document. */
export interface SvgThemeOptions {
  /** Replace every colour with its Rec. 709 luma (before the theme). */
  greyscale: boolean;
  /** Page background the document must read on; `undefined` for none. */
  theme: LogoTheme | undefined;
}

/**
 * `svgText` (sanitised SVG as usvg writes it) with its fills, strokes and gradient stops
 * recoloured for `options`: greyscale first, then each colour that lacks contrast against the
 * page (or against the part it lies on) gets the smallest lightness change that makes it read.
 * Returns `svgText` itself when neither option is set.
 *
 * @throws {ImageCoreError} `corrupt` when the text is not an SVG the module parses.
 */
export function themeSvg(svgText: string, options: SvgThemeOptions): string {
  if (!options.greyscale && options.theme === undefined) return svgText;
  throw new ImageCoreError("internal", "Cannot theme SVG: not implemented yet");
}
