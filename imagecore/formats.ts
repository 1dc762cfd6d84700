/**
 * The format registry, declared once for TypeScript: each format's name, its number across the
 * WASM boundary (the index in {@link SOURCE_FORMATS} or {@link OUTPUT_FORMATS}) and its MIME type.
 * A source format is one imagecore decodes (`probe`'s answer); an output format, one it encodes
 * (the raster logo formats of the vocabulary, `src/sdk/logo_options.ts`). The vocabulary's `svg`
 * is not one: it is the sanitised SVG stored at ingest (`sanitizeSvg` of `mod.ts`), never encoded
 * by `transform`, so it has no WASM number ({@link isRasterFormat}). The worker mailbox carries
 * the same numbers.
 *
 * The Rust side declares the numbers as enum discriminants (`SourceFormat`, `OutputFormat`);
 * `test/imagecore/format_registry_test.ts` reads them from the Rust sources and fails on any
 * drift.
 *
 * @example
 * ```ts
 * import { OUTPUT_FORMATS, SOURCE_FORMATS, SOURCE_MIME } from "./formats.ts";
 * SOURCE_FORMATS[6]; // "svg"
 * OUTPUT_FORMATS[1]; // "webp"
 * SOURCE_MIME.ico;   // "image/x-icon"
 * ```
 * @module
 */
import { CONTENT_TYPES, type LogoFormat } from "../src/sdk/logo_options.ts";

/** Formats imagecore decodes, each at its WASM number (Rust `SourceFormat`; 6 is the SVG module's). */
export const SOURCE_FORMATS = Object.freeze(
  ["png", "jpeg", "gif", "webp", "ico", "bmp", "svg"] as const,
);

/** One of {@link SOURCE_FORMATS}. */
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** Formats imagecore encodes, each at its WASM number (Rust `OutputFormat`). */
export const OUTPUT_FORMATS = Object.freeze(
  ["png", "webp", "jpeg"] as const satisfies readonly LogoFormat[],
);

/** One of {@link OUTPUT_FORMATS}: a logo format `transform` encodes. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/**
 * Whether `format` is one `transform` encodes (every logo format but `svg`).
 *
 * @example
 * ```ts
 * import { isRasterFormat } from "./formats.ts";
 * isRasterFormat("webp"); // true
 * isRasterFormat("svg");  // false
 * ```
 */
export function isRasterFormat(format: unknown): format is OutputFormat {
  return (OUTPUT_FORMATS as readonly unknown[]).includes(format);
}

/**
 * MIME type of each source format; the output formats' are the vocabulary's `CONTENT_TYPES`.
 *
 * @example
 * ```ts
 * import { SOURCE_MIME } from "./formats.ts";
 * SOURCE_MIME.svg; // "image/svg+xml"
 * ```
 */
export const SOURCE_MIME: Readonly<Record<SourceFormat, string>> = Object.freeze({
  ...CONTENT_TYPES,
  gif: "image/gif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  svg: "image/svg+xml",
});

/**
 * The WASM number of an output format; -1 for anything else.
 *
 * @example
 * ```ts
 * import { outputFormatCode } from "./formats.ts";
 * outputFormatCode("jpeg"); // 2
 * outputFormatCode("gif");  // -1
 * ```
 */
export function outputFormatCode(format: unknown): number {
  return (OUTPUT_FORMATS as readonly unknown[]).indexOf(format);
}
