/**
 * A sanitised SVG document (`sanitizeSvg` of `mod.ts`, imagecore's `svg/sanitize.rs`) shown at a
 * size: its root opens `<svg viewBox="0 0 w h" width="…" height="…"`, so replacing those two
 * attributes scales the drawing (the `viewBox` keeps its coordinates). Done on the bytes, without
 * decoding the document: the root's attributes are ASCII and come first.
 *
 * @example
 * ```ts
 * import { sizeSanitizedSvg } from "./sanitized_svg.ts";
 * const svg = new TextEncoder().encode(
 *   '<svg viewBox="0 0 20 10" width="20" height="10" xmlns="http://www.w3.org/2000/svg"/>',
 * );
 * new TextDecoder().decode(sizeSanitizedSvg(svg, 128, 64));
 * // '<svg viewBox="0 0 20 10" width="128" height="64" xmlns="http://www.w3.org/2000/svg"/>'
 * ```
 * @module
 */

const encoder = new TextEncoder();
const QUOTE = 0x22;
/** The literal text around the root's first three attribute values, in order. */
const PARTS = ['<svg viewBox="', '" width="', '" height="'].map((part) => encoder.encode(part));

/** Whether `bytes` holds `part` at `at`. */
function holds(bytes: Uint8Array, at: number, part: Uint8Array): boolean {
  if (at + part.length > bytes.length) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

/**
 * Where the root's `viewBox` value ends (its closing quote) and where its `height` value's
 * closing quote is, or `undefined` when `doc` does not open as a sanitised SVG.
 */
function rootSize(doc: Uint8Array): { viewBoxEnd: number; heightEnd: number } | undefined {
  let at = 0;
  let viewBoxEnd = 0;
  for (let i = 0; i < PARTS.length; i++) {
    if (!holds(doc, at, PARTS[i])) return undefined;
    at = doc.indexOf(QUOTE, at + PARTS[i].length);
    if (at < 0) return undefined;
    if (i === 0) viewBoxEnd = at;
  }
  return { viewBoxEnd, heightEnd: at };
}

/**
 * `doc` with its root's `width` and `height` set to `width` and `height` px.
 *
 * @throws {TypeError} when `doc` does not open as a sanitised SVG (a damaged store).
 */
export function sizeSanitizedSvg(doc: Uint8Array, width: number, height: number): Uint8Array {
  const found = rootSize(doc);
  if (found === undefined) throw new TypeError("Cannot size SVG: not a sanitised SVG document");
  const size = encoder.encode(`" width="${width}" height="${height}`);
  const out = new Uint8Array(found.viewBoxEnd + size.length + doc.length - found.heightEnd);
  out.set(doc.subarray(0, found.viewBoxEnd));
  out.set(size, found.viewBoxEnd);
  out.set(doc.subarray(found.heightEnd), found.viewBoxEnd + size.length);
  return out;
}
