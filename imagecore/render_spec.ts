/**
 * The render spec: the options a request may set on a render (`size`, `greyscale`, `theme`,
 * `format`), declared once in {@link RENDER_SPEC}. Everything that carries an option is derived
 * from that table, in its order:
 *
 * - the server's parsing of the query (`src/http/request_options.ts`, {@link parseSpec}),
 * - the strong ETag and variant-cache key of logos and monogram tiles ({@link specTag}),
 * - which requests the stored renditions answer as they are ({@link isDefaultSpec}),
 * - imagecore's `transform` options ({@link transformOptionsOf}), their WASM arguments and their
 *   cells in the worker mailbox (`transform_options.ts`, `worker_mailbox.ts`).
 *
 * So a new option is a field of {@link RenderSpec}, an entry here, and its step in Rust.
 *
 * One request option is not a render option: `type` (`icon` or `logo`) picks which of a domain's
 * stored images is rendered, not how, so it never reaches WASM; its part of the ETag and cache key
 * is {@link typeTag}, appended after the spec's ({@link requestTag}).
 * `test/http/render_spec_tag_test.ts` renders two specs differing in each option in turn and
 * fails when one is missing from the ETag; `test/imagecore/format_registry_test.ts` pins the
 * WASM numbers against the Rust sources.
 *
 * @example
 * ```ts
 * import { DEFAULT_SPEC, specTag, transformOptionsOf } from "./render_spec.ts";
 * const spec = { ...DEFAULT_SPEC, size: 64, theme: "dark" } as const;
 * specTag(spec);            // "-64-dark-png"
 * transformOptionsOf(spec); // { width: 64, greyscale: false, theme: "dark", format: "png" }
 * ```
 * @module
 */
import {
  DEFAULT_FORMAT,
  DEFAULT_SIZE,
  DEFAULT_TYPE,
  FORMAT_RULE,
  FORMAT_SPELLINGS,
  GREYSCALE_RULE,
  GREYSCALE_SPELLINGS,
  isLogoTheme,
  LOGO_FORMATS,
  LOGO_THEMES,
  type LogoFormat,
  type LogoTheme,
  type LogoType,
  MAX_SECRET_SIZE,
  sizeRule,
  THEME_RULE,
} from "../src/sdk/logo_options.ts";
import { OUTPUT_FORMATS, outputFormatCode } from "./formats.ts";
import { LIMITS } from "./refusals.ts";

/** The options of one render, each set (a request leaves out only those at their default). */
export interface RenderSpec {
  /** Output width in px; the height keeps the aspect ratio. */
  readonly size: number;
  /** Render in greyscale (Rec. 709 luminance), alpha kept. */
  readonly greyscale: boolean;
  /** Page background: each part of the logo short of 3:1 contrast on it moves lightness, hue kept. */
  readonly theme: LogoTheme | undefined;
  /**
   * Output format. JPEG is flattened onto white; `svg` is the stored sanitised SVG, not encoded
   * by `transform` (its WASM codec refuses it: {@link transformOptionsOf} is for the others).
   */
  readonly format: LogoFormat;
}

/** The name of an option: its key in {@link RenderSpec} and its query parameter. */
export type RenderOption = keyof RenderSpec;

/** What {@link SpecOption.parse} returns for text that is not a valid value. */
export const INVALID: unique symbol = Symbol("invalid");

/**
 * How a value crosses into WASM (one `u32`/`u8`/`bool` argument of the Rust `transform`) and
 * through the worker mailbox (one Int32 cell), both as the same number.
 */
export interface WasmCodec<T> {
  /** The argument when the option is not given. */
  readonly unset: number;
  /** The number of `value`, when it has one that decodes back to it exactly. */
  encode(value: unknown): number | undefined;
  /** The value of a number {@link encode} gave. */
  decode(code: number): T;
  /** imagecore's refusal of `value` as a `transform` option, or `undefined` when it is valid. */
  refusal(value: unknown): string | undefined;
}

/** One option of the render spec: everything that carries it is derived from this entry. */
export interface SpecOption<T> {
  /** Its key in imagecore's `TransformOptions`, and the name of its Rust `transform` argument. */
  readonly argument: keyof SpecTransformOptions;
  /** The value when the request does not set it. */
  readonly default: T;
  /**
   * Distinct valid values, the default first: the values tests render to show that each one
   * reaches the ETag and the WASM call.
   */
  readonly samples: readonly T[];
  /** The value the query parameter's text asks for, or {@link INVALID}. `maxSize` caps a size. */
  parse(text: string, maxSize: number): T | typeof INVALID;
  /** The rule a valid value follows, the end of the `400`'s message. */
  rule(maxSize: number): string;
  /**
   * Its part of the ETag and cache key: distinct values give distinct parts; `""` only for
   * one value (a default that changes nothing), so tags made before the option existed stay.
   */
  tag(value: T): string;
  /** Its WASM argument and mailbox cell. */
  readonly wasm: WasmCodec<T>;
}

