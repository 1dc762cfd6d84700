/**
 * The errors the SDK throws for an HTTP answer other than 200: one class per status, all under
 * {@link LogoError}, each carrying the status and the server's plain-text body.
 *
 * @module
 */

/**
 * Base class of every error the server (or the SDK's own validation, which applies the server's
 * rules before sending anything) answers with. `status` is the HTTP status; `text` is the server's
 * plain-text body, such as `Logo not found`.
 *
 * @example
 * ```ts
 * import { LogoClient, LogoError } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…", baseUrl: "http://localhost:8000" });
 * try {
 *   await client.get("example.com");
 * } catch (error) {
 *   if (error instanceof LogoError) console.log(error.status, error.text);
 * }
 * ```
 */
export class LogoError extends Error {
  /** HTTP status code of the answer (for example 404). */
  readonly status: number;
  /** The server's plain-text body (for example `Logo not found`). */
  readonly text: string;

  /** Creates an error for an answer with `status` and body `text`. */
  constructor(status: number, text: string, options?: ErrorOptions) {
    super(text === "" ? `HTTP ${status}` : text, options);
    this.name = "LogoError";
    this.status = status;
    this.text = text;
  }
}

/**
 * 400: the request is malformed — an invalid domain (`Invalid domain format`) or an option out of
 * range. The SDK throws it itself, before any request, when its own validation fails.
 *
 * @example
 * ```ts
 * import { BadRequestError, LogoClient } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * await client.get("https://example.com/path").catch((e) => {
 *   if (e instanceof BadRequestError) console.log(e.text); // "Invalid domain format"
 * });
 * ```
 */
export class BadRequestError extends LogoError {
  /** Creates a 400 error with the server's (or the SDK's) reason. */
  constructor(text: string, options?: ErrorOptions) {
    super(400, text, options);
    this.name = "BadRequestError";
  }
}

/**
 * 401: the secret key is missing, malformed, unknown or revoked (`Missing or invalid token`).
 *
 * @example
 * ```ts
 * import { LogoClient, UnauthorizedError } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_revoked" });
 * await client.get("example.com").catch((e) => {
 *   if (e instanceof UnauthorizedError) console.log("check LOGO_SECRET_KEY");
 * });
 * ```
 */
export class UnauthorizedError extends LogoError {
  /** Creates a 401 error with the server's text. */
  constructor(text: string, options?: ErrorOptions) {
    super(401, text, options);
    this.name = "UnauthorizedError";
  }
}

/**
 * 403: the key is not allowed to make this request (a domain restriction or an attribution
 * requirement); `text` says which.
 *
 * @example
 * ```ts
 * import { ForbiddenError, LogoClient } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * await client.get("example.com").catch((e) => {
 *   if (e instanceof ForbiddenError) console.log(e.text); // e.g. "Attribution required"
 * });
 * ```
 */
export class ForbiddenError extends LogoError {
  /** Creates a 403 error with the server's text. */
  constructor(text: string, options?: ErrorOptions) {
    super(403, text, options);
    this.name = "ForbiddenError";
  }
}

/**
 * 404: no logo for the domain nor any of its parents (`Logo not found`) — or, with
 * `fallbackToParent: false`, none for the exact domain.
 *
 * @example
 * ```ts
 * import { LogoClient, NotFoundError } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * const logo = await client.get("example.com").catch((e) => {
 *   if (e instanceof NotFoundError) return undefined;
 *   throw e;
 * });
 * ```
 */
export class NotFoundError extends LogoError {
  /** Creates a 404 error with the server's text. */
  constructor(text: string, options?: ErrorOptions) {
    super(404, text, options);
    this.name = "NotFoundError";
  }
}

/**
 * 429: the key's rate limit is exhausted. Thrown once the client's retries (`maxRetries`) are
 * spent. `retryAfter` is the server's `Retry-After` in seconds; `reset` is when the window ends.
 *
 * @example
 * ```ts
 * import { LogoClient, RateLimitError } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…", maxRetries: 0 });
 * await client.get("example.com").catch((e) => {
 *   if (e instanceof RateLimitError) console.log(`retry in ${e.retryAfter} s`);
 * });
 * ```
 */
export class RateLimitError extends LogoError {
  /** Seconds to wait before retrying, from the `Retry-After` header (undefined if absent). */
  readonly retryAfter: number | undefined;
  /** When the rate-limit window resets, from `X-RateLimit-Reset` (undefined if absent). */
  readonly reset: Date | undefined;

  /** Creates a 429 error with the server's text and its retry hints. */
  constructor(
    text: string,
    retryAfter: number | undefined,
    reset: Date | undefined,
    options?: ErrorOptions,
  ) {
    super(429, text, options);
    this.name = "RateLimitError";
    this.retryAfter = retryAfter;
    this.reset = reset;
  }
}

/**
 * 5xx: the server failed or is unavailable. A 503 is retried after its `Retry-After` up to
 * `maxRetries` before this is thrown; `retryAfter` carries that hint when the server gave one.
 *
 * @example
 * ```ts
 * import { LogoClient, ServerError } from "@logo-lookup/sdk";
 *
 * const client = new LogoClient({ secretKey: "sk_…" });
 * await client.get("example.com").catch((e) => {
 *   if (e instanceof ServerError) console.log(e.status, e.text);
 * });
 * ```
 */
export class ServerError extends LogoError {
  /** Seconds to wait before retrying, from the `Retry-After` header (undefined if absent). */
  readonly retryAfter: number | undefined;

  /** Creates an error for a 5xx answer with the server's text. */
  constructor(status: number, text: string, retryAfter?: number, options?: ErrorOptions) {
    super(status, text, options);
    this.name = "ServerError";
    this.retryAfter = retryAfter;
  }
}
