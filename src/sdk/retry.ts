/**
 * When and how long the client waits before repeating a request the server asked it to repeat
 * (429 and 503): the `Retry-After` header, and an abortable sleep.
 *
 * @module
 */

/** Statuses the client repeats after waiting: rate limited, and temporarily unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Reads a `Retry-After` header value as seconds: either a non-negative number of seconds or an
 * HTTP date (relative to `now`, epoch milliseconds). Returns undefined when absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfter("3", Date.now()); // 3
 * ```
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (!/^[A-Za-z]{3},/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

/**
 * Milliseconds to wait before retry number `attempt` (0 for the first retry): the server's
 * `Retry-After` when given, else an exponential backoff of 1 s, 2 s, 4 s… capped at 30 s.
 *
 * @example
 * ```ts
 * retryDelayMs(2, 0); // 2000
 * retryDelayMs(undefined, 1); // 2000
 * ```
 */
export function retryDelayMs(retryAfterSeconds: number | undefined, attempt: number): number {
  if (retryAfterSeconds !== undefined) return Math.ceil(retryAfterSeconds * 1000);
  return Math.min(30_000, 1000 * 2 ** attempt);
}

/**
 * Waits `ms` milliseconds; rejects at once with the signal's reason when `signal` aborts (before
 * or during the wait), and clears its timer either way.
 *
 * @example
 * ```ts
 * await sleep(10, AbortSignal.timeout(1000));
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