/** The codec of a value from `list`, numbered from `first` in the list's order. */
function listCodec<T extends string>(
  list: readonly T[],
  first: number,
  unset: number,
  refusal: (value: unknown) => string,
): WasmCodec<T> {
  return {
    unset,
    encode: (value) => {
      const index = (list as readonly unknown[]).indexOf(value);
      return index < 0 ? undefined : first + index;
    },
    decode: (code) => list[code - first],
    refusal: (value) => (list as readonly unknown[]).includes(value) ? undefined : refusal(value),
  };
}

/** Whether `value` is a whole number from `min` to `max`. */
function isWhole(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

/** Parses a size: digits only (no sign, decimals, exponent or spaces), at most 5, 1..maxSize. */
function parseSize(text: string, maxSize: number): number | typeof INVALID {
  if (text.length === 0 || text.length > 5) return INVALID;
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return INVALID;
    size = size * 10 + digit;
  }
  return size < 1 || size > maxSize ? INVALID : size;
}

/** The render spec, in the order of the ETag's parts and of the Rust `transform`'s arguments. */
export const RENDER_SPEC: { readonly [K in RenderOption]: SpecOption<RenderSpec[K]> } = {
  size: {
    argument: "width",
    default: DEFAULT_SIZE,
    samples: [DEFAULT_SIZE, 1, MAX_SECRET_SIZE],
    parse: parseSize,
    rule: sizeRule,
    tag: (size) => `-${size}`,
    wasm: {
      // 0 keeps the source width; a mailbox cell holds any whole number, for imagecore to refuse.
      unset: 0,
      encode: (width) => isWhole(width, 0, 2 ** 31 - 1) ? width : undefined,
      decode: (width) => width,
      refusal: (width) =>
        isWhole(width, 1, LIMITS.outputSide)
          ? undefined
          : `Cannot resize image: width must be an integer from 1 to ${LIMITS.outputSide}`,
    },
  },
  greyscale: {
    argument: "greyscale",
    default: false,
    samples: [false, true],
    parse: (text) => {
      const key = text.toLowerCase();
      if (GREYSCALE_SPELLINGS.true.includes(key)) return true;
      return GREYSCALE_SPELLINGS.false.includes(key) ? false : INVALID;
    },
    rule: () => GREYSCALE_RULE,
    tag: (greyscale) => greyscale ? "-grey" : "",
    wasm: {
      // Anything but `true` is colour, as it always was: no refusal.
      unset: 0,
      encode: (greyscale) => greyscale === true ? 1 : greyscale === false ? 0 : undefined,
      decode: (code) => code === 1,
      refusal: () => undefined,
    },
  },
  theme: {
    argument: "theme",
    default: undefined,
    samples: [undefined, ...LOGO_THEMES],
    parse: (text) => {
      const theme = text.toLowerCase();
      return isLogoTheme(theme) ? theme : INVALID;
    },
    rule: () => THEME_RULE,
    tag: (theme) => theme === undefined ? "" : `-${theme}`,
    // 0 is no theme (Rust `Theme::from_code`).
    wasm: listCodec(LOGO_THEMES, 1, 0, () => "Cannot theme image: unknown theme"),
  },
  format: {
    argument: "format",
    default: DEFAULT_FORMAT,
    samples: [DEFAULT_FORMAT, ...LOGO_FORMATS.filter((format) => format !== DEFAULT_FORMAT)],
    parse: (text) => {
      const key = text.toLowerCase();
      return Object.hasOwn(FORMAT_SPELLINGS, key) ? FORMAT_SPELLINGS[key] : INVALID;
    },
    rule: () => FORMAT_RULE,
    tag: (format) => `-${format}`,
    wasm: listCodec(
      OUTPUT_FORMATS,
      0,
      outputFormatCode(DEFAULT_FORMAT),
      (format) =>
        (LOGO_FORMATS as readonly unknown[]).includes(format)
          ? `Cannot encode image: ${format} is not a raster format (it is stored, not encoded)`
          : `Cannot encode image: unknown format "${format}"`,
    ),
  },
};

/** Every option, in the spec's order. */
export const RENDER_OPTIONS: readonly RenderOption[] = Object.freeze(
  Object.keys(RENDER_SPEC) as RenderOption[],
);

/** The spec of a request that sets nothing: 128 px, colour, no theme, PNG. */
export const DEFAULT_SPEC: RenderSpec = Object.freeze(
  Object.fromEntries(RENDER_OPTIONS.map((name) => [name, RENDER_SPEC[name].default])),
) as unknown as RenderSpec;

