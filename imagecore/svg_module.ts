/**
 * The SVG WASM module (resvg; `imagecore_svg`) as one shared {@link WasmModule}: `mod.ts` draws
 * SVGs with it and `svg_theme.ts` recolours sanitised SVG text with it, on the same instance.
 * Nothing is instantiated until the first call.
 *
 * @example
 * ```ts
 * import * as svgGlue from "./pkg/imagecore_svg.js";
 * import { svgModule } from "./svg_module.ts";
 * console.log(svgModule.call(() => svgGlue.memory_bytes()) > 0); // true
 * ```
 * @module
 */
import * as svgGlue from "./pkg/imagecore_svg.js";
import { WasmModule } from "./wasm_module.ts";

/** SVG rasterisation and recolouring (resvg), loaded the first time an SVG arrives. */
export const svgModule: WasmModule = new WasmModule(svgGlue, "./pkg/imagecore_svg_bg.wasm");
