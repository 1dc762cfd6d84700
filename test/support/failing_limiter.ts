/**
 * A rate limiter whose every `take` rejects with the given error: how a test makes a step of the
 * request path fail in a chosen way.
 *
 * @example
 * ```ts
 * import { failingLimiter } from "./failing_limiter.ts";
 * import { startTestApp } from "./server.ts";
 * await using server = await startTestApp({ app: { limiter: failingLimiter(new Error("boom")) } });
 * console.log((await server.exchange(server.logoUrl("example.com"))).status); // 500
 * ```
 * @module
 */
import type { RateLimiter } from "../../src/limits/rate_limiter.ts";

/** A limiter that fails every request with `error`. */
export function failingLimiter(error: unknown): RateLimiter {
  return {
    take: () => Promise.reject(error),
    close: () => Promise.resolve(),
    returnIdle: () => Promise.resolve(0),
    stats: () => ({
      instanceId: "failing",
      admitted: 0,
      denied: 0,
      leaseAttempts: 0,
      leases: 0,
      unavailable: 0,
      returned: 0,
    }),
  };
}
