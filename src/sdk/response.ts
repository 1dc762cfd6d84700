/**
 * What the SDK reads from the server's answer: the metadata of a 200 (content type, served domain,
 * ETag, rate-limit state, dimensions) and the error class of anything else.
 *
 * @module
 */

import {
  BadRequestError,
  ForbiddenError,
  LogoError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "./errors.ts";
import { type ImageSize, readImageSize } from "./image_size.ts";
import { parseRetryAfter } from "./retry.ts";
import { type FallbackMark as Mark, parseFallbackHeader } from "./logo_options.ts";

/**
 * One substitution a server made for the image asked (`X-Logo-Fallback`): `"icon"` (a wordmark
 * asked, the icon came), `"monogram"` (no logo, a letter tile came) or `"png"` (an SVG asked, the
 * image has none: its PNG came).
 *
 * @example
 * ```ts
 * import { LogoClient, type FallbackMark } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const { fallbacks } = await client.get("github.com", { type: "logo", fallback: "monogram" });
 * const isTile = fallbacks.includes("monogram" satisfies FallbackMark);
 * ```
 */
export type FallbackMark = Mark;

/**
 * The key's rate-limit state after a request, from the `X-RateLimit-*` headers.
 *
 * @example
 * ```ts
 * import { LogoClient, type RateLimitState } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const state: RateLimitState | undefined = (await client.get("github.com")).rateLimit;
 * if (state && state.remaining === 0) console.log("quota back at", state.reset.toISOString());
 * ```
 */
export interface RateLimitState {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** When the current window ends and `remaining` goes back to `limit`. */
  reset: Date;
}

/**
 * What the SDK tells about a logo besides its bytes.
 *
 * @example
 * ```ts
 * import { LogoClient, type LogoMetadata } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const { bytes: _, ...metadata } = await client.get("docs.github.com");
 * const info: LogoMetadata = metadata;
 * console.log(info.servedDomain); // "github.com" when docs.github.com has no logo of its own
 * ```
 */
export interface LogoMetadata {
  /** Exact media type of the bytes, e.g. `image/png`. */
  contentType: string;
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /**
   * The domain whose logo was served (server header `X-Logo-Domain`): the requested domain, or a
   * parent of it when the subdomain has no logo of its own.
   */
  servedDomain: string;
  /** The server's strong ETag for these bytes (changes with every option); undefined if absent. */
  etag: string | undefined;
  /** Rate-limit state of the key after this request; undefined if the server sent none. */
  rateLimit: RateLimitState | undefined;
  /**
   * What stands in for the image asked, undefined when it is the image asked: `"monogram"` when no
   * logo was found and the server answered a letter tile (asked with `fallback: "monogram"`),
   * else `"icon"` when a wordmark was asked (`type: "logo"`) and the domain's icon came instead,
   * else `"png"` when `format: "svg"` was asked and the image has no SVG, so its PNG came. From
   * the server header `X-Logo-Fallback`; {@link LogoMetadata.fallbacks} lists every mark.
   */
  fallback: FallbackMark | undefined;
  /**
   * Every substitution the server made, in order (`X-Logo-Fallback`): `[]` for the image asked,
   * `["icon"]`, `["monogram"]`, `["png"]`, or `["icon", "monogram"]` for a wordmark request
   * answered with a letter tile (`["monogram", "png"]` asked as SVG). Marks this SDK version does
   * not know are left out.
   */
  fallbacks: FallbackMark[];
}

/**
 * The metadata of a 200 answer apart from its dimensions; `requested` is the normalised domain
 * asked for (the served domain when the server does not say).
 *
 * @example
 * ```ts
 * const response = await fetch("https://logos.example.com/example.com");
 * const { contentType, servedDomain } = readHeaders(response.headers, "example.com");
 * ```
 */
export function readHeaders(
  headers: Headers,
  requested: string,
): Omit<LogoMetadata, "width" | "height"> {
  return {
    contentType: headers.get("content-type") ?? "application/octet-stream",
    servedDomain: headers.get("x-logo-domain") ?? requested,
    etag: headers.get("etag") ?? undefined,
    rateLimit: readRateLimit(headers),
    ...readFallback(headers.get("x-logo-fallback")),
  };
}

/**
 * The `fallback` and `fallbacks` of an `X-Logo-Fallback` value: the marks, and the one that says
 * what the image is (a tile over an icon).
 */
function readFallback(value: string | null): Pick<LogoMetadata, "fallback" | "fallbacks"> {
  const fallbacks = parseFallbackHeader(value);
  const fallback = fallbacks.includes("monogram") ? "monogram" : fallbacks[0];
  return { fallback, fallbacks };
}

/**
 * The dimensions a server states in `X-Logo-Width` / `X-Logo-Height` (Logo Lookup states them on
 * every 200; another server or a proxy may not).
 *
 * @example
 * ```ts
 * sizeFromHeaders(new Headers({ "x-logo-width": "128", "x-logo-height": "64" })); // {128, 64}
 * ```
 */
export function sizeFromHeaders(headers: Headers): ImageSize | undefined {
  const width = positiveInt(headers.get("x-logo-width"));
  const height = positiveInt(headers.get("x-logo-height"));
  return width !== undefined && height !== undefined ? { width, height } : undefined;
}

/**
 * The dimensions of a complete image body: from the headers when the server states them, else
 * from the image's own header bytes. Throws a `TypeError` when neither tells.
 *
 * @example
 * ```ts
 * const response = await fetch("https://example.com/logo.png");
 * const { width, height } = imageSizeOf(response.headers, await response.bytes());
 * ```
 */
export function imageSizeOf(headers: Headers, bytes: Uint8Array): ImageSize {
  const size = sizeFromHeaders(headers) ?? readImageSize(bytes);
  if (typeof size !== "object") throw new TypeError("Cannot read image size: unsupported format");
  return size;
}

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

function readRateLimit(headers: Headers): RateLimitState | undefined {
  const limit = headers.get("x-ratelimit-limit");
  const remaining = headers.get("x-ratelimit-remaining");
  const reset = headers.get("x-ratelimit-reset");
  if (limit === null || remaining === null || reset === null) return undefined;
  const values = [Number(limit), Number(remaining), Number(reset)];
  if (values.some((n) => !Number.isFinite(n))) return undefined;
  return { limit: values[0], remaining: values[1], reset: new Date(values[2] * 1000) };
}

/**
 * The error for a non-200 answer with body `text`: one class per status, `LogoError` for others.
 * `now` (epoch ms) dates an HTTP-date `Retry-After`.
 *
 * @example
 * ```ts
 * const response = await fetch("https://example.com/missing.png");
 * if (!response.ok) {
 *   throw errorFor(response.status, response.headers, await response.text(), Date.now());
 * }
 * ```
 */
export function errorFor(status: number, headers: Headers, text: string, now: number): LogoError {
  const retryAfter = parseRetryAfter(headers.get("retry-after"), now);
  switch (status) {
    case 400:
      return new BadRequestError(text);
    case 401:
      return new UnauthorizedError(text);
    case 403:
      return new ForbiddenError(text);
    case 404:
      return new NotFoundError(text);
    case 429: {
      const reset = Number(headers.get("x-ratelimit-reset") ?? NaN);
      return new RateLimitError(
        text,
        retryAfter,
        Number.isFinite(reset) ? new Date(reset * 1000) : undefined,
      );
    }
  }
  if (status >= 500 && status <= 599) return new ServerError(status, text, retryAfter);
  return new LogoError(status, text);
}
