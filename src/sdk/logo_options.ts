/**
 * The logo-option vocabulary, declared once: the output formats (and the spellings a URL may use),
 * the themes, the greyscale spellings, the fallbacks, the types (`icon`, `logo`), the default size
 * and the two size caps, with the sentence that states each rule; and what the `X-Logo-Fallback`
 * header may name (`FALLBACK_MARKS`). The SDK (`sdk/options.ts`), imagecore's render spec
 * (`imagecore/render_spec.ts`: parsing, ETag and WASM codes of each option) and the server read
 * them from here.
 *
 * A leaf: no imports, no Deno APIs. It lives in the SDK's folder because the published SDK cannot
 * import outside it; being a leaf, it sits below every layer, imagecore included, so both import
 * it downward (`test/layering_test.ts` checks that it stays a leaf and that it is the one file of
 * `src/` imagecore imports).
 *
 * @example
 * ```ts
 * import {
 *   DEFAULT_SIZE,
 *   FORMAT_SPELLINGS,
 *   isLogoTheme,
 *   MAX_PUBLISHABLE_SIZE,
 *   sizeRule,
 * } from "./logo_options.ts";
 * DEFAULT_SIZE;                   // 128
 * FORMAT_SPELLINGS["jpg"];        // "jpeg"
 * isLogoTheme("dark");            // true
 * sizeRule(MAX_PUBLISHABLE_SIZE); // "must be a whole number of pixels from 1 to 800"
 * ```
 * @module
 */

/**
 * Image formats a logo can be answered in: three raster encodings, and `svg`, the sanitised SVG
 * stored when the logo's source is an SVG (sent as stored, sized by its `width`/`height`; a logo
 * without one answers its PNG, marked `X-Logo-Fallback: png`).
 */
export const LOGO_FORMATS = ["png", "webp", "jpeg", "svg"] as const;

/** One of {@link LOGO_FORMATS}. */
export type LogoFormat = typeof LOGO_FORMATS[number];

/** Format when none is asked for. */
export const DEFAULT_FORMAT = "png" as const;

/**
 * Every spelling of a format the `format` query parameter accepts (after lowercasing): the
 * format names, and `jpg` for `jpeg`.
 */
export const FORMAT_SPELLINGS: Readonly<Record<string, LogoFormat>> = Object.freeze({
  png: "png",
  webp: "webp",
  jpeg: "jpeg",
  jpg: "jpeg",
  svg: "svg",
});

/** Exact `Content-Type` of each format. */
export const CONTENT_TYPES: Readonly<Record<LogoFormat, string>> = Object.freeze({
  png: "image/png",
  webp: "image/webp",
  jpeg: "image/jpeg",
  svg: "image/svg+xml",
});

/**
 * Backgrounds a themed logo can be made for: each part of it short of 3:1 contrast on the page gets
 * lighter or darker, hue kept; parts that read are left alone.
 */
export const LOGO_THEMES = ["light", "dark"] as const;

/** One of {@link LOGO_THEMES}. */
export type LogoTheme = typeof LOGO_THEMES[number];

/**
 * Spellings of `greyscale` that mean yes, then those that mean no (matched after lowercasing).
 */
export const GREYSCALE_SPELLINGS: Readonly<{ true: readonly string[]; false: readonly string[] }> =
  Object.freeze({ true: ["true", "1", "yes"], false: ["false", "0", "no"] });

/** Width in px when `size` is not given (spec: 128 px). */
export const DEFAULT_SIZE = 128;

/**
 * Largest `size` a request without a secret key (a publishable key, or no key) may ask for
 * (spec: 800 px). Not the SDK's `MAX_SIZE`: the SDK sends secret keys, whose cap is
 * {@link MAX_SECRET_SIZE}.
 */
export const MAX_PUBLISHABLE_SIZE = 800;

/**
 * Largest `size` a request authenticated with a secret key may ask for (spec: 1200 px); also the
 * widest source the store keeps.
 */
export const MAX_SECRET_SIZE = 1200;

/**
 * Whether `value` is a format name (exactly, not a spelling such as `jpg`).
 *
 * @example
 * ```ts
 * import { isLogoFormat } from "./logo_options.ts";
 * isLogoFormat("webp"); // true
 * isLogoFormat("jpg");  // false
 * ```
 */
export function isLogoFormat(value: unknown): value is LogoFormat {
  return (LOGO_FORMATS as readonly unknown[]).includes(value);
}

/**
 * Whether `value` is a theme name (exactly).
 *
 * @example
 * ```ts
 * import { isLogoTheme } from "./logo_options.ts";
 * isLogoTheme("dark"); // true
 * isLogoTheme("Dark"); // false
 * ```
 */
export function isLogoTheme(value: unknown): value is LogoTheme {
  return (LOGO_THEMES as readonly unknown[]).includes(value);
}

/**
 * Whether `value` is a valid width: a whole number of pixels from 1 to `maxSize`.
 *
 * @example
 * ```ts
 * import { isLogoSize, MAX_PUBLISHABLE_SIZE } from "./logo_options.ts";
 * isLogoSize(800, MAX_PUBLISHABLE_SIZE); // true
 * isLogoSize(0.5, MAX_PUBLISHABLE_SIZE); // false
 * ```
 */
export function isLogoSize(value: unknown, maxSize: number): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= maxSize;
}

