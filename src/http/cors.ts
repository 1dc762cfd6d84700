/**
 * CORS for the logo endpoint. A key without an allowlist answers any origin
 * (`Access-Control-Allow-Origin: *`); a key with one reflects the request's allowed origin with
 * `Vary: Origin, Referer` (the answer depends on both: the `Referer` decides when there is no
 * `Origin`; such answers are also `private`, see `cache_policy.ts`). Preflights (`OPTIONS`) are
 * answered without authentication — the request that follows is checked — and never allow the
 * `Authorization` header: secret keys are for servers, not browsers.
 *
 * @example
 * ```ts
 * import { corsHeaders } from "./cors.ts";
 * corsHeaders(null);                  // [["access-control-allow-origin", "*"], …]
 * corsHeaders("https://example.com"); // reflects the origin, adds "vary: Origin, Referer"
 * ```
 * @module
 */

/** Headers a browser script may read from our responses besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS =
  "ETag, Retry-After, X-Logo-Domain, X-Logo-Width, X-Logo-Height, X-Logo-Fallback, " +
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset";

/** Methods the endpoint serves, as sent in `Allow` and `Access-Control-Allow-Methods`. */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/** How long a browser may cache a preflight answer, in seconds. */
export const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/** A response header as a name/value pair. */
export type HeaderPair = readonly [string, string];

/** The CORS headers of a response that any origin may read. */
export const ANY_ORIGIN: readonly HeaderPair[] = Object.freeze(
  [
    ["access-control-allow-origin", "*"],
    ["access-control-expose-headers", EXPOSED_HEADERS],
  ] as const,
);

/**
 * The CORS headers of a response: {@link ANY_ORIGIN} when `allowedOrigin` is `null` (no
 * allowlist), else that origin reflected, with `Vary: Origin, Referer`.
 */
export function corsHeaders(allowedOrigin: string | null): readonly HeaderPair[] {
  if (allowedOrigin === null) return ANY_ORIGIN;
  return [
    ["access-control-allow-origin", allowedOrigin],
    ["access-control-expose-headers", EXPOSED_HEADERS],
    ["vary", "Origin, Referer"],
  ];
}

/**
 * Answers an `OPTIONS` request: 204 with `Allow`, and for a CORS preflight the methods and the one
 * request header (`If-None-Match`) a browser may send. Not authenticated, not rate limited.
 */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: [
      ["allow", ALLOWED_METHODS],
      ["access-control-allow-origin", "*"],
      ["access-control-allow-methods", "GET, HEAD"],
      ["access-control-allow-headers", "If-None-Match"],
      ["access-control-max-age", String(PREFLIGHT_MAX_AGE_SECONDS)],
      ["cache-control", `public, max-age=${PREFLIGHT_MAX_AGE_SECONDS}`],
    ],
  });
}
