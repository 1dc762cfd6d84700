/**
 * How a safe fetch gives up: {@link SafeFetchError} with a machine-readable code, and the
 * errors several steps raise (time budget exhausted, body too large, network failure).
 *
 * @module
 */

/** Why {@link safeFetch} gave up. */
export type SafeFetchErrorCode =
  | "bad_url"
  | "bad_scheme"
  | "blocked_address"
  | "dns"
  | "too_many_redirects"
  | "insecure_redirect"
  | "too_large"
  | "timeout"
  | "bad_encoding"
  | "network"
  | "tls";

/** A refusal or failure of {@link safeFetch}; never shown to API clients. */
export class SafeFetchError extends Error {
  /** Machine-readable reason. */
  readonly code: SafeFetchErrorCode;
  /** The URL of the hop that failed. */
  readonly url: string;
  /** Creates an error such as `new SafeFetchError("blocked_address", url, "Refused …")`. */
  constructor(code: SafeFetchErrorCode, url: string, message: string) {
    super(message);
    this.name = "SafeFetchError";
    this.code = code;
    this.url = url;
  }
}

/**
 * The refusal of a fetch whose time budget ran out (its `AbortSignal` aborted).
 *
 * @example
 * ```ts
 * console.log(timeoutError("https://example.com/").code); // "timeout"
 * ```
 */
export function timeoutError(href: string): SafeFetchError {
  return new SafeFetchError("timeout", href, `Gave up on ${href}: time budget exhausted`);
}

/**
 * The refusal of a body over the byte cap.
 *
 * @example
 * ```ts
 * console.log(tooLarge("https://example.com/", 1024).message);
 * ```
 */
export function tooLarge(href: string, maxBytes: number): SafeFetchError {
  return new SafeFetchError("too_large", href, `Refused ${href}: body exceeds ${maxBytes} bytes`);
}

/**
 * The failure of a TLS handshake that began (the server accepted the connection) and did not
 * complete: a certificate not trusted, for another name or expired, or no TLS spoken at all. Not
 * "no answer": discovery never reads the site over `http://` after one (`fetch_site.ts`).
 *
 * @example
 * ```ts
 * const error = tlsError("https://example.com/", new Error("unable to verify the first certificate"));
 * console.log(error.message); // "Cannot fetch https://example.com/: TLS handshake failed: unable …"
 * ```
 */
export function tlsError(href: string, error: unknown): SafeFetchError {
  const detail = error instanceof Error ? error.message : String(error);
  return new SafeFetchError("tls", href, `Cannot fetch ${href}: TLS handshake failed: ${detail}`);
}

/**
 * A connection or protocol failure as a {@link SafeFetchError} (one already is passes through).
 *
 * @example
 * ```ts
 * console.log(networkError("https://example.com/", new Error("reset")).code); // "network"
 * ```
 */
export function networkError(href: string, error: unknown): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new SafeFetchError("network", href, `Cannot fetch ${href}: ${detail}`);
}
