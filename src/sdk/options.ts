/**
 * The options of a logo request, their validation (the server's rules, applied before anything is
 * sent) and the request URL they make. The secret key never enters the URL: it travels only in the
 * `Authorization` header.
 *
 * @module
 */

import { normalizeDomainSyntax } from "./domain_syntax.ts";
import {
  FALLBACK_RULE,
  FORMAT_RULE,
  isLogoFallback,
  isLogoFormat,
  isLogoSize,
  isLogoTheme,
  isLogoType,
  type LogoFallback as Fallback,
  type LogoFormat as Format,
  type LogoTheme as Theme,
  type LogoType as Type,
  MAX_SECRET_SIZE,
  sizeRule,
  THEME_RULE,
  TYPE_RULE,
} from "./logo_options.ts";
import { BadRequestError } from "./errors.ts";

/**
 * Largest width a secret-key request may ask for, in pixels.
 *
 * @example
 * ```ts
 * import { LogoClient, MAX_SIZE } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const largest = await client.get("github.com", { size: MAX_SIZE });
 * ```
 */
export const MAX_SIZE: number = MAX_SECRET_SIZE;

/**
 * Background a themed variant is made for: each part of the logo short of 3:1 contrast on it gets
 * lighter or darker, hue kept; parts that read are left alone.
 *
 * @example
 * ```ts
 * import type { LogoTheme } from "@logo-lookup/sdk";
 *
 * const theme: LogoTheme = new Date().getHours() >= 19 ? "dark" : "light";
 * ```
 */
export type LogoTheme = Theme;

/**
 * Image format of the answer.
 *
 * @example
 * ```ts
 * import type { LogoFormat } from "@logo-lookup/sdk";
 *
 * const format: LogoFormat = "webp";
 * ```
 */
export type LogoFormat = Format;

/**
 * Which of a domain's images: its square `icon` (the default) or its wide `logo` (wordmark). A
 * `logo` request for a domain with no wordmark is answered with the icon, marked
 * `fallback: "icon"` in the result.
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoType } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const type: LogoType = "logo";
 * const header = await client.get("github.com", { type, size: 400 });
 * if (header.fallback === "icon") console.log("no wordmark stored: the icon came instead");
 * ```
 */
export type LogoType = Type;

/**
 * Options of one logo request. Unset options take the server's defaults (the icon, 128 px, colour,
 * no theme, PNG, parent fallback on).
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoOptions } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const options: LogoOptions = { size: 256, greyscale: true, theme: "dark", format: "png" };
 * const logo = await client.get("docs.github.com", { ...options, fallbackToParent: false });
 * ```
 */
export interface LogoOptions {
  /** `icon` (server default) or `logo`, the wordmark (the icon when the domain has none). */
  type?: LogoType;
  /** Pixel width, an integer from 1 to 1200; the aspect ratio is kept. Server default: 128. */
  size?: number;
  /** Render the logo in black and white. */
  greyscale?: boolean;
  /** Make a variant for a `light` or `dark` background. */
  theme?: LogoTheme;
  /**
   * Image format: `png` (default), `webp`, `jpeg`, or `svg` — the logo's sanitised SVG when its
   * source is one, else its PNG (the result's `fallback` is then `"png"`).
   */
  format?: LogoFormat;
  /**
   * Whether a parent domain's logo may answer for a subdomain (the server tries the exact domain,
   * then its parents down to the registrable domain). Default `true`. With `false`, an answer for
   * a parent is treated as `NotFoundError` (404) — the request still counts against the rate limit.
   */
  fallbackToParent?: boolean;
  /**
   * What answers when no logo is found: `"404"` (the server's default: `NotFoundError`) or
   * `"monogram"`, a square letter tile marked `fallback: "monogram"` in the result.
   */
  fallback?: LogoFallback;
  /** Cancels the request, a retry wait, or the body download, at once. */
  signal?: AbortSignal;
}

/**
 * What answers when no logo is found: `"404"` (default) or a `"monogram"` letter tile.
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoFallback } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const fallback: LogoFallback = "monogram";
 * const logo = await client.get("no-logo.example", { fallback });
 * if (logo.fallback === "monogram") console.log("a letter tile, not the real logo");
 * ```
 */
export type LogoFallback = Fallback;

/**
 * Checks `options` against the server's rules; throws `BadRequestError` naming the first bad one.
 *
 * @example
 * ```ts
 * validateOptions({ size: 256, format: "webp" }); // ok
 * validateOptions({ size: 5000 }); // throws BadRequestError
 * ```
 */
export function validateOptions(options: LogoOptions): void {
  const { type, size, greyscale, theme, format, fallback, fallbackToParent } = options;
  if (type !== undefined && !isLogoType(type)) {
    throw new BadRequestError(`Invalid type: ${TYPE_RULE}`);
  }
  if (size !== undefined && !isLogoSize(size, MAX_SIZE)) {
    throw new BadRequestError(`Invalid size: ${sizeRule(MAX_SIZE)}`);
  }
  if (greyscale !== undefined && typeof greyscale !== "boolean") {
    throw new BadRequestError("Invalid greyscale: must be true or false");
  }
  if (theme !== undefined && !isLogoTheme(theme)) {
    throw new BadRequestError(`Invalid theme: ${THEME_RULE}`);
  }
  if (format !== undefined && !isLogoFormat(format)) {
    throw new BadRequestError(`Invalid format: ${FORMAT_RULE}`);
  }
  if (fallback !== undefined && !isLogoFallback(fallback)) {
    throw new BadRequestError(`Invalid fallback: ${FALLBACK_RULE}`);
  }
  if (fallbackToParent !== undefined && typeof fallbackToParent !== "boolean") {
    throw new BadRequestError("Invalid fallbackToParent: must be true or false");
  }
}

/**
 * Normalises `domain` with the server's syntax rules (trim, lowercase, no trailing dot, IDN to
 * punycode); throws `BadRequestError("Invalid domain format")` for anything that is no host name.
 * A bare public suffix (`co.uk`) passes: the server answers it with that same `400`.
 *
 * @example
 * ```ts
 * checkDomain(" Example.COM. "); // "example.com"
 * ```
 */
export function checkDomain(domain: string): string {
  const normalized = typeof domain === "string" ? normalizeDomainSyntax(domain) : undefined;
  if (normalized === undefined) throw new BadRequestError("Invalid domain format");
  return normalized;
}

/**
 * The request URL for a normalised `domain` under `baseUrl`: `{baseUrl}/{domain}` plus the set
 * options as query parameters. Never contains a key.
 *
 * @example
 * ```ts
 * logoUrl(new URL("http://localhost:8000"), "example.com", { size: 256 }).href;
 * // "http://localhost:8000/example.com?size=256"
 * ```
 */
export function logoUrl(baseUrl: URL, domain: string, options: LogoOptions): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${encodeURIComponent(domain)}`;
  url.search = "";
  url.hash = "";
  if (options.type !== undefined) url.searchParams.set("type", options.type);
  if (options.size !== undefined) url.searchParams.set("size", String(options.size));
  if (options.greyscale === true) url.searchParams.set("greyscale", "true");
  if (options.theme !== undefined) url.searchParams.set("theme", options.theme);
  if (options.format !== undefined) url.searchParams.set("format", options.format);
  if (options.fallback !== undefined) url.searchParams.set("fallback", options.fallback);
  return url;
}
