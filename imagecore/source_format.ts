/**
 * The formats imagecore can decode, in the order of the format byte its WASM probe reports.
 * Declared below `mod.ts`, which re-exports {@link SourceFormat}, so that the modules `mod.ts`
 * imports (`renditions.ts`) can name a format without importing `mod.ts` back.
 *
 * @example
 * ```ts
 * import { SOURCE_FORMATS, type SourceFormat } from "./source_format.ts";
 * const format: SourceFormat = SOURCE_FORMATS[6]; // "svg"
 * ```
 * @module
 */

/** Formats imagecore can decode, indexed by the WASM probe's format byte. */
export const SOURCE_FORMATS = Object.freeze(
  ["png", "jpeg", "gif", "webp", "ico", "bmp", "svg"] as const,
);

/** A format imagecore can decode. */
export type SourceFormat = (typeof SOURCE_FORMATS)[number];
