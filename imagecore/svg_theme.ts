/**
 * Greyscale and theme for SVG text: the sanitised SVG that `format=svg` serves (usvg's writer),
 * recoloured by the rule rasters follow (imagecore's `src/colour/theme.rs`), in the SVG WASM module
 * (`src/svg/recolour.rs`): greyscale replaces each colour with its luma; the theme is planned on
 * the document drawn 256 px wide (its parts, where each is seen, which must move) and each
 * `#rrggbb` of a `fill`, `stroke`, `stop-color`, `flood-color` or `lighting-color` attribute is
 * mapped as a pixel of that colour would be. Nothing else of the text changes.
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
import * as svgGlue from "./pkg/imagecore_svg.js";
import { RENDER_SPEC, type WasmCodec } from "./render_spec.ts";
import { svgModule } from "./svg_module.ts";
import { wasmArgument } from "./transform_options.ts";

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
 * @throws {ImageCoreError} `corrupt` or `too_large` when the text is not an SVG the module draws
 * within its limits; `invalid_argument` for an unknown theme.
 */
export function themeSvg(svgText: string, options: SvgThemeOptions): string {
  if (!options.greyscale && options.theme === undefined) return svgText;
  const theme = wasmArgument(RENDER_SPEC.theme.wasm as WasmCodec<unknown>, options.theme);
  return svgModule.call(() => svgGlue.svg_theme(svgText, options.greyscale, theme));
}
