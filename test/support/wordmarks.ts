/**
 * Wordmarks for tests: wide images of known size, as an SVG document (a vector source, rasterised
 * at the full source width by `src/store/wordmark_ingest.ts`) or a PNG (a raster one).
 */
import { flatImage } from "./images.ts";

/**
 * A `width`×`height` SVG wordmark: a coloured band with a darker bar, `fill` picking the band's
 * colour so two calls with different fills are different logos.
 */
export function wideSvg(width: number, height: number, fill = "#1a7f37"): Uint8Array<ArrayBuffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${fill}"/>` +
    `<rect x="${width / 10}" y="${height / 4}" width="${width / 2}" height="${height / 2}" ` +
    `fill="#0b3d1a"/></svg>`;
  return new TextEncoder().encode(svg).slice();
}

/** A `width`×`height` raster wordmark of one colour, as a PNG. */
export function widePng(
  width: number,
  height: number,
  rgba: readonly [number, number, number, number] = [20, 90, 200, 255],
): Uint8Array {
  return flatImage(width, height, rgba);
}
