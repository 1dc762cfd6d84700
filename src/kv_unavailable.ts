/**
 * The one place where a Deno KV failure on the request path becomes an answer: 503
 * `Service unavailable` with `Retry-After`, so a KV outage is never a 500 and never hangs a client.
 *
 * @example
 * ```ts
 * import { guardKv } from "./kv_unavailable.ts";
 * const kv = await Deno.openKv(":memory:");
 * const entry = await guardKv(() => kv.get(["keys", "pk_…"]), { timeoutMs: 2000 });
 * ```
 * @module
 */
import { HttpError } from "./http_error.ts";

/** Seconds a client is told to wait (`Retry-After`) when KV is unavailable. */
export const KV_RETRY_AFTER_SECONDS = 2;

/** How long a KV read on the request path may take before the request gets a 503, by default. */
export const KV_TIMEOUT_MS = 2_000;

/**
 * The answer to a request that needs KV while KV is failing: 503 `Service unavailable`, with
 * `Retry-After: retryAfterSeconds` (default {@link KV_RETRY_AFTER_SECONDS}). The rate limiter
 * passes the seconds left of its back-off.
 *
 * @example
 * ```ts
 * import { kvUnavailable } from "./kv_unavailable.ts";
 * const error = kvUnavailable(1);
 * error.status;                 // 503
 * error.headers["Retry-After"]; // "1"
 * ```
 */
export function kvUnavailable(retryAfterSeconds: number = KV_RETRY_AFTER_SECONDS): HttpError {
  return new HttpError(503, "Service unavailable", {
    "Retry-After": String(retryAfterSeconds),
  });
}

/** Options of {@link guardKv}. */
export interface GuardKvOptions {
  /** Milliseconds before a hanging KV operation counts as failed; default {@link KV_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Where the underlying failure is reported (never to the client); default `console.error`. */
  log?: (message: string, error?: unknown) => void;
}

/**
 * Runs a KV-backed operation of the request path. An `HttpError` it throws passes through; any
 * other failure, or no answer within `timeoutMs`, is logged and becomes {@link kvUnavailable}.
 */
export async function guardKv<T>(
  operation: () => Promise<T>,
  options: GuardKvOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? KV_TIMEOUT_MS;
  const log = options.log ?? console.error;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`KV did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    return await Promise.race([operation(), timeout]);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    log("KV unavailable on the request path", error);
    throw kvUnavailable();
  } finally {
    clearTimeout(timer);
  }
}
