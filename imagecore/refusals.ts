/**
 * How imagecore refuses input: the one error it throws ({@link ImageCoreError}, with a
 * machine-readable code) and the limits checked before any pixel buffer is allocated, with the
 * input-size refusal written once. `mod.ts` re-exports all of it.
 *
 * Pure: no imports, no Deno APIs.
 *
 * @example
 * ```ts
 * import { checkInputSize, ImageCoreError, LIMITS } from "./refusals.ts";
 * try {
 *   checkInputSize(LIMITS.inputBytes + 1);
 * } catch (error) {
 *   console.log((error as ImageCoreError).code); // "too_large"
 * }
 * ```
 * @module
 */

/** Every {@link ImageCoreErrorCode}: the one list the WASM wrapper and the worker mailbox read. */
export const IMAGECORE_ERROR_CODES = Object.freeze(
  [
    "unsupported_format",
    "corrupt",
    "too_large",
    "invalid_argument",
    "timeout",
    "busy",
    "internal",
  ] as const,
);

/** Why imagecore refused an input. */
export type ImageCoreErrorCode = (typeof IMAGECORE_ERROR_CODES)[number];

/** The one error imagecore throws: a machine-readable `code` and a readable message. */
export class ImageCoreError extends Error {
  /** Machine-readable reason, stable across versions. */
  readonly code: ImageCoreErrorCode;
  /** Creates an error with a `code` and a message such as "Cannot decode image: corrupt data". */
  constructor(code: ImageCoreErrorCode, message: string) {
    super(message);
    this.name = "ImageCoreError";
    this.code = code;
  }
}

/** Refusal limits, checked before any pixel buffer is allocated. */
export const LIMITS: Readonly<{ inputBytes: number; sourcePixels: number; outputSide: number }> =
  Object.freeze({ inputBytes: 10 * 1024 * 1024, sourcePixels: 16_800_000, outputSide: 4096 });

/**
 * Refuses an input of `byteLength` bytes over `LIMITS.inputBytes` (10 MiB) with `too_large`: the
 * one place the TypeScript side words that refusal (the Rust decoder, which checks again, words it
 * the same). `transform` and `probe` check their input with it; `logo add` and `logo import` check
 * a file's size with it before reading the file.
 *
 * @throws {ImageCoreError} `too_large`.
 * @example
 * ```ts
 * import { checkInputSize, LIMITS } from "./refusals.ts";
 * checkInputSize(LIMITS.inputBytes); // ok
 * checkInputSize(LIMITS.inputBytes + 1); // throws ImageCoreError
 * ```
 */
export function checkInputSize(byteLength: number): void {
  if (byteLength > LIMITS.inputBytes) {
    throw new ImageCoreError(
      "too_large",
      `Cannot decode image: ${byteLength} bytes exceeds the ${LIMITS.inputBytes}-byte limit`,
    );
  }
}
