/**
 * The first step of telling markup (an SVG, or an HTML page served as an icon) from a raster
 * image, declared once for the TypeScript side: every raster format imagecore decodes opens with a
 * binary signature, while markup opens with `<` after an optional UTF-8 byte-order mark and ASCII
 * white space. imagecore's wrapper (`mod.ts`) hands only such input to the WASM SVG sniffer
 * (`src/svg_sniff.rs`, which skips the same prefix); discovery's `measure_image.ts` reads the
 * first element name from there.
 *
 * White space is what Rust's `u8::is_ascii_whitespace` accepts — space, tab, line feed, form feed
 * and carriage return (not vertical tab) — so both sides agree on where markup starts.
 *
 * Pure: no imports, no Deno APIs.
 *
 * @example
 * ```ts
 * import { markupStart } from "./markup_start.ts";
 * markupStart(new TextEncoder().encode("\uFEFF  <svg/>")); // 5
 * markupStart(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));   // -1 (a PNG)
 * ```
 * @module
 */

/**
 * The offset of the `<` that opens `bytes` as markup, after an optional UTF-8 byte-order mark
 * and ASCII white space; -1 when `bytes` does not start that way (a raster image, text, nothing).
 *
 * @example
 * ```ts
 * import { markupStart } from "./markup_start.ts";
 * markupStart(new TextEncoder().encode("\n<?xml version='1.0'?><svg/>")); // 1
 * ```
 */
export function markupStart(bytes: Uint8Array): number {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && isAsciiWhitespace(bytes[i])) i++;
  return bytes[i] === 0x3c /* < */ ? i : -1;
}

/** Space, tab, line feed, form feed or carriage return: Rust's `u8::is_ascii_whitespace`. */
function isAsciiWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d;
}