/** An entry of the spec with its value type forgotten, to walk the table. */
function entry(name: RenderOption): SpecOption<unknown> {
  return RENDER_SPEC[name] as SpecOption<unknown>;
}

/**
 * Reads a spec from a request's query: `text(name)` is the parameter's text, `null` when absent
 * (the default). Returns the spec, or the name of the first option whose text is not valid.
 *
 * @example
 * ```ts
 * import { parseSpec } from "./render_spec.ts";
 * const query = new URLSearchParams("size=64&format=JPG");
 * parseSpec((name) => query.get(name), 800); // { size: 64, greyscale: false, theme: undefined, format: "jpeg" }
 * parseSpec(() => "x", 800);                 // "size"
 * ```
 */
export function parseSpec(
  text: (name: RenderOption) => string | null,
  maxSize: number,
): RenderSpec | RenderOption {
  const spec: Record<string, unknown> = {};
  for (const name of RENDER_OPTIONS) {
    const option = entry(name);
    const given = text(name);
    const value = given === null ? option.default : option.parse(given, maxSize);
    if (value === INVALID) return name;
    spec[name] = value;
  }
  return spec as unknown as RenderSpec;
}

/**
 * The spec's part of a strong ETag (and of its variant-cache key): each option's part, in order.
 * Two specs that differ in any option have different parts.
 *
 * @example
 * ```ts
 * import { DEFAULT_SPEC, specTag } from "./render_spec.ts";
 * specTag({ ...DEFAULT_SPEC, greyscale: true, format: "webp" }); // "-128-grey-webp"
 * ```
 */
export function specTag(spec: RenderSpec): string {
  let tag = "";
  for (const name of RENDER_OPTIONS) tag += entry(name).tag(spec[name]);
  return tag;
}

/**
 * Whether every option of `spec` is at its default: the request the precomputed `default`
 * rendition answers.
 *
 * @example
 * ```ts
 * import { DEFAULT_SPEC, isDefaultSpec } from "./render_spec.ts";
 * isDefaultSpec(DEFAULT_SPEC);                       // true
 * isDefaultSpec({ ...DEFAULT_SPEC, theme: "dark" }); // false
 * ```
 */
export function isDefaultSpec(spec: RenderSpec): boolean {
  return RENDER_OPTIONS.every((name) => spec[name] === RENDER_SPEC[name].default);
}

/**
 * The part of imagecore's `TransformOptions` (`transform_options.ts`, which derives its codecs from
 * this module) that a spec carries: every option but the encoder's effort, `size` as `width`.
 */
export type SpecTransformOptions =
  & { width?: number }
  & Partial<{ -readonly [K in keyof Omit<RenderSpec, "size">]: RenderSpec[K] }>;

/**
 * imagecore's `transform` options for `spec`.
 *
 * @example
 * ```ts
 * import { DEFAULT_SPEC, transformOptionsOf } from "./render_spec.ts";
 * transformOptionsOf({ ...DEFAULT_SPEC, size: 256 }).width; // 256
 * ```
 */
export function transformOptionsOf(spec: RenderSpec): SpecTransformOptions {
  const options: Record<string, unknown> = {};
  for (const name of RENDER_OPTIONS) options[RENDER_SPEC[name].argument] = spec[name];
  return options as SpecTransformOptions;
}

/**
 * The `type` option's part of a strong ETag and variant-cache key: `""` for `icon` (so every
 * ETag made before wordmarks existed stays), `-logo` for `logo`. It names what was asked, not what
 * was served: a `type=logo` answer served by the icon (`X-Logo-Fallback: icon`) has the icon's
 * rendition hash and this part, so its tag differs from the icon's own and from the wordmark's.
 *
 * @example
 * ```ts
 * import { typeTag } from "./render_spec.ts";
 * typeTag("icon"); // ""
 * typeTag("logo"); // "-logo"
 * ```
 */
export function typeTag(type: LogoType | undefined): string {
  return type === undefined || type === DEFAULT_TYPE ? "" : `-${type}`;
}

/**
 * A request's part of a strong ETag and variant-cache key: the spec's ({@link specTag}), then the
 * type's ({@link typeTag}).
 *
 * @example
 * ```ts
 * import { DEFAULT_SPEC, requestTag } from "./render_spec.ts";
 * requestTag({ ...DEFAULT_SPEC, size: 400, type: "logo" }); // "-400-png-logo"
 * requestTag(DEFAULT_SPEC);                                 // "-128-png"
 * ```
 */
export function requestTag(options: RenderSpec & { readonly type?: LogoType }): string {
  return specTag(options) + typeTag(options.type);
}
