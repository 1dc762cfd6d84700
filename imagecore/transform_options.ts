/**
 * The options of imagecore's `transform` and their codes across the WASM boundary (the Rust
 * side's `from_code`s), checked: a bad option is an `invalid_argument` refusal.
 * @module
 */
import {
  DEFAULT_FORMAT,
  isLogoFormat,
  isLogoTheme,
  type LogoFormat,
  type LogoTheme,
} from "../src/sdk/logo_options.ts";
import { checkInputSize, ImageCoreError, LIMITS } from "./refusals.ts";

/**
 * How hard the PNG encoder works for fewer bytes; the pixels are identical either way. `"fast"`
 * (the default) is for renders made on request: the deflate level with the best bytes per
 * millisecond. `"small"` is for renditions stored once and served many times: the fewest bytes.
 * WebP and JPEG have one setting each.
 */
export type EncodeEffort = "fast" | "small";
/** Every {@link EncodeEffort}, in the order of their WASM codes. */
export const ENCODE_EFFORTS: readonly EncodeEffort[] = Object.freeze(["fast", "small"] as const);

/** Options of {@link transform}. */
export interface TransformOptions {
  /** Output width in px (1..4096); height keeps the aspect ratio. Default: the source width. */
  width?: number;
  /** Render in greyscale (Rec. 709 luminance), alpha kept. */
  greyscale?: boolean;
  /** Page background: a logo lacking contrast on it has its lightness inverted, hue kept. */
  theme?: LogoTheme;
  /** Output encoding; default "png". JPEG is flattened onto white. */
  format?: LogoFormat;
  /** The PNG encoder's effort ({@link EncodeEffort}); default "fast", the request path's. */
  effort?: EncodeEffort;
}

/** Code of each output format across the WASM boundary (Rust `OutputFormat::from_code`). */
export const FORMAT_CODES: Readonly<Record<LogoFormat, number>> = { png: 0, webp: 1, jpeg: 2 };
/** Code of each effort across the WASM boundary (Rust `Effort::from_code`). */
const EFFORT_CODES: Readonly<Record<EncodeEffort, number>> = Object.fromEntries(
  ENCODE_EFFORTS.map((effort, code) => [effort, code]),
) as Record<EncodeEffort, number>;
/** Code of each theme across the WASM boundary; 0 is no theme. */
const THEME_CODES: Readonly<Record<LogoTheme, number>> = { light: 1, dark: 2 };

/** Refuses what is not a `Uint8Array` of an acceptable size. */
export function checkInput(input: Uint8Array): void {
  if (!(input instanceof Uint8Array)) {
    throw new ImageCoreError("invalid_argument", "Cannot decode image: input must be a Uint8Array");
  }
  checkInputSize(input.length);
}

export /** The wire code of `format`, or the `invalid_argument` refusal of an unknown one. */
function formatCode(format: unknown): number {
  if (!isLogoFormat(format)) {
    throw new ImageCoreError("invalid_argument", `Cannot encode image: unknown format "${format}"`);
  }
  return FORMAT_CODES[format];
}

export /** `transform`'s checked arguments as the WASM export takes them (after the input). */
function wireOptions(
  input: Uint8Array,
  options: TransformOptions,
): [number, boolean, number, number, number] {
  checkInput(input);
  const width = options.width ?? 0;
  if (options.width !== undefined) {
    if (!Number.isInteger(width) || width < 1 || width > LIMITS.outputSide) {
      throw new ImageCoreError(
        "invalid_argument",
        `Cannot resize image: width must be an integer from 1 to ${LIMITS.outputSide}`,
      );
    }
  }
  const format = formatCode(options.format ?? DEFAULT_FORMAT);
  if (options.theme !== undefined && !isLogoTheme(options.theme)) {
    throw new ImageCoreError("invalid_argument", `Cannot theme image: unknown theme`);
  }
  const themeCode = options.theme === undefined ? 0 : THEME_CODES[options.theme];
  const effort = options.effort ?? "fast";
  if (!Object.hasOwn(EFFORT_CODES, effort)) {
    throw new ImageCoreError("invalid_argument", `Cannot encode image: unknown effort "${effort}"`);
  }
  return [width, options.greyscale === true, themeCode, format, EFFORT_CODES[effort]];
}