/**
 * The rule `size` must follow, as the end of an error message.
 *
 * @example
 * ```ts
 * import { sizeRule } from "./logo_options.ts";
 * `Invalid size: ${sizeRule(1200)}`; // "Invalid size: must be a whole number of pixels from 1 to 1200"
 * ```
 */
export function sizeRule(maxSize: number): string {
  return `must be a whole number of pixels from 1 to ${maxSize}`;
}

/** The rule `theme` must follow: `"must be light or dark"`. */
export const THEME_RULE: string = `must be ${oneOf(LOGO_THEMES)}`;

/** The rule `format` must follow: `"must be png, webp, jpeg or svg"`. */
export const FORMAT_RULE: string = `must be ${oneOf(LOGO_FORMATS)}`;

/**
 * The rule the `greyscale` query parameter must follow: `"must be true, 1, yes, false, 0 or no"`.
 */
export const GREYSCALE_RULE: string = `must be ${
  oneOf([...GREYSCALE_SPELLINGS.true, ...GREYSCALE_SPELLINGS.false])
}`;

/** `["a", "b", "c"]` → `"a, b or c"`. */
function oneOf(words: readonly string[]): string {
  return `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/**
 * What answers when no logo is found: `404` (the default, `404 Logo not found`) or `monogram`
 * (a `200` letter tile, marked `X-Logo-Fallback: monogram`).
 */
export const LOGO_FALLBACKS = ["404", "monogram"] as const;

/** One of {@link LOGO_FALLBACKS}. */
export type LogoFallback = typeof LOGO_FALLBACKS[number];

/** The fallback when none is asked for: `404`. */
export const DEFAULT_FALLBACK: LogoFallback = "404";

/**
 * Whether `value` is one of {@link LOGO_FALLBACKS} (exact spelling).
 *
 * @example
 * ```ts
 * import { isLogoFallback } from "./logo_options.ts";
 * isLogoFallback("monogram"); // true
 * isLogoFallback("letter");   // false
 * ```
 */
export function isLogoFallback(value: unknown): value is LogoFallback {
  return (LOGO_FALLBACKS as readonly unknown[]).includes(value);
}

/** The rule `fallback` must follow: `"must be 404 or monogram"`. */
export const FALLBACK_RULE: string = `must be ${oneOf(LOGO_FALLBACKS)}`;

/**
 * Which of a domain's images a request asks for: its square `icon` (the default, the only one
 * before wordmarks existed) or its wide `logo` (wordmark or lock-up). A `logo` request for a domain
 * with no wordmark is answered with the icon, marked `X-Logo-Fallback: icon`.
 */
export const LOGO_TYPES = ["icon", "logo"] as const;

/** One of {@link LOGO_TYPES}. */
export type LogoType = typeof LOGO_TYPES[number];

/** The type when none is asked for: `icon`. */
export const DEFAULT_TYPE: LogoType = "icon";

/**
 * Whether `value` is one of {@link LOGO_TYPES} (exact spelling).
 *
 * @example
 * ```ts
 * import { isLogoType } from "./logo_options.ts";
 * isLogoType("logo");     // true
 * isLogoType("wordmark"); // false
 * ```
 */
export function isLogoType(value: unknown): value is LogoType {
  return (LOGO_TYPES as readonly unknown[]).includes(value);
}

/** The rule `type` must follow: `"must be icon or logo"`. */
export const TYPE_RULE: string = `must be ${oneOf(LOGO_TYPES)}`;

/**
 * What the `X-Logo-Fallback` header of a `200` may name, in the order things were substituted:
 * `icon` (a `type=logo` request for a domain with no wordmark got its icon), `monogram` (no
 * logo at all, a letter tile was drawn, asked with `fallback=monogram`) and `png` (`format=svg`
 * asked, but the image has no sanitised SVG — its source is a raster image, or it was stored
 * before SVG sources kept one — so its PNG was sent). The header lists every substitution made,
 * comma-separated ({@link fallbackHeader}): `icon, monogram` is a `type=logo` request answered
 * with a letter tile, `monogram, png` a tile asked as SVG.
 */
export const FALLBACK_MARKS = ["icon", "monogram", "png"] as const;

/** One of {@link FALLBACK_MARKS}. */
export type FallbackMark = typeof FALLBACK_MARKS[number];

/**
 * The `X-Logo-Fallback` value of `marks` (in order, comma-separated), `undefined` when none.
 *
 * @example
 * ```ts
 * import { fallbackHeader } from "./logo_options.ts";
 * fallbackHeader(["icon", "monogram"]); // "icon, monogram"
 * fallbackHeader([]);                   // undefined
 * ```
 */
export function fallbackHeader(marks: readonly FallbackMark[]): string | undefined {
  return marks.length === 0 ? undefined : marks.join(", ");
}

/**
 * The marks an `X-Logo-Fallback` value names, in order; names this version does not know are left
 * out, so a newer server's marks never break an older client.
 *
 * @example
 * ```ts
 * import { parseFallbackHeader } from "./logo_options.ts";
 * parseFallbackHeader("icon, monogram"); // ["icon", "monogram"]
 * parseFallbackHeader(null);             // []
 * ```
 */
export function parseFallbackHeader(value: string | null): FallbackMark[] {
  if (value === null) return [];
  const marks: FallbackMark[] = [];
  for (const part of value.split(",")) {
    const mark = part.trim().toLowerCase();
    if ((FALLBACK_MARKS as readonly string[]).includes(mark)) marks.push(mark as FallbackMark);
  }
  return marks;
}
