/**
 * `GET /metrics`: the Prometheus text exposition of {@link Metrics}, on only when
 * `LOGO_METRICS_TOKEN` is set, and then only for `Authorization: Bearer <that token>`.
 *
 * - Off: the endpoint does not exist; `/metrics` is answered like any other path without a dot.
 * - On: a missing or wrong bearer token is a 401 `Missing or invalid metrics token` (with
 *   `WWW-Authenticate: Bearer`); `GET`/`HEAD` with the token get 200 `text/plain; version=0.0.4`.
 * - Every answer is `Cache-Control: no-store`; the path has no dot, so it is never a domain, and it
 *   is answered before authentication and the rate limiter.
 *
 * @example
 * ```ts
 * import { createMetricsEndpoint, parseMetricsToken } from "./metrics_endpoint.ts";
 * import { createMetrics } from "./metrics.ts";
 * const token = parseMetricsToken("a-long-random-scrape-token");
 * const endpoint = createMetricsEndpoint(createMetrics(), token);
 * const answer = endpoint?.answer(new Request("http://localhost/metrics"), "/metrics");
 * ```
 * @module
 */
import { HttpError } from "../http_error.ts";
import type { Metrics } from "./metrics.ts";

/** The endpoint's path. */
export const METRICS_PATH = "/metrics";

/** Fewest characters of a metrics token. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

/**
 * Reads `LOGO_METRICS_TOKEN`: `undefined` (unset or empty) turns the endpoint off.
 *
 * @throws {Error} "Invalid LOGO_METRICS_TOKEN …" for fewer than 16 characters, or any character
 * that is not printable ASCII or is a space.
 */
export function parseMetricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (value.length < MIN_METRICS_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(value)) {
    throw new Error(
      `Invalid LOGO_METRICS_TOKEN: expected at least ${MIN_METRICS_TOKEN_LENGTH} printable ` +
        "ASCII characters without spaces (e.g. openssl rand -hex 24)",
    );
  }
  return value;
}

/** The metrics endpoint. */
export interface MetricsEndpoint {
  /**
   * The answer when `path` is {@link METRICS_PATH}, else `undefined`.
   *
   * @throws {HttpError} 401 without the right bearer token.
   */
  answer(request: Request, path: string): Promise<Response> | undefined;
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The endpoint over `metrics`, or `undefined` when `token` is (the endpoint is off). */
export function createMetricsEndpoint(
  metrics: Metrics,
  token: string | undefined,
): MetricsEndpoint | undefined {
  if (token === undefined) return undefined;
  const expected = `Bearer ${token}`;
  return {
    answer(request, path) {
      if (path !== METRICS_PATH) return undefined;
      const authorization = request.headers.get("authorization")?.trim() ?? "";
      if (!sameText(authorization, expected)) {
        throw new HttpError(401, "Missing or invalid metrics token", {
          "WWW-Authenticate": "Bearer",
        });
      }
      return metrics.text().then((body) =>
        new Response(request.method === "HEAD" ? null : body, {
          status: 200,
          headers: {
            "content-type": metrics.contentType,
            "content-length": String(new TextEncoder().encode(body).byteLength),
            "cache-control": "no-store",
            "x-content-type-options": "nosniff",
          },
        })
      );
    },
  };
}
